"""Give every question of a ``questions.jsonl`` without a ``split`` one, by a fixed rule.

    python scripts/assign_splits.py bench/datasets/isles/questions.jsonl [...]

The rule (each dataset README states it too): questions are taken in file order; a
question's stratum is (category, answerable, contested); it goes to the split that holds
fewer questions of its stratum so far, on a tie to the split with fewer questions in the
file so far, on a tie to ``dev``. Questions with the same text (one question asked as of
two dates) go together, to the split of the first of them. Lines that already have a
split keep it and are counted, so questions added later do not move earlier ones:
a split, once written, is never changed by this script.

Every stratum of two or more questions ends with some in each half, and the halves differ
by at most one question per stratum.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

SIDES = ("dev", "test")


def stratum(row: dict[str, Any]) -> tuple[str, bool, bool]:
    """What a split must balance: the question's category and its two outcome labels."""
    return (row["category"], bool(row["answerable"]), bool(row["contested"]))


def assign(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``rows`` with a ``split`` on each (placed after ``category``), by the module's rule."""
    per_stratum: Counter[tuple[tuple[str, bool, bool], str]] = Counter()
    overall: Counter[str] = Counter()
    by_text: dict[str, str] = {}
    for row in rows:
        if row.get("split") in SIDES:
            per_stratum[(stratum(row), row["split"])] += 1
            overall[row["split"]] += 1
            by_text.setdefault(row["question"], row["split"])
    out = []
    for row in rows:
        side = row.get("split")
        if side not in SIDES:
            side = by_text.get(row["question"]) or min(
                SIDES, key=lambda s: (per_stratum[(stratum(row), s)], overall[s], SIDES.index(s))
            )
            per_stratum[(stratum(row), side)] += 1
            overall[side] += 1
            by_text.setdefault(row["question"], side)
        labelled = {}
        for key, value in row.items():
            if key == "split":
                continue
            labelled[key] = value
            if key == "category":
                labelled["split"] = side
        labelled.setdefault("split", side)
        out.append(labelled)
    return out


def main(argv: list[str] | None = None) -> int:
    """Label the files named on the command line, in place."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args(argv)
    for path in args.files:
        lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        rows = assign([json.loads(line) for line in lines])
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        count = Counter(r["split"] for r in rows)
        print(f"{path}: {count['dev']} dev, {count['test']} test")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Side by side: the brains of `groundgate eval` runs, one Markdown row per (run, model).

Usage:
    groundgate eval --models offline,compatible:http://127.0.0.1:18090/v1#qwen2.5-coder-1.5b-instruct \
        --configs C --policies on --timeout 900 --out eval-golden
    python bench/compare_models.py eval-golden [more eval folders ...]

Columns: correct (answerable questions whose gold facts are all in the answer), contested
presented (both positions shown / contested questions), insufficient (unanswerable said
insufficient / unanswerable), wrong refusals (answerable said insufficient, or a contested
question refused), the model's own first call (agent runs whose first model reply called a
tool, not the fixed first round), tool calls, model calls and tokens (medians), seconds per
question (median).
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import defaultdict
from pathlib import Path


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def _row(folder: Path, key: str, rows: list[dict]) -> str:
    answerable = [r for r in rows if r["answerable"]]
    correct = sum(1 for r in answerable if r["correctness"] == 1.0)
    contested = [r for r in rows if r["contested"]]
    both = sum(1 for r in contested if r["refusal"] == "presented_both")
    unanswerable = [r for r in rows if not r["answerable"]]
    said = sum(1 for r in unanswerable if r["insufficient"] == "said_insufficient")
    wrong = sum(
        1 for r in rows if r["insufficient"] == "wrongly_insufficient" or r["refusal"] == "refused_wrongly"
    )
    models = [[s for s in r["trace"]["steps"] if s["kind"] == "model"] for r in rows]
    first_called = [bool(m and m[0].get("tool_calls") and not m[0].get("fallback")) for m in models]
    agent = [c for r, c in zip(rows, first_called, strict=True) if r["config"] in ("B", "C")]
    own = f"{sum(agent)}/{len(agent)}" if agent else "–"
    return (
        f"| {folder.name} | {key} | {correct}/{len(answerable)} | {both}/{len(contested)} | "
        f"{said}/{len(unanswerable)} | {wrong} | {own} | {_median([r['tool_calls'] for r in rows]):.0f} | "
        f"{_median([len(m) for m in models]):.0f} | {_median([r['tokens'] for r in rows]):.0f} | "
        f"{_median([r['latency_ms'] / 1000 for r in rows]):.1f} |"
    )


def main(folders: list[str]) -> None:
    """Print the table for the eval result folders given."""
    print("| set | run | correct | contested presented | insufficient | wrong refusals | model called a tool "
          "first | tool calls | model calls | tokens | s/question |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name in folders:
        folder = Path(name)
        by_key: dict[str, list[dict]] = defaultdict(list)
        for line in (folder / "results.jsonl").read_text().splitlines():
            row = json.loads(line)
            by_key[row["key"]].append(row)
        for key, rows in by_key.items():
            print(_row(folder, key, rows))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="*", default=["groundgate-eval"], help="eval --out folders")
    main(parser.parse_args().folders)

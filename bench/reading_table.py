"""How the answers read, on every dataset: one table for one split, offline.

Runs the offline evaluation (lane A, and the router that `groundgate ask --mode auto`
uses; policies on) on the bundled golden set and every set in bench/datasets/, keeps the
questions of one split, and prints one Markdown row per dataset and configuration, then
the rows pooled over all datasets. Figures only: nothing is asserted.

Columns (answerable questions, then unanswerable, then all):

- correct: share whose answer holds every keyword group; coverage: mean share of groups;
- wrong refusals: answerable questions the answer said the sources do not answer;
- said insufficient: unanswerable questions the answer said so on;
- contested presented: contested questions whose answer presented every position;
- wrong disagreement: uncontested questions whose answer presented a register entry;
- leaks: answers holding an internal string (a tool name, a tool's error string, the
  INSUFFICIENT mark, a Python repr, an entity id);
- Yes/No first: yes/no questions with an expected lead whose answer starts with it;
- Yes/No wrong: the same questions whose answer starts with the other word (worse than none);
- off subject: answerable questions whose answer cites a source beyond the expected ones.

Usage:
    python bench/reading_table.py                   # the test split (~1 min here)
    python bench/reading_table.py --split dev --out /tmp/reading-dev   # and keep the rows
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # this checkout's groundgate, not whichever is installed

from groundgate.eval.dataset import SPLITS, dataset_store, load_questions, select_split  # noqa: E402
from groundgate.eval.metrics import lead_ok  # noqa: E402
from groundgate.eval.runner import evaluate, parse_list  # noqa: E402
from groundgate.knowledge.embed import make_embedder  # noqa: E402

DATASETS: dict[str, Path] = {
    "golden": REPO / "groundgate" / "corpus" / "insurance",
    **{name: REPO / "bench" / "datasets" / name
       for name in ("riverbend", "careers", "isles", "handbook", "aerosense", "council", "newsroom",
                    "orchestra")},
}
CONFIGS = ("router", "A")
_OTHER = {"Yes": "No", "No": "Yes"}
HEAD = ["dataset", "config", "answerable", "correct", "coverage", "wrong refusals", "unanswerable",
        "said insufficient", "contested presented", "wrong disagreement", "leaks", "Yes/No first",
        "Yes/No wrong", "off subject"]


def _share(hits: int, n: int) -> str:
    return "–" if n == 0 else f"{hits}/{n} ({hits / n:.2f})"


def _mean(values: Sequence[float]) -> str:
    return "–" if not values else f"{sum(values) / len(values):.2f}"


def row_figures(name: str, config: str, rows: Sequence[dict[str, Any]]) -> list[str]:
    """One table row from the eval rows of one dataset (or several) and one configuration."""
    answerable = [r for r in rows if r["answerable"]]
    unanswerable = [r for r in rows if not r["answerable"]]
    contested = [r for r in rows if r["contested"]]
    calm = [r for r in rows if not r["contested"]]
    led = [r for r in rows if r["lead_ok"] is not None]
    judged = [r for r in rows if r["off_subject"] is not None]
    return [
        name, config, str(len(answerable)),
        _mean([float(r["correctness"] == 1.0) for r in answerable]),
        _mean([r["keyword_coverage"] for r in answerable if r["keyword_coverage"] is not None]),
        _share(sum(r["insufficient"] == "wrongly_insufficient" for r in answerable), len(answerable)),
        str(len(unanswerable)),
        _share(sum(r["insufficient"] == "said_insufficient" for r in unanswerable), len(unanswerable)),
        _share(sum(r["refusal"] == "presented_both" for r in contested), len(contested)),
        _share(sum(r["refusal"] == "refused_wrongly" for r in calm), len(calm)),
        _share(sum(r["leak"] for r in rows), len(rows)),
        _share(sum(bool(r["lead_ok"]) for r in led), len(led)),
        _share(sum(bool(lead_ok(r["answer"]["text"], _OTHER[r["expected_lead"]])) for r in led),
               len(led)),
        _share(sum(bool(r["off_subject"]) for r in judged), len(judged)),
    ]


def markdown(table: Sequence[Sequence[str]]) -> str:
    """The rows as a Markdown table, columns padded to line up."""
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) + " |" for row in table]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", choices=SPLITS, default="test", help="which half (default: test)")
    parser.add_argument("--configs", default=",".join(CONFIGS), help="A, B, C, router (default: router,A)")
    parser.add_argument("--datasets", default=",".join(DATASETS), help="default: all of them")
    parser.add_argument("--embedder", default="none", help="as for groundgate ingest (default: none)")
    parser.add_argument("--out", type=Path, help="also write each dataset's rows here, as results.jsonl")
    args = parser.parse_args(argv)
    configs = parse_list(args.configs, ["A", "B", "C", "router"], "--configs")
    names = parse_list(args.datasets, list(DATASETS), "--datasets")
    embedder = make_embedder(args.embedder)

    started = time.perf_counter()
    by_config: dict[str, list[dict[str, Any]]] = {c: [] for c in configs}
    table = [HEAD]
    for name in names:
        with dataset_store(DATASETS[name], embedder=embedder) as (store, questions_file):
            questions = select_split(load_questions(questions_file, store), args.split)
            rows = evaluate(store, questions, configs=configs, policies=["on"], models=["offline"],
                            embedder=embedder, env={})
        if args.out:
            (args.out / name).mkdir(parents=True, exist_ok=True)
            with (args.out / name / "results.jsonl").open("w", encoding="utf-8") as handle:
                for r in rows:
                    handle.write(json.dumps(r, ensure_ascii=False, default=str) + "\n")
        for config in configs:
            mine = [r for r in rows if r["config"] == config]
            by_config[config] += mine
            table.append(row_figures(name, config, mine))
    for config in configs:
        table.append(row_figures("all", config, by_config[config]))

    print(markdown(table))
    print(f"\n{args.split} split, offline model, policies on, embedder {args.embedder}; "
          f"router = --mode auto; {date.today().isoformat()}, {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

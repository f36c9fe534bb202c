"""Where the agent's tokens go, call by call, and the floor any plan of two calls would have.

Runs configuration C (the full agent) with the offline planner on the golden set (or a
dataset's split), as ``groundgate eval --configs C`` does, and reads each run's model steps
from its trace. Every model call is sent the tool contract and every earlier message again,
so a run costs the sum of its calls' prompts. It prints the median tokens of the first call,
the second, the last, the whole run, and two floors:

- **two calls**: the first call plus the last, as if every tool round were made at once
  after the first call and the answer written in the second (the same evidence, the same
  contract; nothing re-sent in between);
- **the last call alone**: the contract and everything the run retrieved, sent once.

Issue 13 asks for a median of at most 5,000. A floor above it says that no plan that
keeps the evidence the planner reads now can reach it; only less evidence (or a smaller
contract) can.

    python bench/token_floor.py
    python bench/token_floor.py --dataset bench/datasets/handbook --split dev

Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from importlib import resources
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # this checkout's groundgate, not whichever is installed

from groundgate.eval.dataset import SPLITS, dataset_store, load_questions, select_split  # noqa: E402
from groundgate.eval.runner import evaluate  # noqa: E402

GOLDEN = Path(str(resources.files("groundgate") / "corpus" / "insurance"))


def calls_of(row: dict[str, Any]) -> list[int]:
    """The tokens of each model call of a run, in order."""
    return [int(step["tokens"]) for step in row["trace"]["steps"] if step["kind"] == "model"]


def median(values: list[int]) -> str:
    return f"{statistics.median(values):,.0f}" if values else "–"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", type=Path, default=GOLDEN, help="a dataset folder (default: golden)")
    parser.add_argument("--split", choices=SPLITS, default="all", help="which half (default: all)")
    args = parser.parse_args(argv)
    with dataset_store(args.dataset) as (store, questions_file):
        questions = select_split(load_questions(questions_file, store), args.split)
        rows = evaluate(store, questions, configs=["C"], policies=["on"], models=["offline"], env={})
    runs = [calls_of(r) for r in rows]
    runs = [c for c in runs if c]
    print(f"{args.dataset.name}, split {args.split}: {len(runs)} runs of configuration C, offline planner\n")
    print("| figure (median over runs) | tokens |")
    print("|---|---|")
    print(f"| model calls | {median([len(c) for c in runs])} |")
    print(f"| first call | {median([c[0] for c in runs])} |")
    print(f"| second call | {median([c[1] for c in runs if len(c) > 1])} |")
    print(f"| last call | {median([c[-1] for c in runs])} |")
    print(f"| the whole run (what eval reports) | {median([sum(c) for c in runs])} |")
    print(f"| floor: two calls (first + last) | {median([c[0] + c[-1] for c in runs if len(c) > 1])} |")
    print(f"| floor: the last call alone | {median([c[-1] for c in runs])} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

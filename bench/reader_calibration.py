"""How far the reader's score can be trusted: the bar a reading must pass to overrule a model.

When a model answers ``INSUFFICIENT:`` the run's reader reads the same trace, and its
answer replaces the refusal only when its score is at least ``SETTLES_REFUSAL``
(``groundgate/nodes/compose.py``). This prints, for every non-contested question of a
split (golden set and the bench datasets), the reader's answered readings by score: how
many state the gold facts, and how many answer a question whose answer is absent. Two
readings per question: after the offline agent's first round (what a model that searched
once leaves behind) and after all its rounds.

    python bench/reader_calibration.py --split dev
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from groundgate.eval.dataset import dataset_store, load_questions, select_split
from groundgate.eval.metrics import keyword_coverage
from groundgate.graph.build import build_agent
from groundgate.models.offline import OfflinePlanner
from groundgate.nodes.compose import SETTLES_REFUSAL
from groundgate.reading import default_reader
from groundgate.reading.transcript import read_transcript

ROOT = Path(__file__).resolve().parents[1]
SETS = {"golden": ROOT / "groundgate" / "corpus" / "insurance",
        **{name: ROOT / "bench" / "datasets" / name
           for name in ("careers", "isles", "riverbend", "handbook", "aerosense", "disputes")}}
BARS = (0.5, 0.6, 0.7, 0.8, 0.9)


def _rounds(messages: list[Any], keep: int) -> list[Any]:
    """The conversation up to (not including) the tool round after ``keep``."""
    kept, rounds = [], 0
    for message in messages:
        if getattr(message, "tool_calls", None):
            rounds += 1
            if rounds > keep:
                break
        kept.append(message)
    return kept


def readings(split: str, only: str | None = None) -> list[dict[str, Any]]:
    """The answered readings of every non-contested question of ``split``, scored."""
    rows: list[dict[str, Any]] = []
    reader = default_reader()
    for name, folder in SETS.items():
        if only and name != only:
            continue
        with dataset_store(folder) as (store, questions):
            agent = build_agent(store, OfflinePlanner())
            for q in select_split(load_questions(questions, store), split):
                if q.contested:
                    continue
                messages: list[Any] = []
                given = {"question": q.question, "as_of": q.as_of.isoformat() if q.as_of else None}
                for state in agent.stream(given, stream_mode="values"):
                    messages = state.get("messages") or messages
                for cut, keep in (("after round 1", 1), ("after all rounds", 99)):
                    reading = reader.read(read_transcript(_rounds(messages, keep)))
                    if reading.outcome != "answered":
                        continue
                    right = q.answerable and (keyword_coverage(reading.text(), q.gold_keywords) or 0) >= 1.0
                    rows.append({"set": name, "cut": cut, "score": reading.score, "right": right,
                                 "absent": not q.answerable})
    return rows


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", choices=("dev", "test", "all"), default="dev")
    parser.add_argument("--only", choices=tuple(SETS), help="one set")
    args = parser.parse_args(argv)
    rows = readings(args.split, args.only)
    print(f"{args.split} split, non-contested questions; the bar in use: {SETTLES_REFUSAL}\n")
    print("| reading | score at least | answered | states the gold facts | answers an unanswerable one |")
    print("|---|---|---|---|---|")
    for cut in ("after round 1", "after all rounds"):
        for bar in BARS:
            held = [r for r in rows if r["cut"] == cut and r["score"] >= bar]
            right = sum(r["right"] for r in held)
            share = f"{right}/{len(held)} ({right / len(held):.2f})" if held else "0/0"
            print(f"| {cut} | {bar} | {len(held)} | {share} | {sum(r['absent'] for r in held)} |")


if __name__ == "__main__":
    main(sys.argv[1:])

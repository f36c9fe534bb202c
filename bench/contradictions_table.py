"""Contested questions presented, and disagreements wrongly shown, for each detector.

On the disagreement sets (bench/datasets/disputes and bench/datasets/accounts: sources
that disagree in words, by different authors), for each detector: contested questions
whose answer presents both positions (a contested point with a position from each side's
source), those answered from one side alone, and the rest; then, on the non-contested
questions of every dataset (the bundled insurance golden set, bench/datasets/*, and the
disagreement sets' controls of the chosen split), the share
whose answer shows a disagreement (target: at most 5%). Every question runs through lane
A with the offline planner; only the gate's detector changes.

The judge's model calls replay from cassettes/<model>/detector_judge[<dataset>-<qid>].yaml
(the network blocked: a call with no recording fails and is counted). Record them with a
live server (see docs/gate.md, "Detectors"):

    bash scripts/local-model.sh start
    python bench/contradictions_table.py --detectors judge --split all --record

By default the split applies to the disagreement sets only and every other set is read whole,
so its questions are in both the dev and the test figure; with ``--every-set`` the split
applies to every set (each question's own ``split``), which keeps the test figure apart
from what was tuned on dev.

Usage:
    python bench/contradictions_table.py [--split test|dev|all] [--detectors lexical,semantic,judge]
        [--judge-model SPEC] [--record] [--cassettes DIR] [--qids ID,...] [--details] [--only DATASET]
        [--every-set]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from groundgate.eval.dataset import dataset_store, load_questions  # noqa: E402
from groundgate.knowledge.default import bundled_questions  # noqa: E402
from groundgate.models.offline import OfflinePlanner  # noqa: E402
from groundgate.pipeline.build import build_pipeline  # noqa: E402
from groundgate.policies.detectors import Detector, LexicalDetector  # noqa: E402
from groundgate.policies.policyset import PolicySet  # noqa: E402
from groundgate.testing.cassettes import cassette, model_slug  # noqa: E402

DISAGREEMENT_SETS = ("disputes", "accounts")
"""The sets written for the gate: their contested questions are scored, split by topic."""
JUDGE_MODEL = "compatible:http://127.0.0.1:18090/v1#qwen2.5-coder-1.5b-instruct"
"""The local open model of scripts/local-model.sh, whose recordings replay here."""
CASSETTES = REPO / "cassettes"


def datasets() -> list[tuple[str, Path]]:
    """(name, folder) of every dataset: the disagreement sets first, then the golden set, then the rest."""
    root = REPO / "bench" / "datasets"
    others = sorted(p for p in root.iterdir() if p.is_dir() and p.name not in DISAGREEMENT_SETS)
    return [*((n, root / n) for n in DISAGREEMENT_SETS), ("golden", bundled_questions().parent),
            *((p.name, p) for p in others)]


def sides(point: dict[str, Any], expected: list[str]) -> bool:
    """Whether a presented point holds the first expected source on one side, the second on another."""
    a, b = expected[0], expected[1]
    positions = [set(p["source_ids"]) for p in point["positions"]]
    return any(a in x and b in y for i, x in enumerate(positions) for j, y in enumerate(positions) if i != j)


def outcome(answer: dict[str, Any], expected: list[str]) -> str:
    """``both``: presented with both sides; else what it cites: ``one side``, ``both cited``, ``none``."""
    if any(sides(p, expected) for p in answer["contested"]):
        return "both"
    cited = {c["source_id"] for c in answer.get("citations") or ()}
    hits = len(cited & set(expected[:2]))
    return {0: "none", 1: "one side"}.get(hits, "both cited")


def make_detector(name: str, *, judge_model: str, record: bool) -> Detector:
    """The detector called ``name``; the judge's model is live while recording, a placeholder otherwise."""
    if name == "lexical":
        return LexicalDetector()
    if name == "semantic":
        from groundgate.policies.detectors.semantic import SemanticDetector

        return SemanticDetector()
    if name == "judge":
        from groundgate.models.factory import make_chat_model
        from groundgate.policies.detectors.judge import JUDGE_SETTINGS, JudgeDetector

        model = make_chat_model(judge_model, env={}, max_retries=0, **JUDGE_SETTINGS)
        return JudgeDetector(model, model_name=judge_model)
    raise SystemExit(f"unknown detector {name!r}: lexical, semantic or judge")


def _judge_tape(
    detector: Detector, judge_model: str, dataset: str, qid: str, record: bool, cassettes: Path = CASSETTES
) -> Callable[[], Any]:
    if detector.name != "judge":
        return nullcontext
    folder = cassettes / model_slug(judge_model)
    path = folder / f"detector_judge[{dataset}-{qid}].yaml"
    if record:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "MODEL").write_text(judge_model + "\n")
        path.unlink(missing_ok=True)  # "all" appends to a cassette: a re-recording starts empty
        return lambda: cassette(path, record_mode="all")
    if not path.exists():
        return lambda: _no_calls(path)
    return lambda: cassette(path)


@contextmanager
def _no_calls(path: Path) -> Iterator[None]:
    """Replay of a question the recording made no call for: any call fails (nothing to play)."""
    with cassette(path, record_mode="none"):
        yield


def run(
    detector_names: list[str], split: str, *, judge_model: str, record: bool, details: bool, only: str | None,
    every_set: bool = False, cassettes: Path = CASSETTES, qids: frozenset[str] = frozenset(),
) -> None:
    """Print the tables."""
    rows: dict[str, list[dict[str, Any]]] = {n: [] for n in detector_names}
    for dataset, folder in datasets():
        if only and dataset != only:
            continue
        with dataset_store(folder) as (store, questions_path):
            questions = load_questions(questions_path, store)
            if dataset in DISAGREEMENT_SETS or every_set:
                questions = [q for q in questions if split == "all" or q.split == split]
            if qids:
                questions = [q for q in questions if q.qid in qids]
            if dataset not in DISAGREEMENT_SETS:
                # a "disagreement" question expects the unrecorded disagreement shown: not a control
                questions = [q for q in questions if not q.contested and q.category != "disagreement"]
            for name in detector_names:
                detector = make_detector(name, judge_model=judge_model, record=record)
                graph = build_pipeline(store, OfflinePlanner(), policies=PolicySet(detector=detector))
                for q in questions:
                    tape = _judge_tape(detector, judge_model, dataset, q.qid, record, cassettes)
                    started = time.perf_counter()
                    with tape():
                        out = graph.invoke(
                            {"question": q.question, "as_of": q.as_of.isoformat() if q.as_of else None}
                        )
                    answer = out["answer"]
                    notes = [n for n in answer["policy_notes"] if n.startswith("detector (")]
                    failed = any("model call failed" in n for n in notes)
                    row = {
                        "detector": name,
                        "dataset": dataset,
                        "qid": q.qid,
                        "category": q.category,
                        "contested": q.contested,
                        "outcome": outcome(answer, list(q.expected_source_ids)) if q.contested else None,
                        "shown": bool(answer["contested"]),
                        "failed": failed,
                        "seconds": time.perf_counter() - started,
                        "notes": notes,
                        "points": [
                            [p["statement"][:70] for p in pt["positions"]] for pt in answer["contested"]
                        ],
                    }
                    rows[name].append(row)
                    if details:
                        print(json.dumps(row, ensure_ascii=False), flush=True)
    _print(rows, split)


def _print(rows: dict[str, list[dict[str, Any]]], split: str) -> None:
    scored = {r["dataset"] for f in rows.values() for r in f if r["contested"]}
    sets = [n for n in DISAGREEMENT_SETS if n in scored]
    print(f"\nContested questions of the disagreement sets ({split} split), lane A, offline planner:\n")
    print(
        "| detector | set | contested | both positions presented | one side alone "
        "| both cited, none presented | neither | judge calls failed |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name, found in rows.items():
        for label in [*sets, "both"] if len(sets) > 1 else sets:
            of_set = [r for r in found if r["dataset"] == label or (label == "both" and r["dataset"] in sets)]
            contested = [r for r in of_set if r["contested"]]
            count = Counter(r["outcome"] for r in contested)
            n = len(contested) or 1
            print(
                f"| {name} | {label} | {len(contested)} | {count['both']} ({count['both'] / n:.2f}) | "
                f"{count['one side']} ({count['one side'] / n:.2f}) | {count['both cited']} | "
                f"{count['none']} | {sum(r['failed'] for r in of_set)} |"
            )
    kinds = sorted({r["category"] for f in rows.values() for r in f if r["contested"]})
    if kinds:
        print("\nBoth positions presented, by kind (every disagreement set):\n")
        print("| detector | " + " | ".join(k.removeprefix("contested-") for k in kinds) + " |")
        print("|---|" + "---|" * len(kinds))
        for name, found in rows.items():
            cells = []
            for kind in kinds:
                of_kind = [r for r in found if r["category"] == kind]
                cells.append(f"{sum(r['outcome'] == 'both' for r in of_kind)}/{len(of_kind)}")
            print(f"| {name} | " + " | ".join(cells) + " |")
    print("\nNon-contested questions where a disagreement was shown (wrongly):\n")
    names = sorted(
        {r["dataset"] for f in rows.values() for r in f if not r["contested"]},
        key=lambda d: [n for n, _ in datasets()].index(d),
    )
    print("| detector | " + " | ".join(names) + " | all |")
    print("|---|" + "---|" * (len(names) + 1))
    for name, found in rows.items():
        plain = [r for r in found if not r["contested"]]
        cells = []
        for dataset in names:
            of = [r for r in plain if r["dataset"] == dataset]
            cells.append(f"{sum(r['shown'] for r in of)}/{len(of)}")
        share = sum(r["shown"] for r in plain) / (len(plain) or 1)
        print(
            f"| {name} | "
            + " | ".join(cells)
            + f" | {sum(r['shown'] for r in plain)}/{len(plain)} ({share:.3f}) |"
        )
    for name, found in rows.items():
        if any(r["failed"] for r in found):
            # a failed judge call finds nothing: the answer is the lexical reading's, not the model's
            print(f"\n{name}: {sum(r['failed'] for r in found)} of {len(found)} questions had a model call "
                  "that failed (no recording, or an error); their answers are the lexical reading's")


def main() -> None:
    """Parse the arguments and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", choices=("test", "dev", "all"), default="test")
    parser.add_argument("--detectors", default="lexical,semantic,judge")
    parser.add_argument("--judge-model", default=JUDGE_MODEL)
    parser.add_argument("--record", action="store_true", help="call the judge's model live and record")
    parser.add_argument("--details", action="store_true", help="one JSON line per question")
    parser.add_argument("--only", help="one dataset: disputes, accounts, golden, or a bench/datasets folder")
    parser.add_argument(
        "--every-set", action="store_true",
        help="apply --split to every set, not only to the disagreement sets",
    )
    parser.add_argument(
        "--cassettes", type=Path, default=CASSETTES,
        help="folder of the judge's recordings (default: the repository's cassettes/; another folder "
        "records a trial without touching the kept ones)",
    )
    parser.add_argument("--qids", default="", help="only these questions (comma-separated)")
    args = parser.parse_args()
    run(
        [d.strip() for d in args.detectors.split(",") if d.strip()],
        args.split,
        judge_model=args.judge_model,
        record=args.record,
        details=args.details,
        only=args.only,
        every_set=args.every_set,
        cassettes=args.cassettes,
        qids=frozenset(q.strip() for q in args.qids.split(",") if q.strip()),
    )


if __name__ == "__main__":
    main()

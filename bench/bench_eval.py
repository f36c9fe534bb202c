"""Evaluation benchmark: wall time of the full offline evaluation. Prints figures, asserts nothing.

``python bench/bench_eval.py [--configs A,B,C,router] [--policies on,off] [--keep DIR]``

Every question of the bundled golden set goes through every configuration (A, B, C and the
router, policies on and off: 8 runs) with the offline model, exactly as ``groundgate eval``
does, then the report is written (with figures when matplotlib is installed). The bundled
corpus is first ingested into a temporary SQLite store; that ingest is timed apart and not
counted. The target is the evaluation plus the report in under 30 s.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from groundgate.eval.dataset import load_questions
from groundgate.eval.plots import available
from groundgate.eval.report import write_report
from groundgate.eval.runner import CONFIGS, POLICIES, evaluate, parse_list
from groundgate.eval.summary import summarise
from groundgate.knowledge.default import bundled_corpus, bundled_questions
from groundgate.knowledge.embedded.store import SQLiteStore
from groundgate.knowledge.ingest.pipeline import ingest

TARGET_S = 30.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configs", default="A,B,C,router")
    parser.add_argument("--policies", default="on,off")
    parser.add_argument("--keep", type=Path, default=None, help="Write the report here (default: temp dir).")
    args = parser.parse_args()
    configs = parse_list(args.configs, list(CONFIGS), "--configs")
    policies = parse_list(args.policies, list(POLICIES), "--policies")

    with tempfile.TemporaryDirectory(prefix="gg-bench-eval-") as tmp:
        started = time.perf_counter()
        writer = SQLiteStore.from_path(Path(tmp) / "store.sqlite")
        writer.setup()
        ingest(writer, bundled_corpus())
        writer.close()
        store = SQLiteStore.from_path(Path(tmp) / "store.sqlite", read_only=True)
        ingest_s = time.perf_counter() - started

        started = time.perf_counter()
        questions = load_questions(bundled_questions(), store)
        rows = evaluate(store, questions, configs=configs, policies=policies)
        eval_s = time.perf_counter() - started
        started = time.perf_counter()
        summary = summarise(rows, dataset="bundled golden set")
        write_report(args.keep or Path(tmp) / "report", rows, summary)
        report_s = time.perf_counter() - started
        store.close()

    per_run: dict[str, list[float]] = defaultdict(list)
    for row in rows:
        per_run[row["key"]].append(row["latency_ms"])
    print(f"bundled golden set: {len(questions)} questions x {len(per_run)} runs = {len(rows)} answers")
    print(f"ingest (not counted)      {ingest_s:6.1f} s")
    for key, latencies in per_run.items():
        median = statistics.median(latencies)
        print(f"  {key:<22} {sum(latencies) / 1000:6.1f} s   median {median:6.0f} ms/question")
    print(f"evaluation                {eval_s:6.1f} s")
    print(f"report{' + figures' if available() else ' (no matplotlib)':<19} {report_s:6.1f} s")
    total = eval_s + report_s
    verdict = "under" if total < TARGET_S else "OVER"
    print(f"total                     {total:6.1f} s   ({verdict} the {TARGET_S:.0f} s target)")


if __name__ == "__main__":
    main()

"""The real open model beside the offline planner, on the recorded golden questions, offline.

Replays every cassette of tests/replay/test_real_model_cassettes.py (network blocked by
VCR: every request must match a recording), runs the offline planner on the same
(configuration, question) pairs, scores both with the eval metrics, and prints one
Markdown row per brain and configuration, then one line per run. Seconds per question
for the real model are measured from the recording itself (the gap between consecutive
cassettes' write times, recorded one after another on a 2-core machine); the offline
planner's are measured here.

Usage: python bench/real_model_table.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "replay"))

from test_real_model_cassettes import BOUNDS, CASES, CASSETTES, SETTINGS, _build  # noqa: E402

from groundgate.eval.dataset import load_questions  # noqa: E402
from groundgate.eval.runner import score_row  # noqa: E402
from groundgate.knowledge.default import bundled_questions, open_store  # noqa: E402
from groundgate.models.factory import make_chat_model  # noqa: E402
from groundgate.models.offline import OfflinePlanner  # noqa: E402
from groundgate.settings import Settings  # noqa: E402
from groundgate.testing.cassettes import cassette, model_slug, recorded_models  # noqa: E402


def _recorded_seconds(folder: Path) -> dict[str, float]:
    files = sorted(folder.glob("real_model_run[[]*.yaml"), key=lambda p: p.stat().st_mtime)
    seconds: dict[str, float] = {}
    for before, after in zip(files, files[1:], strict=False):
        seconds[after.stem] = after.stat().st_mtime - before.stat().st_mtime
    return seconds


def _summary(name: str, config: str, rows: list[dict], seconds: list[float]) -> str:
    answerable = [r for r in rows if r["answerable"]]
    contested = [r for r in rows if r["contested"]]
    unanswerable = [r for r in rows if not r["answerable"]]
    wrong = sum(
        1 for r in rows if r["insufficient"] == "wrongly_insufficient" or r["refusal"] == "refused_wrongly"
    )
    models = [[s for s in r["trace"]["steps"] if s["kind"] == "model"] for r in rows]
    own = [bool(m and m[0].get("tool_calls") and not m[0].get("fallback")) for m in models]
    median = statistics.median
    secs = f"{median(seconds):.1f}" if seconds else "–"
    return (
        f"| {name} | {config} | {sum(r['correctness'] == 1.0 for r in answerable)}/{len(answerable)} | "
        f"{sum(r['refusal'] == 'presented_both' for r in contested)}/{len(contested)} | "
        f"{sum(r['insufficient'] == 'said_insufficient' for r in unanswerable)}/{len(unanswerable)} | "
        f"{wrong} | "
        f"{sum(own)}/{len(own)} | {median(r['tool_calls'] for r in rows):.0f} | "
        f"{median(len(m) for m in models):.0f} | {median(r['tokens'] for r in rows):.0f} | "
        f"{secs} |"
    )


def main() -> None:
    """Print the table."""
    settings = Settings.from_env()
    store = open_store(None, cache_dir=settings.cache_dir)
    questions = {q.qid: q for q in load_questions(bundled_questions(), store)}
    real = [m for m in recorded_models(CASSETTES) if m != "offline"]
    table: list[str] = []
    runs: list[str] = []
    for name in ["offline", *real]:
        folder = CASSETTES / model_slug(name)
        recorded = _recorded_seconds(folder) if name != "offline" else {}
        for config in dict.fromkeys(c for c, _ in CASES):
            rows, seconds = [], []
            for _, qid in [c for c in CASES if c[0] == config]:
                q = questions[qid]
                started = time.perf_counter()
                inputs = {"question": q.question, "as_of": q.as_of.isoformat() if q.as_of else None}
                if name == "offline":
                    out = _build(config, store, OfflinePlanner(), "offline").invoke(inputs)
                    seconds.append(time.perf_counter() - started)
                else:
                    placeholder = {"OPENAI_API_KEY": "replay-placeholder"}
                    model = make_chat_model(name, env=placeholder, max_retries=0, **SETTINGS)
                    path = folder / f"real_model_run[{config}-{qid}].yaml"
                    with cassette(path):
                        out = _build(config, store, model, name).invoke(inputs)
                    if path.stem in recorded:
                        seconds.append(recorded[path.stem])
                row = score_row(q, out, config=config, policies="on", model=name, latency_ms=0.0, store=store)
                rows.append(row)
                steps = out["trace"]["steps"]
                first = next((s for s in steps if s["kind"] == "model"), {})
                called = ",".join(first.get("tool_calls") or [])
                opened = "fixed first round" if first.get("fallback") else called
                runs.append(
                    f"| {name.split('#')[-1]} | {config} | {qid} | {q.category} | {opened} | "
                    f"{row['tool_calls']} | {row['correctness']} | {row['refusal'] or ''} | "
                    f"{row['insufficient']} |"
                )
            table.append(_summary(name.split("#")[-1], config, rows, seconds))
    store.close()
    print(f"Bounds: wall clock {BOUNDS.wall_clock_s:.0f} s; model settings {SETTINGS}.\n")
    print("| brain | config | correct | contested presented | insufficient | wrong refusals | model called a "
          "tool first | tool calls | model calls | tokens | s/question |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(table))
    print("\n| brain | config | qid | category | first call | tool calls | correct | refusal | "
          "insufficient |")
    print("|---|---|---|---|---|---|---|---|---|")
    print("\n".join(runs))


if __name__ == "__main__":
    main()

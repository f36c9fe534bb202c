"""Encode speed of the numpy MiniLM (the `local` embedder). Prints figures, asserts nothing.

``python bench/bench_minilm.py [--runs 5] [--batch-size 32] [--threads 1] [--limit N]``

Two workloads, each encoded ``--runs`` times, the median reported, as sentences per second of
wall time and per second of CPU time (the second is steadier on a shared machine; it is below
the first when BLAS keeps more than one core busy):
- passages: exactly the texts ingest embeds for the bundled corpus (its chunks), in one
  ``embed_documents`` call, as ingest makes it;
- queries: the golden-set questions, one ``embed_query`` call each, as a search makes them.
Needs the `embeddings` extra and the weights (see groundgate/knowledge/minilm.py).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence

from groundgate.eval.dataset import load_questions
from groundgate.knowledge.default import bundled_corpus, bundled_questions
from groundgate.knowledge.embedded.store import SQLiteStore
from groundgate.knowledge.ingest.pipeline import ingest
from groundgate.knowledge.minilm import MiniLMEmbedder


class _Recorder:
    """Stands in for an embedder during ingest and keeps the texts it is given."""

    dimension = 384

    def __init__(self) -> None:
        self.texts: list[str] = []

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        self.texts.extend(texts)
        return [[1.0] + [0.0] * (self.dimension - 1) for _ in texts]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


def _ingested_texts() -> list[str]:
    recorder = _Recorder()
    store = SQLiteStore.from_path(":memory:")
    store.setup()
    ingest(store, bundled_corpus(), embedder=recorder)
    store.close()
    return recorder.texts


def _rates(runs: int, count: int, encode) -> tuple[list[float], list[float]]:
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        encode()
        wall.append(count / (time.perf_counter() - start))
        cpu.append(count / max(time.process_time() - start_cpu, 1e-9))
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--threads", type=int, default=1, help="BLAS threads; 0 keeps BLAS's own count.")
    parser.add_argument("--limit", type=int, default=None, help="Encode only the first N texts of each.")
    args = parser.parse_args()

    start = time.perf_counter()
    model = MiniLMEmbedder(batch_size=args.batch_size, threads=args.threads or None)
    load_s = time.perf_counter() - start
    passages = _ingested_texts()[: args.limit]
    queries = [q.question for q in load_questions(bundled_questions())][: args.limit]
    tokens = [model.count_tokens(t) for t in passages]
    model.encode(passages[:8])  # first call: page the weights in

    rows = {
        "passages": _rates(args.runs, len(passages), lambda: model.embed_documents(passages)),
        "queries": _rates(args.runs, len(queries), lambda: [model.embed_query(q) for q in queries]),
    }
    print(f"model load (s)            | {load_s:.2f} |")
    print(f"BLAS threads              | {args.threads or 'BLAS default'} |")
    print(f"passages                  | {len(passages)} chunks, median {statistics.median(tokens):.0f} "
          f"word pieces (max {max(tokens)}) |")
    print(f"queries                   | {len(queries)} golden-set questions |")
    print("metric                    | median | min | max |")
    for name, (wall, cpu) in rows.items():
        for label, rates in ((f"{name} (sentences/s)", wall), (f"{name} (per CPU s)", cpu)):
            print(f"{label:<25} | {statistics.median(rates):.1f} | {min(rates):.1f} | {max(rates):.1f} |")


if __name__ == "__main__":
    main()

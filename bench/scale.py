"""A seeded generator of large synthetic corpora in the documented format.

``python bench/scale.py --chunks 100000 --out DIR`` writes ``DIR/docs/**.md`` and
``DIR/knowledge/knowledge.yaml`` (see ``docs/corpus-format.md``), then runs
``groundgate ingest DIR --store DIR.sqlite`` in a child process and prints its seconds and
peak resident memory (``--no-ingest``: only write; ``--reuse``: ingest what is there). The
same seed and size always give byte-identical files. This file is the measurement and the
command line; the corpus is written by ``corpus_writer.py`` from ``corpus_words.py``.

What it writes, so that every ingest stage has realistic work to do:

- documents of 2 to 5 sections; every section is one heading and less than 900 characters
  of text, so every section is exactly one chunk and the corpus has exactly ``--chunks``;
- a vocabulary of generated words drawn with a Zipf-like law (a few words are everywhere,
  most are rare), mixed with function words, domain words, ids, dates and amounts;
- value sentences (amounts, percentages, durations, dates, years) with mostly distinct
  subjects, a few boilerplate sentences repeated across documents, revised values in
  superseding versions (never a contradiction), and a handful of planted conflicts;
- glossaries whose defined terms are either declared entity names or new terms;
- entities with aliases and codes, typed relationships with validity windows (a few per
  entity, some to documents), documents about one to three entities, declared
  contradictions.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

# bench/ is not a package: these are the modules beside this file (on sys.path when it runs).
from corpus_words import Corpus, Vocabulary, zipf_weights
from corpus_writer import generate

__all__ = ["Corpus", "Vocabulary", "generate", "ingest_in_child", "zipf_weights"]


def ingest_in_child(folder: Path, store: Path) -> tuple[float, int]:
    """Run ``groundgate ingest FOLDER --store STORE`` of this checkout in a child process.

    Returns its wall-clock seconds and its peak resident set in MiB (``ru_maxrss`` of the
    child, which is this process's only child), so nothing of the generator is counted.
    """
    import os
    import resource
    import subprocess
    import sys

    checkout = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(checkout), *filter(None, [os.environ.get("PYTHONPATH")])]
    )}
    for stale in (store, store.with_name(store.name + "-journal")):
        stale.unlink(missing_ok=True)
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "groundgate", "ingest", str(folder), "--store", str(store)],
        check=True, cwd=checkout, env=env, stdout=subprocess.DEVNULL,
    )
    seconds = time.perf_counter() - started
    return seconds, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024


def main() -> None:
    """CLI: ``python bench/scale.py --chunks N [--out DIR] [--seed S] [--no-ingest | --reuse]``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=10000)
    parser.add_argument(
        "--out", type=Path, default=None,
        help="corpus folder (default: /tmp/groundgate-scale-<chunks>); the store is <out>.sqlite",
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-ingest", action="store_true", help="only write the corpus")
    parser.add_argument(
        "--reuse", action="store_true", help="ingest the corpus already in --out, do not write it"
    )
    args = parser.parse_args()
    out = args.out or Path(f"/tmp/groundgate-scale-{args.chunks}")
    if not (args.reuse and out.is_dir()):
        started = time.perf_counter()
        corpus = generate(args.chunks, out, seed=args.seed)
        print(
            f"wrote {corpus.documents} documents, {corpus.chunks} chunks, "
            f"{len(corpus.entities)} entities, {corpus.relationships} relationships, "
            f"{corpus.planted_conflicts} planted conflicts to {corpus.root} "
            f"in {time.perf_counter() - started:.1f} s"
        )
    if args.no_ingest:
        return
    store = out.with_name(out.name + ".sqlite")
    seconds, peak = ingest_in_child(out, store)
    print(
        f"groundgate ingest {out} --store {store}: {seconds:.1f} s, "
        f"peak RSS {peak} MiB (child maxrss), store {store.stat().st_size / 2**20:.0f} MiB"
    )


if __name__ == "__main__":
    main()

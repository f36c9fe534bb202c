"""How much of each passage a model is sent: chunk lengths against the snippet a search result carries.

Ingest packs a document's paragraphs into chunks of up to ``MAX_CHUNK_CHARS`` characters
(a longer paragraph stands alone); a search result sends the model, and so the reader, the
first ``SNIPPET_CHARS_FOR_MODEL`` of each. This prints, per dataset, how many chunks there
are, their median length, and the share whose end is cut off, so a change to either size
can be read against the corpora it meets.

    python bench/passage_cuts.py          # a few seconds

Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # this checkout's groundgate, not whichever is installed

from groundgate.knowledge.ingest.chunking import MAX_CHUNK_CHARS, chunk_document  # noqa: E402
from groundgate.knowledge.ingest.files import walk_corpus  # noqa: E402
from groundgate.knowledge.ingest.reader import read_document  # noqa: E402
from groundgate.tools.envelope import SNIPPET_CHARS_FOR_MODEL  # noqa: E402


def datasets() -> list[tuple[str, Path]]:
    """The golden set's corpus and every bench dataset's, by name."""
    found = [("golden", REPO / "groundgate" / "corpus" / "insurance" / "corpus")]
    found += [(p.name, p / "corpus") for p in sorted((REPO / "bench" / "datasets").iterdir())
              if (p / "corpus").is_dir()]
    return found


def lengths(corpus: Path) -> list[int]:
    """The length of every chunk ingest makes of the corpus's documents."""
    paths = walk_corpus(corpus).documents
    names = [p.stem for p in paths]
    return [len(chunk.text) for path in paths
            for chunk in chunk_document(read_document(path, corpus, shared_name=names.count(path.stem) > 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--snippet", type=int, default=SNIPPET_CHARS_FOR_MODEL,
                        help="characters of a passage a search result sends (default: the envelope's)")
    args = parser.parse_args()
    print(f"chunks packed up to {MAX_CHUNK_CHARS} characters; a search result sends {args.snippet}\n")
    print("| dataset | chunks | median length | longest | cut off |")
    print("|---|---|---|---|---|")
    total = cut = 0
    for name, corpus in datasets():
        sizes = lengths(corpus)
        if not sizes:
            continue
        over = sum(size > args.snippet for size in sizes)
        total, cut = total + len(sizes), cut + over
        print(f"| {name} | {len(sizes)} | {statistics.median(sizes):.0f} | {max(sizes)} | "
              f"{over} ({over / len(sizes):.0%}) |")
    print(f"| all | {total} | | | {cut} ({cut / max(total, 1):.0%}) |")


if __name__ == "__main__":
    main()

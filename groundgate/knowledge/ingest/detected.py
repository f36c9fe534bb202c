"""Ingest-time detection through the gate's detector protocol (semantic, a model judge).

The lexical reading of value statements always runs (``contradictions.py``). With a
detector given to ``ingest(..., detector=)``, the chunks of the ingest are also read in
pairs: two chunks of different documents (neither superseding the other, not both
sources of a declared entry, in force at overlapping times) that name the same things
(``MIN_SHARED_NAMES`` capitalised names that are not in most of the corpus) are
handed to ``detector.disagreements`` with no question, at most ``max_pairs`` pairs,
most alike first. What it finds is filed as a detected, open entry
(``detected_entry``), never resolved: a person decides.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from datetime import date
from typing import TYPE_CHECKING

from groundgate.knowledge.ingest.contradictions import detected_entry
from groundgate.knowledge.model import Chunk, Contradiction, Validity

if TYPE_CHECKING:
    from groundgate.policies.detectors.base import Detector, Passage

__all__ = ["MIN_SHARED_NAMES", "detect_with"]

MIN_SHARED_NAMES = 2
"""Capitalised names two chunks must share to be compared."""

COMMON_NAME_CHUNKS = 10
"""A name in more chunks than this (and a quarter of them) does not make two chunks comparable."""

_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]{2,}(?:\s+[A-Z][a-z]{2,})*")


def _names(text: str) -> set[str]:
    """Capitalised words and runs of them that do not open a sentence ("Hollin Ridge")."""
    return {m.group(0).lower() for m in _NAME.finditer(text)}


def _pairs(
    passages: list[Passage], related: set[frozenset[str]], covered: set[frozenset[str]], max_pairs: int
) -> list[tuple[Passage, Passage]]:
    """Pairs of chunks from different, unrelated documents that name the same things, most alike first."""
    names = [_names(f"{p.title}\n{p.text}") for p in passages]
    frequency: Counter[str] = Counter(n for found in names for n in found)
    # a name in a quarter of a large corpus's chunks says nothing about which speak of one thing
    common = {n for n, count in frequency.items() if count > max(COMMON_NAME_CHUNKS, len(passages) // 4)}
    scored: list[tuple[int, int, int]] = []
    by_name: dict[str, list[int]] = {}
    for index, found in enumerate(names):
        for name in found - common:
            by_name.setdefault(name, []).append(index)
    shared: Counter[tuple[int, int]] = Counter()
    for indices in by_name.values():
        for i, left in enumerate(indices):
            for right in indices[i + 1 :]:
                shared[(left, right)] += 1
    for (left, right), count in shared.items():
        a, b = passages[left], passages[right]
        pair = frozenset((a.source_id, b.source_id))
        if len(pair) < 2 or pair in related or pair in covered or not a.validity.overlaps(b.validity):
            continue
        if count >= MIN_SHARED_NAMES:
            scored.append((count, left, right))
    scored.sort(key=lambda item: (-item[0], item[1], item[2]))
    return [(passages[left], passages[right]) for _, left, right in scored[:max_pairs]]


def detect_with(
    detector: Detector,
    chunks: Iterable[tuple[Chunk, str, Validity]],
    *,
    related: set[frozenset[str]],
    covered: set[frozenset[str]],
    entity_ids: dict[str, tuple[str, ...]],
    today: date,
    already: Iterable[Contradiction] = (),
    max_pairs: int = 500,
) -> list[Contradiction]:
    """Open entries for the disagreements ``detector`` finds between chunks of different documents.

    Args:
        detector: Any detector of the protocol.
        chunks: Each chunk with its document's title and validity.
        related: Pairs of document ids where one supersedes the other (never compared).
        covered: Pairs of document ids already sources of a declared entry.
        entity_ids: Document id to the entity ids it is about.
        today: The opening date of new entries.
        already: Entries found otherwise (the lexical reading): a pair of documents they
            cover is not filed again.
        max_pairs: Most chunk pairs read (a judge makes one model call per pair).
    """
    from groundgate.policies.detectors.base import Passage

    passages = [
        Passage(source_id=c.doc_id, text=f"{c.heading}\n{c.text}", title=title, validity=validity)
        for c, title, validity in chunks
    ]
    known = {frozenset(e.source_ids) for e in already}
    found: dict[str, Contradiction] = {}
    for left, right in _pairs(passages, related, covered | known, max_pairs):
        detection = detector.disagreements([left, right], question=None)
        for finding in detection.findings:
            sides = [(p.statement, p.source_ids) for p in finding.positions if p.source_ids]
            if len({s for _, ids in sides for s in ids}) < 2 or frozenset(finding.source_ids) in known:
                continue
            entry = detected_entry(finding.topic, sides, entity_ids=entity_ids, today=today)
            found.setdefault(entry.id, entry)
            known.add(frozenset(finding.source_ids))
    return sorted(found.values(), key=lambda c: c.id)

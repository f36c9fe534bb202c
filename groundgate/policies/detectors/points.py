"""From a detector's findings to the contested points the gate presents.

Whatever detector found it, a disagreement is presented only when it is one: its
positions come from different documents (a document another of its sources supersedes is
dropped: an old version is no side), neither document supersedes the other, both
are in force at overlapping times (rules in force at different times are a change), and
the register does not already hold it (both documents are sources of one entry, or a
position restates an entry's position; that is the register's business). Then it is a
``ContestedPoint`` with status ``unrecorded``, presented by the disagreement
presentation with every position and its sources.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from groundgate.answer.model import Claim, ContestedPoint, StatedPosition
from groundgate.knowledge.model import Contradiction, Validity
from groundgate.knowledge.port import KnowledgeStore
from groundgate.knowledge.text import content_terms, coverage
from groundgate.policies.detectors.base import Detector, Finding, Passage
from groundgate.policies.detectors.evidence import answer_passages
from groundgate.tools.envelope import Envelope

__all__ = ["detected_points", "presentable"]

POSITION_RESTATED = 0.5
"""Share of a register position's words a finding's statement must hold to restate it."""


def presentable(
    findings: Sequence[Finding],
    passages: Sequence[Passage],
    store: KnowledgeStore | None,
    entries: Sequence[Contradiction] = (),
) -> list[Finding]:
    """The findings that are disagreements the register does not hold, one per pair of sources."""
    validity: dict[str, Validity] = {}
    for passage in passages:
        validity.setdefault(passage.source_id, passage.validity)
    recorded = [content_terms(p.statement) for entry in entries for p in entry.positions]
    kept: dict[frozenset[str], Finding] = {}
    for finding in (_current(f, store) for f in findings):
        sides = [frozenset(p.source_ids) for p in finding.positions if p.source_ids]
        if len(sides) < 2 or len(frozenset().union(*sides)) < 2:
            continue
        if any(a & b for i, a in enumerate(sides) for b in sides[i + 1 :]):
            continue  # one source on two sides is a change within a document, not two sources
        pairs = [
            (a, b) for i, left in enumerate(sides) for right in sides[i + 1 :] for a in left for b in right
        ]
        if not any(_in_force_together(validity, a, b) and not _versions(store, a, b) for a, b in pairs):
            continue
        sources = finding.source_ids
        if any(sources <= set(e.source_ids) for e in entries) or any(
            terms and coverage(terms, p.statement) >= POSITION_RESTATED
            for terms in recorded
            for p in finding.positions
        ):
            continue
        kept.setdefault(sources, finding)
    return list(kept.values())


def detected_points(
    detector: Detector,
    *,
    question: str,
    claims: Sequence[Claim],
    envelopes: Iterable[Mapping[str, Any] | Envelope],
    store: KnowledgeStore,
) -> tuple[list[ContestedPoint], list[str]]:
    """The disagreements ``detector`` finds in the passages the answer rests on, and its notes."""
    passages = answer_passages(claims, envelopes, store)
    if len({p.source_id for p in passages}) < 2:
        return [], []
    detection = detector.disagreements(passages, question=question, store=store)
    entries = store.contradictions(status=None)
    points = [
        ContestedPoint(
            topic=finding.topic,
            positions=tuple(
                StatedPosition(statement=p.statement, source_ids=p.source_ids) for p in finding.positions
            ),
            status="unrecorded",
        )
        for finding in presentable(detection.findings, passages, store, entries)
    ]
    return points, list(detection.notes)


def _current(finding: Finding, store: KnowledgeStore | None) -> Finding:
    """The finding without the sources another of its sources supersedes (an old version is no side)."""
    if store is None:
        return finding
    replaced = {
        old for sid in finding.source_ids if (doc := store.get_document(sid)) for old in doc.supersedes
    }
    if not replaced & finding.source_ids:
        return finding
    positions = tuple(
        replace(p, source_ids=kept)
        for p in finding.positions
        if (kept := tuple(s for s in p.source_ids if s not in replaced))
    )
    return replace(finding, positions=positions)


def _in_force_together(validity: dict[str, Validity], a: str, b: str) -> bool:
    left, right = validity.get(a, Validity()), validity.get(b, Validity())
    return left.overlaps(right)


def _versions(store: KnowledgeStore | None, a: str, b: str) -> bool:
    """Whether one document supersedes the other (a change, not a disagreement)."""
    if store is None:
        return False
    doc_a, doc_b = store.get_document(a), store.get_document(b)
    return bool((doc_a and b in doc_a.supersedes) or (doc_b and a in doc_b.supersedes))

"""Evidence disagreement: retrieved sources give different values for what the question
asks, and no register entry covers it. The answer shows both values with their sources
and says the disagreement is not yet recorded, instead of silently picking one.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from groundgate.answer.model import ContestedPoint, StatedPosition
from groundgate.knowledge.ingest.contradictions import _normal_value
from groundgate.knowledge.ingest.extract import ValueStatement, statements_in
from groundgate.knowledge.model import Validity
from groundgate.knowledge.port import KnowledgeStore
from groundgate.knowledge.text import content_terms, coverage, stem

__all__ = ["find_disagreements"]

QUESTION_FIT = 0.5
"""Share of the question's content words a sentence must contain to be about it."""

SUBJECT_OVERLAP = 0.3
"""Share of subject words two statements must have in common to be about the same thing."""

_ASKS = {
    "when": ("date", "year"),
    "date": ("date", "year"),
    "year": ("date", "year"),
    "much": ("money", "percent"),
    "amount": ("money",),
    "cost": ("money",),
    "long": ("year", "month", "week", "day", "hour"),
    "many": ("year", "month", "week", "day", "hour", "percent"),
}


def _wanted_units(question: str) -> set[str] | None:
    words = {w.lower().strip("?.,") for w in question.split()}
    units: set[str] = set()
    for word, kinds in _ASKS.items():
        if word in words:
            units.update(kinds)
    return units or None


def _statements(envelopes: Iterable[dict[str, Any]]) -> list[ValueStatement]:
    seen: set[tuple[str, str]] = set()
    out = []
    for env in envelopes:
        if env.get("error") or env["tool"] not in ("search_evidence", "get_source"):
            continue
        for item in env.get("results", ()):
            for sid in item.get("source_ids") or ():
                key = (sid, item.get("snippet", ""))
                if key in seen:
                    continue
                seen.add(key)
                out.extend(statements_in(sid, item.get("snippet", ""), Validity()))
    return out


def find_disagreements(
    question: str, envelopes: list[dict[str, Any]], store: KnowledgeStore
) -> list[ContestedPoint]:
    """Conflicting values about the question's subject in the retrieved evidence."""
    terms = content_terms(question)
    units = _wanted_units(question)
    relevant = [
        s for s in _statements(envelopes)
        if (units is None or s.unit in units) and coverage(terms, s.sentence) >= QUESTION_FIT
    ]
    registered = {
        frozenset((a, b))
        for entry in store.contradictions(status=None)
        for a in entry.source_ids
        for b in entry.source_ids
    }
    points: dict[tuple[str, ...], ContestedPoint] = {}
    for i, left in enumerate(relevant):
        for right in relevant[i + 1 :]:
            if left.doc_id == right.doc_id or left.unit != right.unit:
                continue
            if frozenset((left.doc_id, right.doc_id)) in registered or _versions(store, left.doc_id, right.doc_id):
                continue
            lv = {_normal_value(left.unit, v) for v in left.values}
            rv = {_normal_value(right.unit, v) for v in right.values}
            if lv == rv or lv & rv:
                continue
            shared = {stem(t) for t in terms} & left.subject & right.subject
            overlap = len(left.subject & right.subject) / max(1, len(left.subject | right.subject))
            if len(shared) < 2 or overlap < SUBJECT_OVERLAP:
                continue
            key = tuple(sorted((left.doc_id, right.doc_id)))
            points.setdefault(
                key,
                ContestedPoint(
                    topic=f"Sources give different {left.unit} values: {', '.join(sorted(lv | rv))}",
                    positions=(
                        StatedPosition(statement=left.sentence, source_ids=(left.doc_id,)),
                        StatedPosition(statement=right.sentence, source_ids=(right.doc_id,)),
                    ),
                    status="unrecorded",
                ),
            )
    return list(points.values())


def _versions(store: KnowledgeStore, a: str, b: str) -> bool:
    """Whether one document supersedes the other (a change, not a disagreement)."""
    doc_a, doc_b = store.get_document(a), store.get_document(b)
    return bool(
        (doc_a and b in doc_a.supersedes) or (doc_b and a in doc_b.supersedes)
    )

"""What an Azure AI Search query sends and how its answer becomes hits.

The query's content terms travel as quoted phrases in the simple syntax, so no character of
the question is read as an operator; validity (``as_of``) and kind travel as OData filters.
Scores are normalised to 0..1, best = 1.0, as the port requires.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import date
from typing import Any

from groundgate.knowledge.model import Entity, EvidenceHit, KnowledgeHit, Validity
from groundgate.knowledge.text import content_terms, coverage

__all__ = [
    "EVIDENCE_SELECT",
    "MAX_QUERY_TERMS",
    "evidence_hits",
    "knowledge_hits",
    "odata_day",
    "odata_filter",
    "search_text",
]

MAX_QUERY_TERMS = 12
"""Keyword terms per query, as in the embedded backend."""

EVIDENCE_SELECT = [
    "chunk_id",
    "doc_id",
    "title",
    "kind",
    "heading",
    "text",
    "effective_from",
    "effective_to",
]
"""The evidence fields a search returns."""


def search_text(query: str) -> str | None:
    """The query's content terms as quoted phrases; ``None`` when no term is left.

    In the simple syntax any phrase may match, and no character of the question can be read
    as an operator.
    """
    terms = content_terms(query, MAX_QUERY_TERMS)
    if not terms:
        return None
    return " ".join('"' + t.replace("\\", " ").replace('"', " ") + '"' for t in terms)


def _odata_string(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def odata_day(day: date) -> str:
    """A day as an OData ``DateTimeOffset`` literal (midnight UTC)."""
    return f"{day.isoformat()}T00:00:00Z"


def odata_filter(*, as_of: date | None = None, kinds: Sequence[str] = ()) -> str | None:
    """The OData filter for validity on ``as_of`` and membership in ``kinds``; ``None`` if none."""
    clauses = []
    if as_of is not None:
        day = odata_day(as_of)
        clauses.append(
            f"(effective_from eq null or effective_from le {day}) and "
            f"(effective_to eq null or effective_to gt {day}) and "
            f"(published_at eq null or published_at le {day})"
        )
    if kinds:
        clauses.append("(" + " or ".join(f"kind eq {_odata_string(k)}" for k in kinds) + ")")
    return " and ".join(clauses) if clauses else None


def _day(value: Any) -> date | None:
    return date.fromisoformat(str(value)[:10]) if value else None


def evidence_hits(
    rows: list[dict[str, Any]], score: Callable[[dict[str, Any]], float], query: str
) -> list[EvidenceHit]:
    """Evidence rows as hits, best first by ``score``, normalised to the best; zero scores dropped."""
    ranked = sorted(((score(r), r) for r in rows), key=lambda pair: -pair[0])
    ranked = [(s, r) for s, r in ranked if s > 0]
    if not ranked:
        return []
    best = ranked[0][0]
    terms = content_terms(query, MAX_QUERY_TERMS)
    hits = []
    for raw, row in ranked:
        normalised = round(raw / best, 4)
        if normalised <= 0.0:
            continue
        hits.append(
            EvidenceHit(
                chunk_id=row["chunk_id"],
                doc_id=row["doc_id"],
                title=row.get("title") or "",
                kind=row.get("kind") or "document",
                heading=row.get("heading") or "",
                text=row.get("text") or "",
                score=normalised,
                coverage=round(coverage(terms, f"{row.get('heading') or ''} {row.get('text') or ''}"), 4),
                validity=Validity(
                    valid_from=_day(row.get("effective_from")), valid_to=_day(row.get("effective_to"))
                ),
            )
        )
    return hits


def knowledge_hits(rows: list[dict[str, Any]]) -> list[KnowledgeHit]:
    """Knowledge rows as hits, best first (ties by entity id), normalised; zero scores dropped."""
    scored = sorted(
        ((float(r.get("@search.score") or 0.0), r) for r in rows),
        key=lambda pair: (-pair[0], pair[1]["entity_id"]),
    )
    scored = [(s, r) for s, r in scored if s > 0]
    if not scored:
        return []
    best = scored[0][0]
    return [
        KnowledgeHit(entity=Entity.model_validate(json.loads(r["entity_json"])), score=round(s / best, 4))
        for s, r in scored
    ]

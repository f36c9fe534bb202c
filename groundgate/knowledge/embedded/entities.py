"""Entity reads of the embedded store: BM25 over names, aliases and descriptions; lookups."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from groundgate.knowledge.embedded.bm25 import match_any, score_sql
from groundgate.knowledge.embedded.connection import Connected
from groundgate.knowledge.embedded.evidence import MAX_QUERY_TERMS
from groundgate.knowledge.embedded.rows import entity_from_row
from groundgate.knowledge.model import Entity, KnowledgeHit
from groundgate.knowledge.port import KnowledgeQuery
from groundgate.knowledge.text import content_terms
from groundgate.knowledge.weights import ENTITY_WEIGHTS

__all__ = ["EntityReads"]

_ENTITY_SCORE = score_sql("entities_fts", tuple(ENTITY_WEIGHTS.values()))


class EntityReads(Connected):
    """Entity search and lookups."""

    def _search_knowledge(self, query: KnowledgeQuery) -> list[KnowledgeHit]:
        """BM25 over entity names, aliases and descriptions, best first."""
        terms = content_terms(query.text, MAX_QUERY_TERMS)
        if not terms:
            return []
        scored = self._knowledge_ranks(terms, query.top_k, query.kinds)
        scored = [(row, s) for row, s in scored if s > 0]
        if not scored:
            return []
        best = scored[0][1]
        return [KnowledgeHit(entity=entity_from_row(row), score=round(s / best, 4)) for row, s in scored]

    def _knowledge_ranks(
        self, terms: list[str], top_k: int, kinds: Sequence[str]
    ) -> list[tuple[sqlite3.Row, float]]:
        """The ``top_k`` entities by BM25, ties by id, with their scores."""
        if not kinds:
            # Rank on the full-text index alone, then read only the winners' rows: joining
            # every match to entities costs more than the ranking. The ties by id are
            # settled here, which needs the whole tie group at the cut: if it may run past
            # what was fetched, the joined query below decides.
            fetch = 2 * top_k + 8
            head = self._ranks(self._entity_impacts, terms, fetch)
            if not head:
                return []
            if len(head) < fetch or head[-1][1] < head[top_k - 1][1]:
                # The winners are the rows scoring above the top_k-th score and, of those
                # tied with it, the smallest ids: those rows are read in full, in one query.
                cut = head[min(top_k, len(head)) - 1][1]
                chosen = [rowid for rowid, score in head if score > cut]
                tied = [rowid for rowid, score in head if score == cut]
                wanted = chosen + tied
                by_rowid = {
                    r["rowid"]: r
                    for r in self._rows(
                        f"SELECT * FROM entities WHERE rowid IN ({','.join('?' * len(wanted))})",
                        wanted,
                    )
                }
                if len(by_rowid) == len(wanted):
                    tied.sort(key=lambda rowid: by_rowid[rowid]["id"])
                    kept = set(chosen + tied[: top_k - len(chosen)])
                    return sorted(
                        ((by_rowid[rowid], score) for rowid, score in head if rowid in kept),
                        key=lambda pair: (-pair[1], pair[0]["id"]),
                    )
        kind_sql = f" AND e.kind IN ({','.join('?' * len(kinds))})" if kinds else ""
        rows = self._rows(
            f"SELECT e.*, {_ENTITY_SCORE} AS s FROM entities_fts f "
            "JOIN entities e ON e.rowid = f.rowid WHERE entities_fts MATCH ?"
            + kind_sql
            + " ORDER BY s DESC, e.id LIMIT ?",
            [match_any(terms), *kinds, top_k],
        )
        return [(r, float(r["s"])) for r in rows]

    def get_entity(self, entity_id: str) -> Entity | None:
        """The entity with this canonical id, or ``None``."""
        rows = self._rows("SELECT * FROM entities WHERE id = ?", [entity_id])
        return entity_from_row(rows[0]) if rows else None

    def find_entities(self, name: str) -> list[Entity]:
        """Entities whose id, name or alias equals ``name``, case-insensitively."""
        rows = self._rows(
            "SELECT DISTINCT e.* FROM entity_names n JOIN entities e ON e.id = n.entity_id "
            "WHERE n.name = ? ORDER BY e.id",
            [" ".join(name.lower().split())],
        )
        return [entity_from_row(r) for r in rows]

    def all_entities(self) -> list[Entity]:
        """Every entity, by id."""
        return [entity_from_row(r) for r in self._rows("SELECT * FROM entities ORDER BY id")]

"""Graph reads of the embedded store: a node's edges in time, and paths walked from them."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from groundgate.knowledge.embedded.connection import Connected
from groundgate.knowledge.embedded.rows import relationship_from_row
from groundgate.knowledge.model import Relationship, TraversalPath
from groundgate.knowledge.port import MAX_HOPS
from groundgate.knowledge.traversal import walk

__all__ = ["GraphReads"]


class GraphReads(Connected):
    """Edges and traversal."""

    def relationships(
        self,
        entity_id: str,
        *,
        types: Sequence[str] = (),
        as_of: date | None = None,
        known_at: datetime | None = None,
    ) -> list[Relationship]:
        """Edges touching ``entity_id``; ``as_of`` filters validity, ``known_at`` recording."""
        return [relationship_from_row(r) for r in self._edge_rows(entity_id, types, as_of, known_at)]

    def _edge_rows(
        self,
        entity_id: str,
        types: Sequence[str],
        as_of: date | None,
        known_at: datetime | None,
    ) -> list[sqlite3.Row]:
        sql = "SELECT * FROM relationships WHERE (source = ? OR target = ?)"
        params: list[Any] = [entity_id, entity_id]
        if types:
            sql += f" AND type IN ({','.join('?' * len(types))})"
            params += list(types)
        if as_of is not None:
            sql += " AND (valid_from IS NULL OR valid_from <= ?) AND (valid_to IS NULL OR valid_to > ?)"
            params += [as_of.isoformat()] * 2
        if known_at is not None:
            sql += " AND recorded_at <= ? AND (retired_at IS NULL OR retired_at > ?)"
            params += [known_at.isoformat()] * 2
        else:
            sql += " AND retired_at IS NULL"
        sql += " ORDER BY COALESCE(valid_from, ''), id"
        return self._rows(sql, params)

    def traverse(
        self,
        start: str,
        *,
        hops: int = 2,
        types: Sequence[str] = (),
        as_of: date | None = None,
        known_at: datetime | None = None,
        limit: int = 50,
    ) -> list[TraversalPath]:
        """Breadth-first simple paths of 1..hops edges from ``start``, shortest first."""
        hops = max(1, min(hops, MAX_HOPS))
        # An edge read from both of its ends becomes one Relationship (same row, same key).
        built: dict[tuple[Any, ...], Relationship] = {}

        def as_relationship(row: sqlite3.Row) -> Relationship:
            key = tuple(row)
            edge = built.get(key)
            if edge is None:
                edge = built[key] = relationship_from_row(row)
            return edge

        return walk(
            start,
            hops=hops,
            limit=limit,
            edges_of=lambda node: self._edge_rows(node, types, as_of, known_at),
            other_end=lambda row, tail: row["target"] if row["source"] == tail else row["source"],
            as_relationship=as_relationship,
        )

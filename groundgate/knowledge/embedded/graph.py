"""Graph reads of the embedded store: a node's edges in time, and paths walked from them."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from groundgate.knowledge.embedded.connection import Connected
from groundgate.knowledge.embedded.rows import relationship_from_row
from groundgate.knowledge.model import Relationship, TraversalPath
from groundgate.knowledge.port import EdgeFilter, PathQuery
from groundgate.knowledge.traversal import walk

__all__ = ["GraphReads"]


class GraphReads(Connected):
    """Edges and traversal."""

    def _relationships(self, entity_id: str, edges: EdgeFilter) -> list[Relationship]:
        """Edges touching ``entity_id``; ``as_of`` filters validity, ``known_at`` recording."""
        return [relationship_from_row(r) for r in self._edge_rows(entity_id, edges)]

    def _edge_rows(self, entity_id: str, edges: EdgeFilter) -> list[sqlite3.Row]:
        sql = "SELECT * FROM relationships WHERE (source = ? OR target = ?)"
        params: list[Any] = [entity_id, entity_id]
        if edges.types:
            sql += f" AND type IN ({','.join('?' * len(edges.types))})"
            params += list(edges.types)
        if edges.as_of is not None:
            sql += " AND (valid_from IS NULL OR valid_from <= ?) AND (valid_to IS NULL OR valid_to > ?)"
            params += [edges.as_of.isoformat()] * 2
        if edges.known_at is not None:
            sql += " AND recorded_at <= ? AND (retired_at IS NULL OR retired_at > ?)"
            params += [edges.known_at.isoformat()] * 2
        else:
            sql += " AND retired_at IS NULL"
        sql += " ORDER BY COALESCE(valid_from, ''), id"
        return self._rows(sql, params)

    def _traverse(self, query: PathQuery) -> list[TraversalPath]:
        """Breadth-first paths over rows: a row becomes a ``Relationship`` only when walked."""
        # An edge read from both of its ends becomes one Relationship (same row, same key).
        built: dict[tuple[Any, ...], Relationship] = {}

        def as_relationship(row: sqlite3.Row) -> Relationship:
            key = tuple(row)
            edge = built.get(key)
            if edge is None:
                edge = built[key] = relationship_from_row(row)
            return edge

        def edges_of(nodes: Sequence[str]) -> dict[str, list[sqlite3.Row]]:
            return {node: self._edge_rows(node, query.edges) for node in nodes}

        return walk(
            query.start,
            hops=query.hops,
            limit=query.limit,
            edges_of=edges_of,
            other_end=lambda row, tail: row["target"] if row["source"] == tail else row["source"],
            as_relationship=as_relationship,
        )

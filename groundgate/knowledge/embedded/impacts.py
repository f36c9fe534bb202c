"""Exact BM25 top-k over an FTS5 table, with the common terms' scores kept in memory.

FTS5 computes ``bm25()`` for every row a query matches (about 2 µs a row on the 2-core
reference machine), so a question with one word found in a third of 100k chunks costs
~70 ms however few hits are wanted. Dropping such words changes the ranking (leaving out
the words found in 20% of the chunks or more changed the top hit of one benchmark
question in eight), so this module keeps it exact.

FTS5's ``bm25`` is a sum over the query's phrases; each phrase's part depends only on
that phrase (its document frequency), the row's length and the table's average length.
So a common term's part for every row is computed once, by a one-term query, and kept.
:meth:`ImpactCache.rank` adds the kept parts of the common terms to one FTS5 query over
the rare ones: the scores of the query with every term (up to the rounding of a double's
last bit) in the same order, for the cost of the rare terms' rows once the common terms
are kept.

A cache belongs to one store handle. It is emptied when that handle writes and when
``PRAGMA data_version`` says another connection has (every score depends on the whole
table: its row count, its average row length and the terms' document frequencies).
"""

from __future__ import annotations

import sqlite3
from collections import OrderedDict

import numpy as np

__all__ = ["ImpactCache"]

COMMON_ROWS = 500
"""A term matching at least this many rows has its scores kept; below, FTS5 scores it.

Scoring 500 rows costs about 1 ms, so a question's rare terms stay cheap."""

MAX_POSTINGS = 3_000_000
"""Kept (rowid, score) pairs per cache, about 36 MiB; the least recently used term goes
first. 100k chunks and the benchmark's questions keep about 2.2 million."""

MAX_COUNTS = 200_000
"""Terms whose row count is remembered per cache before they are all forgotten."""


def _phrase(term: str) -> str:
    return '"' + term.replace('"', " ") + '"'


class ImpactCache:
    """Per-term BM25 parts of the common terms of one FTS5 table, for exact top-k.

    Args:
        table: The FTS5 table.
        weights: The column weights given to ``bm25``.
    """

    def __init__(self, table: str, weights: tuple[float, ...]) -> None:
        self._table = table
        self._score = f"-bm25({table}, {', '.join(str(w) for w in weights)})"
        self._counts: dict[str, int] = {}
        self._kept: OrderedDict[str, tuple[np.ndarray, np.ndarray]] = OrderedDict()
        self._postings = 0
        self._version: int | None = None

    def clear(self) -> None:
        """Forget everything (the table changed)."""
        self._counts.clear()
        self._kept.clear()
        self._postings = 0

    def rank(
        self, conn: sqlite3.Connection, terms: list[str], limit: int
    ) -> list[tuple[int, float]]:
        """The best ``limit`` rows matching any term, as FTS5 ranks an OR of ``terms``.

        Rows come as (rowid, score), score descending then rowid. When no term is common
        this is the plain FTS5 query, which then costs no more. The caller holds the lock
        that guards ``conn``.
        """
        version = conn.execute("PRAGMA data_version").fetchone()[0]
        if version != self._version:
            self.clear()
            self._version = version
        cursor = conn.cursor()
        cursor.row_factory = None
        common = [t for t in terms if self._count(cursor, t) >= COMMON_ROWS]
        if not common:
            return cursor.execute(
                f"SELECT rowid, {self._score} AS s FROM {self._table} WHERE {self._table} "
                "MATCH ? ORDER BY s DESC, rowid LIMIT ?",
                [" OR ".join(_phrase(t) for t in terms), limit],
            ).fetchall()
        parts = [self._impacts(cursor, t) for t in common]
        rare = [t for t in terms if t not in common]
        if rare:
            parts.append(self._query(cursor, " OR ".join(_phrase(t) for t in rare)))
        parts = [p for p in parts if p[0].size]
        if not parts:
            return []
        top = max(int(ids.max()) for ids, _ in parts)
        if top > 4 * sum(ids.size for ids, _ in parts) + 1_000_000:
            return _rank_sparse(parts, limit)  # sparse rowids: a dense array would be huge
        scores = np.zeros(top + 1)
        for ids, values in parts:
            scores[ids] += values  # rowids are unique within a part
        matched = np.flatnonzero(scores > 0.0)
        return _best(matched, scores[matched], limit)

    def _count(self, cursor: sqlite3.Cursor, term: str) -> int:
        """Rows matching ``term``, counted up to ``COMMON_ROWS`` (all that is asked)."""
        count = self._counts.get(term)
        if count is None:
            if len(self._counts) >= MAX_COUNTS:
                self._counts.clear()
            count = cursor.execute(
                f"SELECT count(*) FROM (SELECT 1 FROM {self._table} WHERE {self._table} MATCH ? "
                "LIMIT ?)",
                [_phrase(term), COMMON_ROWS],
            ).fetchone()[0]
            self._counts[term] = count
        return count

    def _impacts(self, cursor: sqlite3.Cursor, term: str) -> tuple[np.ndarray, np.ndarray]:
        kept = self._kept.get(term)
        if kept is not None:
            self._kept.move_to_end(term)
            return kept
        kept = self._query(cursor, _phrase(term))
        self._kept[term] = kept
        self._postings += kept[0].size
        while self._postings > MAX_POSTINGS and len(self._kept) > 1:
            _, (ids, _) = self._kept.popitem(last=False)
            self._postings -= ids.size
        return kept

    def _query(self, cursor: sqlite3.Cursor, match: str) -> tuple[np.ndarray, np.ndarray]:
        rows = cursor.execute(
            f"SELECT rowid, {self._score} FROM {self._table} WHERE {self._table} MATCH ?", [match]
        ).fetchall()
        ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        scores = np.fromiter((r[1] for r in rows), dtype=np.float64, count=len(rows))
        if ids.size and int(ids.max()) < 2**31:
            ids = ids.astype(np.int32)  # a third less memory for what is kept
        return ids, scores


def _best(ids: np.ndarray, scores: np.ndarray, limit: int) -> list[tuple[int, float]]:
    """The ``limit`` best (rowid, score) pairs, score descending then rowid."""
    if ids.size > limit:
        kth = np.partition(scores, ids.size - limit)[ids.size - limit]
        keep = scores >= kth  # the whole tie group at the cut, settled by rowid below
        ids, scores = ids[keep], scores[keep]
    order = np.lexsort((ids, -scores))[:limit]
    return [(int(ids[k]), float(scores[k])) for k in order]


def _rank_sparse(
    parts: list[tuple[np.ndarray, np.ndarray]], limit: int
) -> list[tuple[int, float]]:
    ids = np.concatenate([p[0].astype(np.int64) for p in parts])
    values = np.concatenate([p[1] for p in parts])
    unique, inverse = np.unique(ids, return_inverse=True)
    return _best(unique, np.bincount(inverse, weights=values), limit)

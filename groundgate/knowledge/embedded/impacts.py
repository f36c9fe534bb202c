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

A table may keep parts from fewer rows than ``COMMON_ROWS`` (``kept_rows``): the rarer
terms are then still summed apart, in the query's order, from their kept parts and FTS5's
one-term queries, which is how FTS5 sums them. What is kept changes the cost, never a bit
of a score.

Ingest stores the kept tokens' parts in the SQLite file (:mod:`stored_impacts`), so a
handle reads them instead of asking FTS5 whenever they are current; it computes them
itself only for a store written before they existed, a word that is not one index token
or a token stored without parts (function words).

A cache belongs to one store handle. It is emptied when that handle writes and when
``PRAGMA data_version`` says another connection has (every score depends on the whole
table: its row count, its average row length and the terms' document frequencies). One
call reads in one transaction, so it never mixes two versions of the table.
"""

from __future__ import annotations

import sqlite3
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

import numpy as np

from groundgate.knowledge.embedded import stored_impacts
from groundgate.knowledge.embedded.bm25 import phrase, query_parts, score_sql
from groundgate.knowledge.embedded.stored_impacts import Tokenizer

__all__ = ["ImpactCache"]

COMMON_ROWS = 500
"""A term in this many rows or more is common: its parts are added on their own, and the
rarer terms' parts are summed apart, before being added (the order a double sum is made
in decides its last bit, so this split is fixed). Read when used, so tests can lower it.

Scoring 500 rows costs about 1 ms, so a question's rare terms stay cheap."""

MAX_POSTINGS = 3_000_000
"""Kept (rowid, score) pairs per cache, about 36 MiB; the least recently used term goes
first. 100k chunks and the benchmark's questions keep about 2.2 million."""

MAX_COUNTS = 200_000
"""Terms whose row count (or token) is remembered per cache before they are all forgotten."""


class ImpactCache:
    """Per-term BM25 parts of the common terms of one FTS5 table, for exact top-k.

    Args:
        table: The FTS5 table.
        weights: The column weights given to ``bm25``.
        kept_rows: Terms in this many rows or more have their parts kept, and stored by
            ingest; ``None`` (and any larger value) for ``COMMON_ROWS``. Lower is worth it
            where FTS5's scoring of the rarer words is most of a search's cost.
    """

    def __init__(
        self, table: str, weights: tuple[float, ...], kept_rows: int | None = None
    ) -> None:
        self._table = table
        self._weights = weights
        self._kept_rows = kept_rows
        self._score = score_sql(table, weights)
        self._counts: dict[str, int] = {}
        self._kept: OrderedDict[str, tuple[np.ndarray, np.ndarray]] = OrderedDict()
        self._postings = 0
        self._version: int | None = None
        self._stored = False
        self._tokenizer: Tokenizer | None = None
        self._tokens: dict[str, str | None] = {}

    @property
    def kept_rows(self) -> int:
        """Terms in this many rows or more have their parts kept (and stored)."""
        return COMMON_ROWS if self._kept_rows is None else min(self._kept_rows, COMMON_ROWS)

    def refresh_stored(self, conn: sqlite3.Connection, *, skip_words: Iterable[str] = ()) -> bool:
        """Store this table's parts of the kept tokens in the file, unless they are current.

        For a writer, inside its transaction after the writes; see :func:`stored_impacts.refresh`.
        """
        return stored_impacts.refresh(
            conn, self._table, self._weights, common_rows=self.kept_rows, skip_words=skip_words
        )

    def clear(self) -> None:
        """Forget everything (the table changed)."""
        self._counts.clear()
        self._kept.clear()
        self._postings = 0
        self._version = None  # and look again whether the stored parts are current
        self._tokens.clear()
        if self._tokenizer is not None:
            self._tokenizer.close()
            self._tokenizer = None

    def rank(
        self, conn: sqlite3.Connection, terms: list[str], limit: int
    ) -> list[tuple[int, float]]:
        """The best ``limit`` rows matching any term, as FTS5 ranks an OR of ``terms``.

        Rows come as (rowid, score), score descending then rowid. When no term has kept
        parts this is the plain FTS5 query, which then costs no more. The caller holds the
        lock that guards ``conn``.
        """
        with _one_read(conn):
            version = conn.execute("PRAGMA data_version").fetchone()[0]
            if version != self._version:
                self.clear()
                self._version = version
                self._stored = stored_impacts.is_current(conn, self._table, self.kept_rows)
            cursor = conn.cursor()
            cursor.row_factory = None
            if self._stored:
                self._read_counts(cursor, terms)
            counts = [self._count(cursor, t) for t in terms]
            if all(n < self.kept_rows for n in counts):
                return cursor.execute(
                    f"SELECT rowid, {self._score} AS s FROM {self._table} WHERE {self._table} "
                    "MATCH ? ORDER BY s DESC, rowid LIMIT ?",
                    [" OR ".join(phrase(t) for t in terms), limit],
                ).fetchall()
            counted = list(zip(terms, counts, strict=True))
            parts = [self._impacts(cursor, t) for t, n in counted if n >= COMMON_ROWS]
            rare = [(t, n) for t, n in counted if n < COMMON_ROWS]
            if any(n >= self.kept_rows for _, n in rare):
                # FTS5 sums an OR query's phrases in order: summing the same parts in the same
                # order gives its very doubles, kept parts or not.
                parts.append(_sum_in_order([
                    self._impacts(cursor, t) if n >= self.kept_rows else self._query(cursor, phrase(t))
                    for t, n in rare
                ]))
            elif rare:
                parts.append(self._query(cursor, " OR ".join(phrase(t) for t, _ in rare)))
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

    def _read_counts(self, cursor: sqlite3.Cursor, terms: list[str]) -> None:
        """Remember the row counts of new terms from the stored ones, without asking FTS5.

        A term that is one index token has its count stored if it is in ``kept_rows`` rows
        or more; if it is not stored it is in fewer, and 0 stands for that. A term of
        several tokens (a hyphenated id) is left for :meth:`_count` to count.
        """
        new = [t for t in terms if t not in self._counts]
        unknown = [t for t in new if t not in self._tokens]
        if unknown:
            if self._tokenizer is None:
                self._tokenizer = Tokenizer(cursor.connection, self._table)
            if len(self._tokens) + len(unknown) > MAX_COUNTS:
                self._tokens.clear()
            made = self._tokenizer.tokens([phrase(t)[1:-1] for t in unknown])
            for term, tokens in zip(unknown, made, strict=True):
                self._tokens[term] = tokens[0] if len(tokens) == 1 else None
        single = {t: token for t in new if (token := self._tokens.get(t)) is not None}
        if not single:
            return
        if len(self._counts) + len(single) > MAX_COUNTS:
            self._counts.clear()
        stored = stored_impacts.matches(cursor, self._table, set(single.values()))
        for term, token in single.items():
            self._counts[term] = stored.get(token, 0)

    def _count(self, cursor: sqlite3.Cursor, term: str) -> int:
        """Rows matching ``term``, counted up to ``COMMON_ROWS`` (all that is asked)."""
        count = self._counts.get(term)
        if count is None:
            if len(self._counts) >= MAX_COUNTS:
                self._counts.clear()
            count = cursor.execute(
                f"SELECT count(*) FROM (SELECT 1 FROM {self._table} WHERE {self._table} MATCH ? "
                "LIMIT ?)",
                [phrase(term), COMMON_ROWS],
            ).fetchone()[0]
            self._counts[term] = count
        return count

    def _impacts(self, cursor: sqlite3.Cursor, term: str) -> tuple[np.ndarray, np.ndarray]:
        kept = self._kept.get(term)
        if kept is not None:
            self._kept.move_to_end(term)
            return kept
        token = self._tokens.get(term) if self._stored else None
        stored = None if token is None else stored_impacts.parts(cursor, self._table, token)
        kept = stored if stored is not None else self._query(cursor, phrase(term))
        self._kept[term] = kept
        self._postings += kept[0].size
        while self._postings > MAX_POSTINGS and len(self._kept) > 1:
            _, (ids, _) = self._kept.popitem(last=False)
            self._postings -= ids.size
        return kept

    def _query(self, cursor: sqlite3.Cursor, match: str) -> tuple[np.ndarray, np.ndarray]:
        return query_parts(cursor, self._table, self._score, match)


@contextmanager
def _one_read(conn: sqlite3.Connection) -> Iterator[None]:
    """One read transaction around the body (unless one is open): a consistent view."""
    if conn.in_transaction:
        yield
        return
    conn.execute("BEGIN")
    try:
        yield
    finally:
        conn.commit()


def _sum_in_order(parts: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """One part whose scores are the parts' sums, added in the order of ``parts``."""
    parts = [p for p in parts if p[0].size]
    if not parts:
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    ids = np.unique(np.concatenate([p[0].astype(np.int64) for p in parts]))
    sums = np.zeros(ids.size)
    for part_ids, values in parts:
        sums[np.searchsorted(ids, part_ids)] += values
    return ids, sums


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

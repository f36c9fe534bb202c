"""FTS5's ``bm25`` of one-token queries: by FTS5 itself, or in numpy for a whole table.

FTS5 scores a row of a one-phrase query as (``fts5Bm25Function`` in SQLite's fts5 source)::

    idf   = log((N - n + 0.5) / (n + 0.5)), or 1e-6 when that is not positive
    score = idf * (f * (k1 + 1)) / (f + k1 * (1 - b + b * D / avgdl)),   k1 = 1.2, b = 0.75

with N the table's rows, n the rows holding the token, f the sum of the column weights
over the token's occurrences in the row, D the row's tokens and avgdl the mean of D.
Asking FTS5 costs ~2 µs a row (it looks each row's size up); :class:`TableBm25` reads
the sizes once (FTS5's ``<table>_docsize``) and each token's occurrences in one statement
(``fts5vocab``), and does the same double-precision operations in the same order, ~0.5 µs
a row. :meth:`TableBm25.agrees` checks its result against FTS5's bit for bit; a caller
relies on it only after that.
"""

from __future__ import annotations

import math
import sqlite3
from array import array

import numpy as np

from groundgate.knowledge.weights import K1, B

__all__ = ["TableBm25", "match_any", "phrase", "query_parts", "score_sql"]



def score_sql(fts: str, weights: tuple[float, ...]) -> str:
    """The SQL of a row's BM25 score in ``fts`` (higher is better)."""
    return f"-bm25({fts}, {', '.join(str(w) for w in weights)})"


def phrase(term: str) -> str:
    """``term`` as one FTS5 phrase."""
    return '"' + term.replace('"', " ") + '"'


def match_any(terms: list[str]) -> str:
    """An FTS5 ``MATCH`` expression for rows holding any of ``terms``."""
    return " OR ".join(phrase(t) for t in terms)


def query_parts(
    cursor: sqlite3.Cursor, fts: str, score: str, match: str
) -> tuple[np.ndarray, np.ndarray]:
    """(rowids, scores) of every row of ``fts`` matching ``match``, by FTS5, rowids ascending."""
    rows = cursor.execute(f"SELECT rowid, {score} FROM {fts} WHERE {fts} MATCH ?", [match]).fetchall()
    ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
    scores = np.fromiter((r[1] for r in rows), dtype=np.float64, count=len(rows))
    return _narrow(ids), scores


def _narrow(ids: np.ndarray) -> np.ndarray:
    if ids.size and int(ids.max()) < 2**31:
        return ids.astype(np.int32)  # a third less memory (and store) for what is kept
    return ids


def _varints(blob: bytes) -> list[int]:
    """The SQLite varints of an FTS5 ``docsize`` record (one per column)."""
    values, value = [], 0
    for byte in blob:
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            values.append(value)
            value = 0
    return values


class TableBm25:
    """One-token ``bm25`` parts of an FTS5 table as it is now, computed in numpy.

    Args:
        conn: A connection to the store (inside the transaction that wrote, if any).
        fts: The FTS5 table; it must keep row sizes (the default ``columnsize=1``).
        weights: The column weights given to ``bm25``; missing ones are 1.0, as in FTS5.
    """

    def __init__(self, conn: sqlite3.Connection, fts: str, weights: tuple[float, ...]) -> None:
        self._conn = conn
        self._fts = fts
        self._score = score_sql(fts, weights)
        columns = [r[0] for r in conn.execute("SELECT name FROM pragma_table_info(?)", [fts])]
        self._columns = len(columns)
        self._weights = np.array(
            [weights[k] if k < len(weights) else 1.0 for k in range(len(columns))]
        )
        self._column = "CASE col " + " ".join(
            "WHEN '" + name.replace("'", "''") + f"' THEN {k}" for k, name in enumerate(columns)
        ) + " END"
        conn.execute(
            f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{fts}_instances "
            f"USING fts5vocab(main, {fts}, instance)"
        )
        # Read as it comes, not fetched whole: a million rows are 150 MB as Python tuples.
        found, lengths = array("q"), array("q")
        for row_id, sz in conn.execute(f"SELECT id, sz FROM {fts}_docsize"):
            found.append(row_id)
            lengths.append(sum(sz) if max(sz, default=0) < 0x80 else sum(_varints(sz)))
        ids = np.frombuffer(found, dtype=np.int64) if found else np.zeros(0, dtype=np.int64)
        sizes = np.frombuffer(lengths, dtype=np.int64) if lengths else np.zeros(0, dtype=np.int64)
        self._rows = len(found)
        self._avgdl = float(int(sizes.sum())) / float(self._rows) if found else 0.0
        # NaN for a row without a size, so that a score from it is NaN, never a number.
        self._sizes = np.full(int(ids.max()) + 1 if found else 0, np.nan)
        self._sizes[ids] = sizes

    def parts(self, token: str) -> tuple[np.ndarray, np.ndarray]:
        """(rowids, scores) of the rows holding ``token`` (an index token), rowids ascending.

        A score is NaN if the table has no size for its row (a damaged index).
        """
        packed = self._conn.execute(
            f"SELECT group_concat(doc * {self._columns} + {self._column}) "
            f"FROM temp.{self._fts}_instances WHERE term = ?",
            [token],
        ).fetchone()[0]
        values = np.fromstring(packed or "", dtype=np.int64, sep=",")
        if not values.size:
            return np.zeros(0, dtype=np.int32), np.zeros(0)
        values = np.sort(values, kind="stable")  # already in row order; then this is cheap
        docs = values // self._columns
        starts = np.flatnonzero(np.r_[True, docs[1:] != docs[:-1]])
        ids = docs[starts]
        f = np.add.reduceat(self._weights[values % self._columns], starts)
        n = ids.size
        idf = math.log((float(self._rows - n) + 0.5) / (float(n) + 0.5))
        if idf <= 0.0:
            idf = 1e-6
        sizes = np.full(n, np.nan)
        known = ids < self._sizes.size
        sizes[known] = self._sizes[ids[known]]
        scores = idf * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + B * sizes / self._avgdl)))
        return _narrow(ids), scores

    def agrees(self, token: str, match: str) -> bool:
        """Whether :meth:`parts` of ``token`` equal FTS5's own for ``match``, bit for bit."""
        ids, scores = self.parts(token)
        cursor = self._conn.cursor()
        cursor.row_factory = None
        fts_ids, fts_scores = query_parts(cursor, self._fts, self._score, match)
        return bool(
            np.array_equal(ids, fts_ids) and np.array_equal(scores.view(np.int64), fts_scores.view(np.int64))
        )

"""The common tokens' BM25 parts, computed by ingest and stored in the SQLite file.

:mod:`~groundgate.knowledge.embedded.impacts` ranks exactly by adding the common terms'
per-row BM25 parts to one FTS5 query over the rarer terms. FTS5 computes those parts at
~2 µs a row, so a fresh store handle (``groundgate ask``) paid ~30 ms for the common words
of a question at 100k chunks. Ingest now computes them once, in its write transaction,
for every token found in ``common_rows`` rows or more, and stores them in ``fts_impacts``
(rowids and float64 scores as little-endian blobs); a handle reads a token's parts with
``np.frombuffer``. They are FTS5's ``bm25`` values bit for bit (computed in numpy by
:class:`~groundgate.knowledge.embedded.bm25.TableBm25`, checked against FTS5 itself on
every refresh, else asked of FTS5), so scores and ranks are the same.

Staleness: every part depends on the whole table (its row count, average row length and
the token's row count), so any write to an indexed table makes all of that table's parts
stale. Triggers on the content tables (``chunks``, ``entities``; migration 2) delete the
table's row of ``fts_impacts_state`` in the writing transaction, whatever code writes (an
older groundgate too). :func:`refresh` recomputes when that row is missing, and readers
use stored parts only while it is there (:func:`is_current`).

Tokens are keys: the question word ``claims`` matches the index token ``claim``.
:class:`Tokenizer` runs the table's own FTS5 tokenizer on an in-memory table, so a word
is looked up by the token FTS5 makes of it (the built-in tokenizers split a query phrase
as they split text). A word of several tokens (``e-book``) is not looked up.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable

import numpy as np

from groundgate.knowledge.embedded.bm25 import TableBm25, phrase, query_parts, score_sql

__all__ = ["Tokenizer", "is_current", "matches", "parts", "refresh"]

_TOKENIZE = re.compile(r"""\btokenize\s*=\s*('(?:[^']|'')*'|"(?:[^"]|"")*"|\w+)""", re.IGNORECASE)


class Tokenizer:
    """The tokens FTS5 makes of a text with the tokenizer of one table.

    Args:
        conn: A connection to the store.
        fts: The FTS5 table whose ``tokenize`` option to use.
    """

    def __init__(self, conn: sqlite3.Connection, fts: str) -> None:
        sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", [fts]).fetchone()[0]
        option = _TOKENIZE.search(sql)
        self._conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        self._conn.execute(
            "CREATE VIRTUAL TABLE words USING fts5(word, content=''"
            + (f", tokenize = {option.group(1)}" if option else "")
            + ")"
        )
        self._conn.execute("CREATE VIRTUAL TABLE words_vocab USING fts5vocab(words, instance)")

    def tokens(self, texts: list[str]) -> list[tuple[str, ...]]:
        """The tokens of each text, in order."""
        if not texts:
            return []
        conn = self._conn
        found: dict[int, list[str]] = {}
        conn.execute("BEGIN")
        try:  # written, read, and rolled back: the table stays empty
            conn.executemany("INSERT INTO words (rowid, word) VALUES (?, ?)", enumerate(texts, 1))
            for doc, token in conn.execute("SELECT doc, term FROM words_vocab ORDER BY doc, offset"):
                found.setdefault(doc, []).append(token)
        finally:
            conn.execute("ROLLBACK")
        return [tuple(found.get(k, ())) for k in range(1, len(texts) + 1)]

    def close(self) -> None:
        """Close the in-memory table."""
        self._conn.close()


def is_current(conn: sqlite3.Connection, fts: str, common_rows: int) -> bool:
    """Whether the stored parts of ``fts`` describe the table as it is, at this threshold."""
    has_state = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'fts_impacts_state'"
    ).fetchone()
    if has_state is None:
        return False  # a store from before migration 2 (read-only handles do not migrate)
    row = conn.execute("SELECT common_rows FROM fts_impacts_state WHERE fts = ?", [fts]).fetchone()
    return row is not None and row[0] == common_rows


def matches(cursor: sqlite3.Cursor, fts: str, tokens: Iterable[str]) -> dict[str, int]:
    """The stored row counts of those ``tokens`` that are stored (the common ones).

    Only meaningful while :func:`is_current` holds: then a token left out is in fewer
    than ``common_rows`` rows.
    """
    wanted = list(tokens)
    rows = cursor.execute(
        "SELECT token, matches FROM fts_impacts WHERE fts = ? "
        f"AND token IN ({','.join('?' * len(wanted))})",
        [fts, *wanted],
    ).fetchall()
    return {token: count for token, count in rows}


def parts(cursor: sqlite3.Cursor, fts: str, token: str) -> tuple[np.ndarray, np.ndarray] | None:
    """A stored token's (rowids, scores); ``None`` if they were not stored.

    Only meaningful while :func:`is_current` holds.
    """
    row = cursor.execute(
        "SELECT rowids, scores FROM fts_impacts WHERE fts = ? AND token = ?", [fts, token]
    ).fetchone()
    if row is None or row[1] is None:
        return None
    rowids, scores = row
    values = np.frombuffer(scores, dtype="<f8")
    width = len(rowids) // values.size if values.size else 4
    return np.frombuffer(rowids, dtype="<i4" if width == 4 else "<i8"), values


def refresh(
    conn: sqlite3.Connection,
    fts: str,
    weights: tuple[float, ...],
    *,
    common_rows: int,
    skip_words: Iterable[str] = (),
) -> bool:
    """Store the BM25 parts of every token of ``fts`` in ``common_rows`` rows or more.

    Run it inside the writing transaction, after the writes. It does nothing when the
    stored parts are current (nothing wrote to the table since). Tokens made only by
    ``skip_words`` (words never searched for, such as stopwords) are listed with their row
    count but no parts (a handle asks FTS5 for those, as for any word not stored). Returns
    whether it recomputed.

    Args:
        conn: The store's connection, in a write transaction.
        fts: The FTS5 table.
        weights: The column weights its searches give ``bm25``.
        common_rows: The threshold, ``impacts.COMMON_ROWS`` for the store's own tables.
        skip_words: Words whose tokens get no stored parts.
    """
    if is_current(conn, fts, common_rows):
        return False
    conn.execute("DELETE FROM fts_impacts WHERE fts = ?", [fts])
    conn.execute(
        f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{fts}_vocab USING fts5vocab(main, {fts}, row)"
    )
    common = conn.execute(
        f"SELECT term, doc FROM temp.{fts}_vocab WHERE doc >= ? ORDER BY doc DESC, term",
        [common_rows],
    ).fetchall()
    tokenizer = Tokenizer(conn, fts)
    try:
        skipped = {t[0] for t in tokenizer.tokens(sorted(set(skip_words))) if len(t) == 1}
        again = tokenizer.tokens([token for token, _ in common])
    finally:
        tokenizer.close()
    # A token FTS5 can be asked about is one that comes back as itself ("claim"; not "decis",
    # which FTS5 would stem to "deci" if asked): only those can check or replace numpy.
    askable = [t for (t, _), a in zip(common, again, strict=True) if a == (t,) and t not in skipped]
    table = TableBm25(conn, fts, weights)
    fast = bool(askable) and all(table.agrees(t, phrase(t)) for t in {askable[0], askable[-1]})
    cursor = conn.cursor()
    cursor.row_factory = None
    insert = "INSERT INTO fts_impacts (fts, token, matches, rowids, scores) VALUES (?, ?, ?, ?, ?)"
    score = score_sql(fts, weights)
    for token, rows in common:
        found = None
        if token not in skipped:
            found = table.parts(token) if fast else None
            if found is None or not np.isfinite(found[1]).all():
                found = query_parts(cursor, fts, score, phrase(token)) if token in askable else None
        if found is None:
            cursor.execute(insert, [fts, token, rows, None, None])
            continue
        ids, scores = found
        cursor.execute(
            insert,
            [fts, token, ids.size, ids.astype("<i4" if ids.dtype == np.int32 else "<i8").tobytes(),
             scores.astype("<f8").tobytes()],
        )
    conn.execute(
        "INSERT OR REPLACE INTO fts_impacts_state (fts, common_rows) VALUES (?, ?)",
        [fts, common_rows],
    )
    return True

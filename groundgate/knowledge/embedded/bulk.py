"""Helpers of the embedded store's bulk writes: batched key lookups and the next rowid.

Writing one row at a time costs a statement per row; a first ingest writes hundreds of
thousands. So records the store has never seen are buffered and written with
executemany, and anything else (a record that exists, or repeats within the batch) first
flushes the buffer and then takes the one-at-a-time path. Every table gets the same rows
in the same order, so SQLite assigns the same rowids.
"""

from __future__ import annotations

import sqlite3
from typing import Any

__all__ = ["lookup", "next_rowid"]

_LOOKUP_BATCH = 500
"""Keys per ``IN (...)`` lookup, well under SQLite's bound-parameter limit."""


def lookup(conn: sqlite3.Connection, sql: str, keys: list[str]) -> list[Any]:
    """First column of ``sql`` (with ``{}`` standing for the placeholders) over ``keys``."""
    found: list[Any] = []
    unique = list(dict.fromkeys(keys))
    for start in range(0, len(unique), _LOOKUP_BATCH):
        part = unique[start : start + _LOOKUP_BATCH]
        found += [r[0] for r in conn.execute(sql.format(",".join("?" * len(part))), part)]
    return found


def next_rowid(conn: sqlite3.Connection, table: str) -> int | None:
    """The rowid SQLite itself gives the next row of ``table`` (one past the largest).

    ``None`` near the top of the range, where SQLite picks rowids at random instead.
    """
    largest = conn.execute(f"SELECT max(rowid) FROM {table}").fetchone()[0] or 0
    return None if largest >= 2**62 else largest + 1

"""The embedded store's connection: opening it, one lock around it, errors, transactions.

Every read and write goes through one connection guarded by one re-entrant lock (the
agent's parallel tool calls share a store). A write transaction drops what reads keep in
memory (the vector matrix, the BM25 parts of common terms).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from groundgate.errors import ConfigError, StoreError
from groundgate.knowledge.embedded.impacts import ImpactCache

__all__ = ["CACHE_KIB", "Connected", "connect"]

CACHE_KIB = 65536
"""SQLite page cache per connection (KiB). The default 2 MiB makes a first ingest of 100k
chunks spill index pages while writing, and a keyword search re-read its postings."""


def connect(target: str, *, read_only: bool) -> sqlite3.Connection:
    """Open (or create, unless read-only) the SQLite file at ``target``; ``":memory:"`` works."""
    try:
        if read_only and target != ":memory:":
            if not Path(target).exists():
                raise ConfigError(f"no knowledge store at {target}; run `groundgate ingest`")
            conn = sqlite3.connect(
                f"file:{target}?mode=ro", uri=True, check_same_thread=False
            )
        else:
            if target != ":memory:":
                Path(target).parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(target, check_same_thread=False)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open knowledge store at {target}: {exc}") from exc
    conn.row_factory = sqlite3.Row
    conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
    return conn


class Connected:
    """What every part of the store shares: the connection, its lock, the read caches."""

    _conn: sqlite3.Connection
    _lock: threading.RLock
    read_only: bool
    path: str
    _matrix: tuple[np.ndarray, np.ndarray] | None
    _chunk_impacts: ImpactCache
    _entity_impacts: ImpactCache

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        with self._lock:
            try:
                return self._conn.execute(sql, params).fetchall()
            except sqlite3.DatabaseError as exc:  # OperationalError, or a file that is no database
                raise self._error(exc) from exc

    def _ranks(self, index: ImpactCache, terms: list[str], limit: int) -> list[tuple[int, float]]:
        """The best ``limit`` (rowid, BM25) of an index for an OR of ``terms``, ties by rowid.

        Exact, with the common terms' scores kept in memory (see ``impacts``).
        """
        with self._lock:
            try:
                return index.rank(self._conn, terms, limit)
            except sqlite3.DatabaseError as exc:
                raise self._error(exc) from exc

    def _error(self, exc: sqlite3.DatabaseError) -> StoreError:
        if "no such table" in str(exc):
            return StoreError(f"the knowledge store at {self.path} is empty; run `groundgate ingest`")
        return StoreError(str(exc))

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        if self.read_only:
            raise StoreError("this knowledge store is open read-only")
        with self._lock:
            conn = self._conn
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.rollback()
                raise
            else:
                conn.commit()
            finally:
                self._matrix = None
                self._chunk_impacts.clear()
                self._entity_impacts.clear()

"""The embedded backend: one SQLite file (or ``:memory:``), FTS5 BM25 plus numpy vectors.

:class:`SQLiteStore` is assembled from one module per concern, all in this package:

- ``connection``: opening, the lock, errors, write transactions
- ``evidence``: hybrid chunk search (BM25 fused with vectors by ``knowledge.fusion``)
- ``entities``: entity search and lookups
- ``graph``: edges in time, traversal (``knowledge.traversal``)
- ``register``: the contradiction register and the resolution log
- ``knowledge.facade``: the port's keyword methods over those typed reads
- ``writes``, ``write_documents``, ``write_knowledge``, ``bulk``: the atomic ingest write
- ``rows``: row mapping
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import numpy as np

from groundgate.errors import ConfigError
from groundgate.knowledge.embedded.connection import connect
from groundgate.knowledge.embedded.entities import EntityReads
from groundgate.knowledge.embedded.evidence import EvidenceReads
from groundgate.knowledge.embedded.graph import GraphReads
from groundgate.knowledge.embedded.impacts import ImpactCache
from groundgate.knowledge.embedded.register import RegisterReads
from groundgate.knowledge.embedded.schema import migrate
from groundgate.knowledge.embedded.writes import Writes
from groundgate.knowledge.facade import ReadFacade
from groundgate.knowledge.weights import CHUNK_WEIGHTS, ENTITY_WEIGHTS

__all__ = ["SQLiteStore"]

ENTITY_KEPT_ROWS = 50
"""Entity words in this many rows or more are scored from kept (and stored) BM25 parts;
chunk words from ``impacts.COMMON_ROWS``. A mention's words are mostly rare, and FTS5
scores each row they match at ~2 µs: a word in 50 to 500 rows cost up to 1 ms a resolve.
Stored, it costs a blob read (2.6k entity tokens, 0.5M rows, 6 MiB and ~1 s of ingest at
100k chunks). The scores are the same doubles either way (see ``impacts``)."""


class SQLiteStore(EvidenceReads, EntityReads, GraphReads, RegisterReads, Writes, ReadFacade):
    """The embedded store: both knowledge ports (the keyword reads from ``ReadFacade``).

    Open it with :meth:`from_path`; call :meth:`setup` once (idempotent) before writing.
    A store opened with ``read_only=True`` refuses writes at the SQLite level: that is
    how the agent sees it.
    """

    def __init__(self, conn: sqlite3.Connection, *, read_only: bool, path: str) -> None:
        self._conn = conn
        self._lock = threading.RLock()
        self.read_only = read_only
        self.path = path
        self._matrix: tuple[np.ndarray, np.ndarray] | None = None
        self._chunk_impacts = ImpactCache("chunks_fts", tuple(CHUNK_WEIGHTS.values()))
        self._entity_impacts = ImpactCache("entities_fts", tuple(ENTITY_WEIGHTS.values()), ENTITY_KEPT_ROWS)

    # ---- opening ----------------------------------------------------------------------

    @classmethod
    def from_path(cls, path: str | Path, *, read_only: bool = False) -> SQLiteStore:
        """Open (or create, unless read-only) a store at ``path``; ``":memory:"`` works."""
        target = str(path)
        conn = connect(target, read_only=read_only)
        store = cls(conn, read_only=read_only, path=target)
        if read_only:
            conn.execute("PRAGMA query_only = ON")
        return store

    def setup(self) -> int:
        """Create or upgrade the schema; safe to call on every start. Returns the version."""
        if self.read_only:
            raise ConfigError("setup() needs a writable store")
        with self._lock:
            return migrate(self._conn)

    def read_only_view(self) -> SQLiteStore:
        """A read-only handle on the same data (shares the connection for ``:memory:``)."""
        if self.path == ":memory:":
            view = SQLiteStore(self._conn, read_only=True, path=self.path)
            view._lock = self._lock
            # Same connection: data_version does not move on its own writes, so share.
            view._chunk_impacts, view._entity_impacts = self._chunk_impacts, self._entity_impacts
            return view
        return SQLiteStore.from_path(self.path, read_only=True)

    def close(self) -> None:
        """Close the connection."""
        self._conn.close()

    def is_empty(self) -> bool:
        """Whether nothing was ever ingested: no documents and no entities, or no schema."""
        tables = self._rows(
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN ('documents', 'entities')"
        )[0][0]
        if tables < 2:
            return True
        return not self._rows(
            "SELECT EXISTS (SELECT 1 FROM documents) OR EXISTS (SELECT 1 FROM entities)"
        )[0][0]

    def counts(self) -> dict[str, int]:
        """How many records of each kind the store holds (retired edges excluded)."""
        queries = {
            "documents": "SELECT COUNT(*) FROM documents",
            "chunks": "SELECT COUNT(*) FROM chunks",
            "entities": "SELECT COUNT(*) FROM entities",
            "relationships": "SELECT COUNT(*) FROM relationships WHERE retired_at IS NULL",
            "contradictions": "SELECT COUNT(*) FROM contradictions",
        }
        return {name: self._rows(sql)[0][0] for name, sql in queries.items()}

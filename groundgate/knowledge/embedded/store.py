"""The embedded backend: one SQLite file (or ``:memory:``), FTS5 BM25 plus numpy vectors."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import date, datetime
from pathlib import Path
from typing import Any

import numpy as np

from groundgate.errors import ConfigError, StoreError
from groundgate.knowledge.embedded.impacts import ImpactCache
from groundgate.knowledge.embedded.schema import migrate
from groundgate.knowledge.model import (
    Chunk,
    Contradiction,
    Document,
    Entity,
    EvidenceHit,
    KnowledgeHit,
    Position,
    Relationship,
    ResolutionDecision,
    TraversalPath,
    Validity,
    trusted,
)
from groundgate.knowledge.port import MAX_HOPS, MAX_TOP_K, IngestBatch, WriteReport
from groundgate.knowledge.records import content_hash
from groundgate.knowledge.text import STOPWORDS, content_terms, coverage

__all__ = ["SQLiteStore"]

MAX_QUERY_TERMS = 12
"""OR-ed keyword terms are capped so that long questions do not blow up latency."""

RRF_K = 60
"""Reciprocal-rank fusion constant."""

FILTER_HEADROOM = 8
"""A filtered keyword search ranks this many times its pool before filtering (see
``_keyword_ranks``); if too few of those pass, it runs the joined query instead."""

CHUNK_WEIGHTS = (2.0, 1.5, 1.0)
"""BM25 weights of the chunk index's columns: title, heading, text."""

ENTITY_WEIGHTS = (3.0, 2.0, 1.0)
"""BM25 weights of the entity index's columns: name, aliases, description."""

ENTITY_KEPT_ROWS = 50
"""Entity words in this many rows or more are scored from kept (and stored) BM25 parts;
chunk words from ``impacts.COMMON_ROWS``. A mention's words are mostly rare, and FTS5
scores each row they match at ~2 µs: a word in 50 to 500 rows cost up to 1 ms a resolve.
Stored, it costs a blob read (2.6k entity tokens, 0.5M rows, 6 MiB and ~1 s of ingest at
100k chunks). The scores are the same doubles either way (see ``impacts``)."""

CACHE_KIB = 65536
"""SQLite page cache per connection (KiB). The default 2 MiB makes a first ingest of 100k
chunks spill index pages while writing, and a keyword search re-read its postings."""


def _d(value: str | None) -> date | None:
    return date.fromisoformat(value) if value else None


def _dt(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def _iso(value: date | datetime | None) -> str | None:
    return value.isoformat() if value else None


def _fts_query(terms: list[str]) -> str:
    return " OR ".join('"' + t.replace('"', " ") + '"' for t in terms)


class SQLiteStore:
    """The embedded ``KnowledgeStore``.

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
        self._chunk_impacts = ImpactCache("chunks_fts", CHUNK_WEIGHTS)
        self._entity_impacts = ImpactCache("entities_fts", ENTITY_WEIGHTS, ENTITY_KEPT_ROWS)

    # ---- opening ----------------------------------------------------------------------

    @classmethod
    def from_path(cls, path: str | Path, *, read_only: bool = False) -> SQLiteStore:
        """Open (or create, unless read-only) a store at ``path``; ``":memory:"`` works."""
        target = str(path)
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

    # ---- evidence ---------------------------------------------------------------------

    def search_evidence(
        self,
        query: str,
        *,
        top_k: int = 8,
        as_of: date | None = None,
        kinds: Sequence[str] = (),
        query_vector: Sequence[float] | None = None,
    ) -> list[EvidenceHit]:
        """Keyword BM25, fused with vector similarity by RRF when a vector is given."""
        top_k = max(1, min(top_k, MAX_TOP_K))
        terms = content_terms(query, MAX_QUERY_TERMS)
        pool = top_k * 4
        keyword = self._keyword_ranks(terms, pool, as_of, kinds) if terms else []
        vector: list[tuple[int, float]] = []
        if query_vector is not None:
            vector = self._vector_ranks(query_vector, pool, as_of, kinds)
        if not vector:
            ranked = keyword[:top_k]
        else:
            fused: dict[int, float] = {}
            for ranks in (keyword, vector):
                for rank, (rowid, _) in enumerate(ranks):
                    fused[rowid] = fused.get(rowid, 0.0) + 1.0 / (RRF_K + rank + 1)
            ranked = sorted(fused.items(), key=lambda kv: (-kv[1], kv[0]))[:top_k]
        if not ranked:
            return []
        best = ranked[0][1] or 1.0
        rows = {
            r["rowid"]: r
            for r in self._rows(
                "SELECT c.rowid, c.id, c.doc_id, c.title, c.heading, c.text, d.kind, "
                "d.effective_from, d.effective_to FROM chunks c JOIN documents d "
                f"ON d.id = c.doc_id WHERE c.rowid IN ({','.join('?' * len(ranked))})",
                [rowid for rowid, _ in ranked],
            )
        }
        hits = []
        for rowid, raw in ranked:
            if round(raw / best, 4) <= 0.0:
                continue  # matched only on words so common they carry no weight
            row = rows[rowid]
            hits.append(
                EvidenceHit(
                    chunk_id=row["id"],
                    doc_id=row["doc_id"],
                    title=row["title"],
                    kind=row["kind"],
                    heading=row["heading"],
                    text=row["text"],
                    score=round(raw / best, 4),
                    coverage=round(coverage(terms, f"{row['heading']} {row['text']}"), 4),
                    validity=Validity(
                        valid_from=_d(row["effective_from"]), valid_to=_d(row["effective_to"])
                    ),
                )
            )
        return hits

    def _filters(self, as_of: date | None, kinds: Sequence[str]) -> tuple[str, list[Any]]:
        clauses, params = [], []
        if as_of is not None:
            day = as_of.isoformat()
            clauses.append(
                "(d.effective_from IS NULL OR d.effective_from <= ?) AND "
                "(d.effective_to IS NULL OR d.effective_to > ?) AND "
                "(d.published_at IS NULL OR d.published_at <= ?)"
            )
            params += [day, day, day]
        if kinds:
            clauses.append(f"d.kind IN ({','.join('?' * len(kinds))})")
            params += list(kinds)
        return (" AND " + " AND ".join(clauses)) if clauses else "", params

    def _keyword_ranks(
        self, terms: list[str], pool: int, as_of: date | None, kinds: Sequence[str]
    ) -> list[tuple[int, float]]:
        match = _fts_query(terms)
        where, params = self._filters(as_of, kinds)
        if not where:
            rows = self._ranks(self._chunk_impacts, terms, pool)
        else:
            # Joining every match to its document to filter it costs several times the
            # ranking itself. So rank on the index alone and filter the best rows: when
            # enough of them pass, they are exactly the filtered ranking's head.
            fetch = pool * FILTER_HEADROOM
            head = self._ranks(self._chunk_impacts, terms, fetch)
            rowids = [r[0] for r in head]
            allowed = {
                r["rowid"]
                for r in self._rows(
                    "SELECT c.rowid FROM chunks c JOIN documents d ON d.id = c.doc_id "
                    f"WHERE c.rowid IN ({','.join('?' * len(rowids))})" + where,
                    [*rowids, *params],
                )
            } if rowids else set()
            rows = [r for r in head if r[0] in allowed][:pool]
            if len(rows) < pool and len(head) == fetch:
                rows = [
                    (r["rowid"], float(r["s"]))
                    for r in self._rows(
                        "SELECT f.rowid, -bm25(chunks_fts, 2.0, 1.5, 1.0) AS s FROM chunks_fts f"
                        " JOIN chunks c ON c.rowid = f.rowid JOIN documents d ON d.id = c.doc_id"
                        " WHERE chunks_fts MATCH ?" + where + " ORDER BY s DESC, f.rowid LIMIT ?",
                        [match, *params, pool],
                    )
                ]
        return [(rowid, s) for rowid, s in rows if s > 0]

    def _vector_ranks(
        self, query_vector: Sequence[float], pool: int, as_of: date | None, kinds: Sequence[str]
    ) -> list[tuple[int, float]]:
        matrix = self._vector_matrix()
        if matrix is None:
            return []
        rowids, vectors = matrix
        q = np.asarray(query_vector, dtype=np.float32)
        norm = float(np.linalg.norm(q))
        if norm == 0.0 or q.shape[0] != vectors.shape[1]:
            return []
        sims = vectors @ (q / norm)
        allowed: set[int] | None = None
        if as_of is not None or kinds:
            where, params = self._filters(as_of, kinds)
            allowed = {
                r["rowid"]
                for r in self._rows(
                    "SELECT c.rowid FROM chunks c JOIN documents d ON d.id = c.doc_id WHERE 1"
                    + where,
                    params,
                )
            }
        order = np.argsort(-sims, kind="stable")
        out: list[tuple[int, float]] = []
        for index in order:
            rowid = int(rowids[index])
            if allowed is not None and rowid not in allowed:
                continue
            out.append((rowid, float(sims[index])))
            if len(out) >= pool:
                break
        return out

    def _vector_matrix(self) -> tuple[np.ndarray, np.ndarray] | None:
        if self._matrix is None:
            rows = self._rows("SELECT chunk_rowid, vec FROM vectors ORDER BY chunk_rowid")
            if not rows:
                return None
            rowids = np.array([r["chunk_rowid"] for r in rows], dtype=np.int64)
            vectors = np.vstack([np.frombuffer(r["vec"], dtype=np.float32) for r in rows])
            norms = np.linalg.norm(vectors, axis=1, keepdims=True)
            norms[norms == 0] = 1.0
            self._matrix = (rowids, vectors / norms)
        return self._matrix

    def get_document(self, doc_id: str) -> Document | None:
        """The document with this id, or ``None``."""
        rows = self._rows("SELECT * FROM documents WHERE id = ?", [doc_id])
        return _document(rows[0]) if rows else None

    def chunks_of(self, doc_id: str) -> list[Chunk]:
        """A document's chunks in order."""
        rows = self._rows(
            "SELECT id, doc_id, ordinal, heading, text FROM chunks WHERE doc_id = ? "
            "ORDER BY ordinal",
            [doc_id],
        )
        return [Chunk(**dict(r)) for r in rows]

    def documents_about(self, entity_id: str) -> list[Document]:
        """Documents that declare or cite ``entity_id``, oldest effective first."""
        rows = self._rows(
            "SELECT d.* FROM documents d JOIN doc_entities e ON e.doc_id = d.id "
            "WHERE e.entity_id = ? GROUP BY d.id "
            "ORDER BY COALESCE(d.effective_from, d.published_at), d.id",
            [entity_id],
        )
        return [_document(r) for r in rows]

    # ---- understanding ----------------------------------------------------------------

    def search_knowledge(
        self, query: str, *, top_k: int = 8, kinds: Sequence[str] = ()
    ) -> list[KnowledgeHit]:
        """BM25 over entity names, aliases and descriptions, best first."""
        top_k = max(1, min(top_k, MAX_TOP_K))
        terms = content_terms(query, MAX_QUERY_TERMS)
        if not terms:
            return []
        scored = self._knowledge_ranks(terms, top_k, kinds)
        scored = [(row, s) for row, s in scored if s > 0]
        if not scored:
            return []
        best = scored[0][1]
        return [KnowledgeHit(entity=_entity(row), score=round(s / best, 4)) for row, s in scored]

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
            "SELECT e.*, -bm25(entities_fts, 3.0, 2.0, 1.0) AS s FROM entities_fts f "
            "JOIN entities e ON e.rowid = f.rowid WHERE entities_fts MATCH ?"
            + kind_sql
            + " ORDER BY s DESC, e.id LIMIT ?",
            [_fts_query(terms), *kinds, top_k],
        )
        return [(r, float(r["s"])) for r in rows]

    def get_entity(self, entity_id: str) -> Entity | None:
        """The entity with this canonical id, or ``None``."""
        rows = self._rows("SELECT * FROM entities WHERE id = ?", [entity_id])
        return _entity(rows[0]) if rows else None

    def find_entities(self, name: str) -> list[Entity]:
        """Entities whose id, name or alias equals ``name``, case-insensitively."""
        rows = self._rows(
            "SELECT DISTINCT e.* FROM entity_names n JOIN entities e ON e.id = n.entity_id "
            "WHERE n.name = ? ORDER BY e.id",
            [" ".join(name.lower().split())],
        )
        return [_entity(r) for r in rows]

    def all_entities(self) -> list[Entity]:
        """Every entity, by id."""
        return [_entity(r) for r in self._rows("SELECT * FROM entities ORDER BY id")]

    def relationships(
        self,
        entity_id: str,
        *,
        types: Sequence[str] = (),
        as_of: date | None = None,
        known_at: datetime | None = None,
    ) -> list[Relationship]:
        """Edges touching ``entity_id``; ``as_of`` filters validity, ``known_at`` recording."""
        return [_relationship(r) for r in self._edge_rows(entity_id, types, as_of, known_at)]

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
        paths: list[TraversalPath] = []
        frontier = [TraversalPath(nodes=(start,), edges=())]
        # Each node's edges are read once, and an edge becomes a Relationship only when a
        # path walks it: most edges read at the last hop are never walked.
        touching: dict[str, list[sqlite3.Row]] = {}
        built: dict[tuple[Any, ...], Relationship] = {}
        for _ in range(hops):
            next_frontier = []
            for path in frontier:
                tail = path.nodes[-1]
                if tail not in touching:
                    touching[tail] = self._edge_rows(tail, types, as_of, known_at)
                for row in touching[tail]:
                    other = row["target"] if row["source"] == tail else row["source"]
                    if other in path.nodes:
                        continue
                    key = tuple(row)
                    edge = built.get(key)
                    if edge is None:
                        edge = built[key] = _relationship(row)
                    walked = TraversalPath(nodes=(*path.nodes, other), edges=(*path.edges, edge))
                    paths.append(walked)
                    next_frontier.append(walked)
                    if len(paths) >= limit:
                        return paths
            frontier = next_frontier
        return paths

    def contradictions(
        self,
        *,
        entity_ids: Sequence[str] = (),
        topic: str | None = None,
        status: str | None = "open",
    ) -> list[Contradiction]:
        """Register entries touching ``entity_ids`` or whose topic matches ``topic``."""
        rows = self._rows(
            "SELECT * FROM contradictions" + (" WHERE status = ?" if status else "") + " ORDER BY id",
            [status] if status else [],
        )
        found = [_contradiction(r) for r in rows]
        if not entity_ids and not topic:
            return found
        wanted = set(entity_ids)
        terms = content_terms(topic or "")
        selected = []
        for entry in found:
            if wanted & set(entry.entity_ids) or wanted & set(entry.source_ids):
                selected.append(entry)
            elif terms and coverage(terms, entry.topic) >= 0.5:
                selected.append(entry)
        return selected

    def resolution_log(self) -> list[ResolutionDecision]:
        """Every logged entity-resolution decision, in order."""
        rows = self._rows(
            "SELECT mention, candidate_id, score, decision, zone, reason FROM resolution_log "
            "ORDER BY seq"
        )
        return [ResolutionDecision(**dict(r)) for r in rows]

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

    # ---- writing ----------------------------------------------------------------------

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

    def apply(self, batch: IngestBatch, *, now: datetime) -> WriteReport:
        """Write ``batch`` atomically.

        Unchanged documents and edges are left untouched; changed edges are retired and
        re-recorded, so ``known_at`` still sees the past.
        """
        return self.apply_parts([batch], now=now)

    def apply_parts(self, parts: Iterable[IngestBatch], *, now: datetime) -> WriteReport:
        """Write each batch of ``parts`` in order, in one transaction (as ``apply`` does one).

        A part is taken only once the one before it is written, so a caller can make the
        parts as they are written; an error while ``parts`` is iterated rolls back all.
        """
        stamp = now.isoformat()
        totals = [0] * 7
        with self._transaction() as conn:
            for batch in parts:
                written, unchanged, chunks = self._write_documents(conn, batch)
                self._write_entities(conn, batch.entities)
                rels, retired = self._write_relationships(conn, batch.relationships, stamp)
                opened = 0
                for entry in batch.contradictions:
                    opened += self._upsert_contradiction(conn, entry)
                conn.executemany(
                    "INSERT INTO resolution_log (mention, candidate_id, score, decision, zone, "
                    "reason) VALUES (?,?,?,?,?,?)",
                    [(d.mention, d.candidate_id, d.score, d.decision, d.zone, d.reason)
                     for d in batch.resolution_log],
                )
                counts = (written, unchanged, chunks, len(batch.entities), rels, retired, opened)
                totals = [total + count for total, count in zip(totals, counts, strict=True)]
            # A no-op unless this write (or an earlier one by other code) changed the text.
            for index in (self._chunk_impacts, self._entity_impacts):
                index.refresh_stored(conn, skip_words=STOPWORDS)
        return WriteReport(*totals)

    # Writing one row at a time costs a statement per row; a first ingest writes hundreds
    # of thousands. So records the store has never seen are buffered and written with
    # executemany, and anything else (a record that exists, or repeats within the batch)
    # first flushes the buffer and then takes the one-at-a-time path. Every table gets
    # the same rows in the same order, so SQLite assigns the same rowids.

    def _write_documents(self, conn: sqlite3.Connection, batch: IngestBatch) -> tuple[int, int, int]:
        written = unchanged = chunks = 0
        chunks_by_doc: dict[str, list[Chunk]] = {}
        for chunk in batch.chunks:
            chunks_by_doc.setdefault(chunk.doc_id, []).append(chunk)
        ids = [doc.id for doc in batch.documents]
        known = set(_lookup(conn, "SELECT id FROM documents WHERE id IN ({})", ids))
        known |= set(_lookup(conn, "SELECT DISTINCT doc_id FROM chunks WHERE doc_id IN ({})", ids))
        fresh: list[tuple[Document, str]] = []
        seen: set[str] = set()
        for doc in batch.documents:
            digest = content_hash(doc)
            if doc.id not in known and doc.id not in seen:
                seen.add(doc.id)
                fresh.append((doc, digest))
                written += 1
                chunks += len(chunks_by_doc.get(doc.id, ()))
                continue
            seen.add(doc.id)
            self._insert_fresh_documents(conn, fresh, chunks_by_doc, batch.vectors)
            fresh = []
            row = conn.execute("SELECT content_hash FROM documents WHERE id = ?", [doc.id]).fetchone()
            if row and row[0] == digest:
                unchanged += 1
                continue
            self._delete_document(conn, doc.id)
            _insert_document(conn, doc, digest)
            for chunk in chunks_by_doc.get(doc.id, []):
                _insert_chunk(conn, chunk, doc.title, batch.vectors.get(chunk.id))
                chunks += 1
            written += 1
        self._insert_fresh_documents(conn, fresh, chunks_by_doc, batch.vectors)
        return written, unchanged, chunks

    @staticmethod
    def _insert_fresh_documents(
        conn: sqlite3.Connection,
        fresh: list[tuple[Document, str]],
        chunks_by_doc: dict[str, list[Chunk]],
        vectors: dict[str, list[float]],
    ) -> None:
        """Insert documents that have no rows yet (what ``_delete_document`` + insert does)."""
        if not fresh:
            return
        # Rows naming a new document as a source may exist (an entity's source_ids).
        conn.executemany("DELETE FROM doc_entities WHERE doc_id = ?", [(d.id,) for d, _ in fresh])
        conn.executemany(
            "INSERT INTO documents (id, title, kind, version, effective_from, effective_to, "
            "published_at, url, supersedes, entity_ids, owner, body, metadata, path, content_hash) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [_document_row(doc, digest) for doc, digest in fresh],
        )
        conn.executemany(
            "INSERT INTO doc_entities (doc_id, entity_id) VALUES (?, ?)",
            [(doc.id, eid) for doc, _ in fresh for eid in doc.entity_ids],
        )
        rows = [
            (chunk, doc.title) for doc, _ in fresh for chunk in chunks_by_doc.get(doc.id, [])
        ]
        first = _next_rowid(conn, "chunks")
        if first is None:
            for chunk, title in rows:
                _insert_chunk(conn, chunk, title, vectors.get(chunk.id))
            return
        conn.executemany(
            "INSERT INTO chunks (rowid, id, doc_id, ordinal, title, heading, text) "
            "VALUES (?,?,?,?,?,?,?)",
            [(first + k, c.id, c.doc_id, c.ordinal, title, c.heading, c.text)
             for k, (c, title) in enumerate(rows)],
        )
        conn.executemany(
            "INSERT INTO chunks_fts (rowid, title, heading, text) VALUES (?,?,?,?)",
            [(first + k, title, c.heading, c.text) for k, (c, title) in enumerate(rows)],
        )
        conn.executemany(
            "INSERT INTO vectors (chunk_rowid, vec) VALUES (?, ?)",
            [(first + k, np.asarray(vectors[c.id], dtype=np.float32).tobytes())
             for k, (c, _) in enumerate(rows) if vectors.get(c.id) is not None],
        )

    def _write_entities(self, conn: sqlite3.Connection, entities: list[Entity]) -> None:
        known = set(_lookup(conn, "SELECT id FROM entities WHERE id IN ({})", [e.id for e in entities]))
        fresh: list[Entity] = []
        seen: set[str] = set()
        for entity in entities:
            if entity.id in known or entity.id in seen:
                self._insert_fresh_entities(conn, fresh)
                fresh = []
                self._upsert_entity(conn, entity)
            else:
                fresh.append(entity)
            seen.add(entity.id)
        self._insert_fresh_entities(conn, fresh)

    @staticmethod
    def _insert_fresh_entities(conn: sqlite3.Connection, fresh: list[Entity]) -> None:
        """Insert entities that have no rows yet (what ``_upsert_entity`` does for them)."""
        if not fresh:
            return
        first = _next_rowid(conn, "entities")
        if first is None:
            for entity in fresh:
                SQLiteStore._upsert_entity(conn, entity)
            return
        rows = [(first + k, entity, json.dumps(list(entity.aliases))) for k, entity in enumerate(fresh)]
        conn.executemany(
            "INSERT INTO entities (rowid, id, kind, name, aliases, owner, description, source_ids, "
            "attributes, origin) VALUES (?,?,?,?,?,?,?,?,?,?)",
            [(rowid, e.id, e.kind, e.name, aliases, e.owner, e.description,
              json.dumps(list(e.source_ids)), json.dumps(e.attributes, default=str), e.origin)
             for rowid, e, aliases in rows],
        )
        conn.executemany(
            "INSERT INTO entities_fts (rowid, name, aliases, description) VALUES (?,?,?,?)",
            [(rowid, e.name, aliases, e.description) for rowid, e, aliases in rows],
        )
        conn.executemany(
            "INSERT INTO entity_names (name, entity_id) VALUES (?, ?)",
            [(n, e.id) for e in fresh for n in _entity_names(e)],
        )
        conn.executemany(
            "INSERT INTO doc_entities (doc_id, entity_id) VALUES (?, ?)",
            [(sid, e.id) for e in fresh for sid in e.source_ids],
        )

    @staticmethod
    def _delete_document(conn: sqlite3.Connection, doc_id: str) -> None:
        for row in conn.execute(
            "SELECT rowid, title, heading, text FROM chunks WHERE doc_id = ?", [doc_id]
        ).fetchall():
            conn.execute(
                "INSERT INTO chunks_fts (chunks_fts, rowid, title, heading, text) "
                "VALUES ('delete', ?, ?, ?, ?)",
                [row[0], row[1], row[2], row[3]],
            )
            conn.execute("DELETE FROM vectors WHERE chunk_rowid = ?", [row[0]])
        conn.execute("DELETE FROM chunks WHERE doc_id = ?", [doc_id])
        conn.execute("DELETE FROM doc_entities WHERE doc_id = ?", [doc_id])
        conn.execute("DELETE FROM documents WHERE id = ?", [doc_id])

    @staticmethod
    def _upsert_entity(conn: sqlite3.Connection, entity: Entity) -> None:
        old = conn.execute(
            "SELECT rowid, name, aliases, description FROM entities WHERE id = ?", [entity.id]
        ).fetchone()
        aliases = json.dumps(list(entity.aliases))
        if old and tuple(old)[1:] == (entity.name, aliases, entity.description):
            # The indexed text is the same: keep the row and its index entry, so that
            # re-ingesting unchanged files leaves the index (and its stored BM25 parts) alone.
            conn.execute(
                "UPDATE entities SET kind = ?, owner = ?, source_ids = ?, attributes = ?, "
                "origin = ? WHERE rowid = ?",
                [entity.kind, entity.owner, json.dumps(list(entity.source_ids)),
                 json.dumps(entity.attributes, default=str), entity.origin, old[0]],
            )
            conn.executemany(
                "INSERT INTO doc_entities (doc_id, entity_id) VALUES (?, ?)",
                [(sid, entity.id) for sid in entity.source_ids],
            )
            return  # entity_names come from the id, name and aliases: unchanged
        if old:
            conn.execute(
                "INSERT INTO entities_fts (entities_fts, rowid, name, aliases, description) "
                "VALUES ('delete', ?, ?, ?, ?)",
                list(old),
            )
            conn.execute("DELETE FROM entities WHERE id = ?", [entity.id])
            conn.execute("DELETE FROM entity_names WHERE entity_id = ?", [entity.id])
        cur = conn.execute(
            "INSERT INTO entities (id, kind, name, aliases, owner, description, source_ids, "
            "attributes, origin) VALUES (?,?,?,?,?,?,?,?,?)",
            [entity.id, entity.kind, entity.name, aliases, entity.owner, entity.description,
             json.dumps(list(entity.source_ids)), json.dumps(entity.attributes, default=str),
             entity.origin],
        )
        conn.execute(
            "INSERT INTO entities_fts (rowid, name, aliases, description) VALUES (?,?,?,?)",
            [cur.lastrowid, entity.name, aliases, entity.description],
        )
        conn.executemany(
            "INSERT INTO entity_names (name, entity_id) VALUES (?, ?)",
            [(n, entity.id) for n in _entity_names(entity)],
        )
        for sid in entity.source_ids:
            conn.execute(
                "INSERT INTO doc_entities (doc_id, entity_id) VALUES (?, ?)", [sid, entity.id]
            )

    @staticmethod
    def _write_relationships(
        conn: sqlite3.Connection, edges: list[Relationship], stamp: str
    ) -> tuple[int, int]:
        written = retired = 0
        known = set(
            _lookup(
                conn,
                "SELECT id FROM relationships WHERE retired_at IS NULL AND id IN ({})",
                [edge.id for edge in edges],
            )
        )
        fresh: list[tuple[Any, ...]] = []
        seen: set[str] = set()
        insert = (
            "INSERT INTO relationships (id, source, type, target, valid_from, valid_to, "
            "recorded_at, retired_at, source_ids, note, origin, content_hash) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
        )
        for edge in edges:
            digest = content_hash(edge)
            if edge.id not in known and edge.id not in seen:
                seen.add(edge.id)
                fresh.append(_relationship_row(edge, digest))
                written += 1
                continue
            seen.add(edge.id)
            conn.executemany(insert, fresh)
            fresh = []
            row = conn.execute(
                "SELECT content_hash FROM relationships WHERE id = ? AND retired_at IS NULL",
                [edge.id],
            ).fetchone()
            if row and row[0] == digest:
                continue
            if row:
                # Bitemporal: the old version stays, retired, so known_at can still see it.
                conn.execute(
                    "UPDATE relationships SET retired_at = ?, id = id || '@' || ? "
                    "WHERE id = ? AND retired_at IS NULL",
                    [stamp, stamp, edge.id],
                )
                retired += 1
            conn.execute(insert, _relationship_row(edge, digest))
            written += 1
        conn.executemany(insert, fresh)
        return written, retired

    @staticmethod
    def _upsert_contradiction(conn: sqlite3.Connection, entry: Contradiction) -> int:
        row = conn.execute("SELECT status FROM contradictions WHERE id = ?", [entry.id]).fetchone()
        if row and entry.origin == "detected":
            return 0  # a detected entry is never re-opened or closed by ingest
        conn.execute("DELETE FROM contradictions WHERE id = ?", [entry.id])
        conn.execute("DELETE FROM contradiction_entities WHERE contradiction_id = ?", [entry.id])
        conn.execute(
            "INSERT INTO contradictions (id, topic, entity_ids, positions, status, owner, "
            "opened_at, resolved_at, resolution, origin) VALUES (?,?,?,?,?,?,?,?,?,?)",
            [entry.id, entry.topic, json.dumps(list(entry.entity_ids)),
             json.dumps([p.model_dump(mode="json") for p in entry.positions]), entry.status,
             entry.owner, _iso(entry.opened_at), _iso(entry.resolved_at), entry.resolution,
             entry.origin],
        )
        conn.executemany(
            "INSERT INTO contradiction_entities (contradiction_id, entity_id) VALUES (?, ?)",
            [(entry.id, eid) for eid in entry.entity_ids],
        )
        return 0 if row else 1


_LOOKUP_BATCH = 500
"""Keys per ``IN (...)`` lookup, well under SQLite's bound-parameter limit."""


def _lookup(conn: sqlite3.Connection, sql: str, keys: list[str]) -> list[Any]:
    """First column of ``sql`` (with ``{}`` standing for the placeholders) over ``keys``."""
    found: list[Any] = []
    unique = list(dict.fromkeys(keys))
    for start in range(0, len(unique), _LOOKUP_BATCH):
        part = unique[start : start + _LOOKUP_BATCH]
        found += [r[0] for r in conn.execute(sql.format(",".join("?" * len(part))), part)]
    return found


def _next_rowid(conn: sqlite3.Connection, table: str) -> int | None:
    """The rowid SQLite itself gives the next row of ``table`` (one past the largest).

    ``None`` near the top of the range, where SQLite picks rowids at random instead.
    """
    largest = conn.execute(f"SELECT max(rowid) FROM {table}").fetchone()[0] or 0
    return None if largest >= 2**62 else largest + 1


def _insert_chunk(
    conn: sqlite3.Connection, chunk: Chunk, title: str, vec: list[float] | None
) -> None:
    cur = conn.execute(
        "INSERT INTO chunks (id, doc_id, ordinal, title, heading, text) VALUES (?,?,?,?,?,?)",
        [chunk.id, chunk.doc_id, chunk.ordinal, title, chunk.heading, chunk.text],
    )
    conn.execute(
        "INSERT INTO chunks_fts (rowid, title, heading, text) VALUES (?,?,?,?)",
        [cur.lastrowid, title, chunk.heading, chunk.text],
    )
    if vec is not None:
        conn.execute(
            "INSERT INTO vectors (chunk_rowid, vec) VALUES (?, ?)",
            [cur.lastrowid, np.asarray(vec, dtype=np.float32).tobytes()],
        )


def _entity_names(entity: Entity) -> list[str]:
    names = {entity.id.lower(), " ".join(entity.name.lower().split())}
    names |= {" ".join(a.lower().split()) for a in entity.aliases}
    return sorted(names)


def _document_row(doc: Document, digest: str) -> tuple[Any, ...]:
    return (
        doc.id, doc.title, doc.kind, doc.version, _iso(doc.effective_from),
        _iso(doc.effective_to), _iso(doc.published_at), doc.url, json.dumps(list(doc.supersedes)),
        json.dumps(list(doc.entity_ids)), doc.owner, doc.body,
        json.dumps(doc.metadata, default=str), doc.path, digest,
    )


def _relationship_row(edge: Relationship, digest: str) -> tuple[Any, ...]:
    return (
        edge.id, edge.source, edge.type, edge.target, _iso(edge.valid_from),
        _iso(edge.valid_to), edge.recorded_at.isoformat(), _iso(edge.retired_at),
        json.dumps(list(edge.source_ids)), edge.note, edge.origin, digest,
    )


def _insert_document(conn: sqlite3.Connection, doc: Document, digest: str) -> None:
    conn.execute(
        "INSERT INTO documents (id, title, kind, version, effective_from, effective_to, "
        "published_at, url, supersedes, entity_ids, owner, body, metadata, path, content_hash) "
        "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        _document_row(doc, digest),
    )
    conn.executemany(
        "INSERT INTO doc_entities (doc_id, entity_id) VALUES (?, ?)",
        [(doc.id, eid) for eid in doc.entity_ids],
    )


def _document(row: sqlite3.Row) -> Document:
    return Document(
        id=row["id"], title=row["title"], kind=row["kind"], version=row["version"],
        effective_from=_d(row["effective_from"]), effective_to=_d(row["effective_to"]),
        published_at=_d(row["published_at"]), url=row["url"],
        supersedes=tuple(json.loads(row["supersedes"])),
        entity_ids=tuple(json.loads(row["entity_ids"])), owner=row["owner"], body=row["body"],
        metadata=json.loads(row["metadata"]), path=row["path"],
    )


_raw_decode = json.JSONDecoder().raw_decode


def _json(text: str) -> Any:
    """A JSON value the store wrote (``json.dumps``: nothing around it), parsed."""
    value, end = _raw_decode(text)  # a third of json.loads's cost, which strips first
    return value if end == len(text) else json.loads(text)


def _entity(row: sqlite3.Row) -> Entity:
    # Rows were validated on their way in; resolve builds twenty of these a call, and
    # building them was a fifth of its time at 100k chunks.
    return trusted(Entity, {
        "id": row["id"], "kind": row["kind"], "name": row["name"],
        "aliases": tuple(_json(row["aliases"])), "owner": row["owner"],
        "description": row["description"], "source_ids": tuple(_json(row["source_ids"])),
        "attributes": _json(row["attributes"]), "origin": row["origin"],
    })


def _relationship(row: sqlite3.Row) -> Relationship:
    return Relationship(
        id=row["id"], source=row["source"], type=row["type"], target=row["target"],
        valid_from=_d(row["valid_from"]), valid_to=_d(row["valid_to"]),
        recorded_at=datetime.fromisoformat(row["recorded_at"]), retired_at=_dt(row["retired_at"]),
        source_ids=tuple(json.loads(row["source_ids"])), note=row["note"], origin=row["origin"],
    )


def _contradiction(row: sqlite3.Row) -> Contradiction:
    return Contradiction(
        id=row["id"], topic=row["topic"], entity_ids=tuple(json.loads(row["entity_ids"])),
        positions=tuple(Position(**p) for p in json.loads(row["positions"])),
        status=row["status"], owner=row["owner"], opened_at=_d(row["opened_at"]),
        resolved_at=_d(row["resolved_at"]), resolution=row["resolution"], origin=row["origin"],
    )

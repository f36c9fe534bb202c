"""Evidence reads of the embedded store: hybrid chunk search and the documents behind it.

Keyword search is FTS5 BM25 (exact top-k, see ``impacts``); with a query vector it is fused
with cosine similarity by reciprocal rank (:func:`groundgate.knowledge.fusion.fuse`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

import numpy as np

from groundgate.knowledge.embedded.bm25 import match_any, score_sql
from groundgate.knowledge.embedded.connection import Connected
from groundgate.knowledge.embedded.rows import document_from_row, parse_date
from groundgate.knowledge.fusion import fuse
from groundgate.knowledge.model import Chunk, Document, EvidenceHit, Validity
from groundgate.knowledge.port import EvidenceQuery
from groundgate.knowledge.text import content_terms, coverage
from groundgate.knowledge.weights import CHUNK_WEIGHTS

__all__ = ["FILTER_HEADROOM", "MAX_QUERY_TERMS", "EvidenceReads"]

MAX_QUERY_TERMS = 12
"""OR-ed keyword terms are capped so that long questions do not blow up latency."""

FILTER_HEADROOM = 8
"""A filtered keyword search ranks this many times its pool before filtering (see
``_keyword_ranks``); if too few of those pass, it runs the joined query instead."""

_CHUNK_SCORE = score_sql("chunks_fts", tuple(CHUNK_WEIGHTS.values()))


class EvidenceReads(Connected):
    """Chunk search and document reads."""

    def _search_evidence(self, query: EvidenceQuery) -> list[EvidenceHit]:
        """Keyword BM25, fused with vector similarity by RRF when a vector is given."""
        top_k, as_of, kinds, query_vector = query.top_k, query.as_of, query.kinds, query.vector
        terms = content_terms(query.text, MAX_QUERY_TERMS)
        pool = top_k * 4
        keyword = self._keyword_ranks(terms, pool, as_of, kinds) if terms else []
        vector: list[tuple[int, float]] = []
        if query_vector is not None:
            vector = self._vector_ranks(query_vector, pool, as_of, kinds)
        if not vector:
            ranked = keyword[:top_k]
        else:
            ranked = fuse([[rowid for rowid, _ in ranks] for ranks in (keyword, vector)], top_k)
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
                        valid_from=parse_date(row["effective_from"]), valid_to=parse_date(row["effective_to"])
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
        match = match_any(terms)
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
                        f"SELECT f.rowid, {_CHUNK_SCORE} AS s FROM chunks_fts f"
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
        return document_from_row(rows[0]) if rows else None

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
        return [document_from_row(r) for r in rows]

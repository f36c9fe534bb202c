"""Document and chunk writes of the embedded store (inside a transaction it holds)."""

from __future__ import annotations

import sqlite3

import numpy as np

from groundgate.knowledge.embedded.bulk import lookup, next_rowid
from groundgate.knowledge.embedded.rows import document_row
from groundgate.knowledge.model import Chunk, Document
from groundgate.knowledge.port import IngestBatch
from groundgate.knowledge.records import content_hash

__all__ = ["write_documents"]


def write_documents(conn: sqlite3.Connection, batch: IngestBatch) -> tuple[int, int, int]:
    """Write ``batch``'s documents and chunks; unchanged ones are left alone.

    Returns:
        How many documents were written and left unchanged, and how many chunks written.
    """
    written = unchanged = chunks = 0
    chunks_by_doc: dict[str, list[Chunk]] = {}
    for chunk in batch.chunks:
        chunks_by_doc.setdefault(chunk.doc_id, []).append(chunk)
    ids = [doc.id for doc in batch.documents]
    known = set(lookup(conn, "SELECT id FROM documents WHERE id IN ({})", ids))
    known |= set(lookup(conn, "SELECT DISTINCT doc_id FROM chunks WHERE doc_id IN ({})", ids))
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
        _insert_fresh_documents(conn, fresh, chunks_by_doc, batch.vectors)
        fresh = []
        row = conn.execute("SELECT content_hash FROM documents WHERE id = ?", [doc.id]).fetchone()
        if row and row[0] == digest:
            unchanged += 1
            continue
        _delete_document(conn, doc.id)
        _insert_document(conn, doc, digest)
        for chunk in chunks_by_doc.get(doc.id, []):
            _insert_chunk(conn, chunk, doc.title, batch.vectors.get(chunk.id))
            chunks += 1
        written += 1
    _insert_fresh_documents(conn, fresh, chunks_by_doc, batch.vectors)
    return written, unchanged, chunks


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
        [document_row(doc, digest) for doc, digest in fresh],
    )
    conn.executemany(
        "INSERT INTO doc_entities (doc_id, entity_id) VALUES (?, ?)",
        [(doc.id, eid) for doc, _ in fresh for eid in doc.entity_ids],
    )
    rows = [
        (chunk, doc.title) for doc, _ in fresh for chunk in chunks_by_doc.get(doc.id, [])
    ]
    first = next_rowid(conn, "chunks")
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


def _insert_document(conn: sqlite3.Connection, doc: Document, digest: str) -> None:
    conn.execute(
        "INSERT INTO documents (id, title, kind, version, effective_from, effective_to, "
        "published_at, url, supersedes, entity_ids, owner, body, metadata, path, content_hash) "
        "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        document_row(doc, digest),
    )
    conn.executemany(
        "INSERT INTO doc_entities (doc_id, entity_id) VALUES (?, ?)",
        [(doc.id, eid) for eid in doc.entity_ids],
    )

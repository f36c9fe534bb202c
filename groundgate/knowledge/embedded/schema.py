"""Ordered migrations for the embedded SQLite store, with a version row."""

from __future__ import annotations

import sqlite3

__all__ = ["MIGRATIONS", "migrate"]

MIGRATIONS: tuple[str, ...] = (
    # 1: the two layers
    """
    CREATE TABLE documents (
        id TEXT PRIMARY KEY, title TEXT NOT NULL, kind TEXT NOT NULL, version TEXT,
        effective_from TEXT, effective_to TEXT, published_at TEXT, url TEXT,
        supersedes TEXT NOT NULL, entity_ids TEXT NOT NULL, owner TEXT, body TEXT NOT NULL,
        metadata TEXT NOT NULL, path TEXT, content_hash TEXT NOT NULL
    );
    CREATE TABLE chunks (
        rowid INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, doc_id TEXT NOT NULL,
        ordinal INTEGER NOT NULL, title TEXT NOT NULL, heading TEXT NOT NULL, text TEXT NOT NULL
    );
    CREATE INDEX chunks_doc ON chunks(doc_id);
    CREATE VIRTUAL TABLE chunks_fts USING fts5(
        title, heading, text, content='chunks', content_rowid='rowid',
        tokenize='porter unicode61'
    );
    CREATE TABLE vectors (chunk_rowid INTEGER PRIMARY KEY, vec BLOB NOT NULL);
    CREATE TABLE entities (
        rowid INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, kind TEXT NOT NULL,
        name TEXT NOT NULL, aliases TEXT NOT NULL, owner TEXT, description TEXT NOT NULL,
        source_ids TEXT NOT NULL, attributes TEXT NOT NULL, origin TEXT NOT NULL
    );
    CREATE VIRTUAL TABLE entities_fts USING fts5(
        name, aliases, description, content='entities', content_rowid='rowid',
        tokenize='porter unicode61'
    );
    CREATE TABLE entity_names (name TEXT NOT NULL, entity_id TEXT NOT NULL);
    CREATE INDEX entity_names_name ON entity_names(name);
    CREATE INDEX entity_names_entity ON entity_names(entity_id);
    CREATE TABLE doc_entities (doc_id TEXT NOT NULL, entity_id TEXT NOT NULL);
    CREATE INDEX doc_entities_entity ON doc_entities(entity_id);
    CREATE INDEX doc_entities_doc ON doc_entities(doc_id);
    CREATE TABLE relationships (
        id TEXT PRIMARY KEY, source TEXT NOT NULL, type TEXT NOT NULL, target TEXT NOT NULL,
        valid_from TEXT, valid_to TEXT, recorded_at TEXT NOT NULL, retired_at TEXT,
        source_ids TEXT NOT NULL, note TEXT NOT NULL, origin TEXT NOT NULL,
        content_hash TEXT NOT NULL
    );
    CREATE INDEX relationships_source ON relationships(source);
    CREATE INDEX relationships_target ON relationships(target);
    CREATE TABLE contradictions (
        id TEXT PRIMARY KEY, topic TEXT NOT NULL, entity_ids TEXT NOT NULL,
        positions TEXT NOT NULL, status TEXT NOT NULL, owner TEXT, opened_at TEXT,
        resolved_at TEXT, resolution TEXT, origin TEXT NOT NULL
    );
    CREATE TABLE contradiction_entities (contradiction_id TEXT NOT NULL, entity_id TEXT NOT NULL);
    CREATE INDEX contradiction_entities_entity ON contradiction_entities(entity_id);
    CREATE TABLE resolution_log (
        seq INTEGER PRIMARY KEY, mention TEXT NOT NULL, candidate_id TEXT NOT NULL,
        score REAL NOT NULL, decision TEXT NOT NULL, zone TEXT NOT NULL, reason TEXT NOT NULL
    );
    """,
    # 2: the common tokens' BM25 parts, stored by ingest (see stored_impacts.py). A write to
    # the text an index is built from drops that index's state row in the same transaction,
    # whoever writes, so stale parts are never read.
    """
    CREATE TABLE fts_impacts (
        fts TEXT NOT NULL, token TEXT NOT NULL, matches INTEGER NOT NULL, rowids BLOB,
        scores BLOB, PRIMARY KEY (fts, token)
    );
    CREATE TABLE fts_impacts_state (fts TEXT PRIMARY KEY, common_rows INTEGER NOT NULL);
    CREATE TRIGGER chunks_insert_stales_impacts AFTER INSERT ON chunks
    BEGIN DELETE FROM fts_impacts_state WHERE fts = 'chunks_fts'; END;
    CREATE TRIGGER chunks_delete_stales_impacts AFTER DELETE ON chunks
    BEGIN DELETE FROM fts_impacts_state WHERE fts = 'chunks_fts'; END;
    CREATE TRIGGER chunks_update_stales_impacts AFTER UPDATE OF rowid, title, heading, text ON chunks
    BEGIN DELETE FROM fts_impacts_state WHERE fts = 'chunks_fts'; END;
    CREATE TRIGGER entities_insert_stales_impacts AFTER INSERT ON entities
    BEGIN DELETE FROM fts_impacts_state WHERE fts = 'entities_fts'; END;
    CREATE TRIGGER entities_delete_stales_impacts AFTER DELETE ON entities
    BEGIN DELETE FROM fts_impacts_state WHERE fts = 'entities_fts'; END;
    CREATE TRIGGER entities_update_stales_impacts
    AFTER UPDATE OF rowid, name, aliases, description ON entities
    BEGIN DELETE FROM fts_impacts_state WHERE fts = 'entities_fts'; END;
    """,
)
"""Each entry moves the schema one version forward; never edit a shipped entry."""


def migrate(conn: sqlite3.Connection) -> int:
    """Apply every migration newer than the stored version; idempotent. Returns the version."""
    conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    row = conn.execute("SELECT version FROM schema_version").fetchone()
    current = row[0] if row else 0
    if row is None:
        conn.execute("INSERT INTO schema_version (version) VALUES (0)")
    for number, script in enumerate(MIGRATIONS[current:], start=current + 1):
        conn.executescript("BEGIN;" + script + f"UPDATE schema_version SET version = {number};COMMIT;")
    conn.commit()
    return len(MIGRATIONS)

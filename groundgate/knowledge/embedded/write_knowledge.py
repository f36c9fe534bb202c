"""Entity, relationship and register writes of the embedded store (inside its transaction)."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from groundgate.knowledge.embedded.bulk import lookup, next_rowid
from groundgate.knowledge.embedded.rows import entity_names, iso, relationship_row
from groundgate.knowledge.model import Contradiction, Entity, Relationship
from groundgate.knowledge.records import content_hash

__all__ = ["upsert_contradiction", "write_entities", "write_relationships"]


def write_entities(conn: sqlite3.Connection, entities: list[Entity]) -> None:
    """Insert or update ``entities``, keeping the index entries of unchanged text."""
    known = set(lookup(conn, "SELECT id FROM entities WHERE id IN ({})", [e.id for e in entities]))
    fresh: list[Entity] = []
    seen: set[str] = set()
    for entity in entities:
        if entity.id in known or entity.id in seen:
            _insert_fresh_entities(conn, fresh)
            fresh = []
            _upsert_entity(conn, entity)
        else:
            fresh.append(entity)
        seen.add(entity.id)
    _insert_fresh_entities(conn, fresh)


def _insert_fresh_entities(conn: sqlite3.Connection, fresh: list[Entity]) -> None:
    """Insert entities that have no rows yet (what ``_upsert_entity`` does for them)."""
    if not fresh:
        return
    first = next_rowid(conn, "entities")
    if first is None:
        for entity in fresh:
            _upsert_entity(conn, entity)
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
        [(n, e.id) for e in fresh for n in entity_names(e)],
    )
    conn.executemany(
        "INSERT INTO doc_entities (doc_id, entity_id) VALUES (?, ?)",
        [(sid, e.id) for e in fresh for sid in e.source_ids],
    )


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
        [(n, entity.id) for n in entity_names(entity)],
    )
    for sid in entity.source_ids:
        conn.execute(
            "INSERT INTO doc_entities (doc_id, entity_id) VALUES (?, ?)", [sid, entity.id]
        )


def write_relationships(
    conn: sqlite3.Connection, edges: list[Relationship], stamp: str
) -> tuple[int, int]:
    """Record ``edges``; a changed edge retires its old version at ``stamp``.

    Returns:
        How many edges were written and how many retired.
    """
    written = retired = 0
    known = set(
        lookup(
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
            fresh.append(relationship_row(edge, digest))
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
        conn.execute(insert, relationship_row(edge, digest))
        written += 1
    conn.executemany(insert, fresh)
    return written, retired


def upsert_contradiction(conn: sqlite3.Connection, entry: Contradiction) -> int:
    """Write a register entry (a detected one that exists is left alone); 1 if it is new."""
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
         entry.owner, iso(entry.opened_at), iso(entry.resolved_at), entry.resolution,
         entry.origin],
    )
    conn.executemany(
        "INSERT INTO contradiction_entities (contradiction_id, entity_id) VALUES (?, ?)",
        [(entry.id, eid) for eid in entry.entity_ids],
    )
    return 0 if row else 1

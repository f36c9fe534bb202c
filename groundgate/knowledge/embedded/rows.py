"""Row mapping of the embedded store: SQLite rows to domain records and back."""

from __future__ import annotations

import json
import sqlite3
from datetime import date, datetime
from typing import Any

from groundgate.knowledge.model import (
    Contradiction,
    Document,
    Entity,
    Position,
    Relationship,
    trusted,
)

__all__ = [
    "contradiction_from_row",
    "document_from_row",
    "document_row",
    "entity_from_row",
    "entity_names",
    "iso",
    "parse_date",
    "parse_datetime",
    "relationship_from_row",
    "relationship_row",
]


def parse_date(value: str | None) -> date | None:
    """An ISO date column, or ``None``."""
    return date.fromisoformat(value) if value else None


def parse_datetime(value: str | None) -> datetime | None:
    """An ISO timestamp column, or ``None``."""
    return datetime.fromisoformat(value) if value else None


def iso(value: date | datetime | None) -> str | None:
    """A date or timestamp as its column text, or ``None``."""
    return value.isoformat() if value else None


def entity_names(entity: Entity) -> list[str]:
    """The normalised names ``find_entities`` looks an entity up by: id, name, aliases."""
    names = {entity.id.lower(), " ".join(entity.name.lower().split())}
    names |= {" ".join(a.lower().split()) for a in entity.aliases}
    return sorted(names)


def document_row(doc: Document, digest: str) -> tuple[Any, ...]:
    """A document as its ``documents`` row."""
    return (
        doc.id, doc.title, doc.kind, doc.version, iso(doc.effective_from),
        iso(doc.effective_to), iso(doc.published_at), doc.url, json.dumps(list(doc.supersedes)),
        json.dumps(list(doc.entity_ids)), doc.owner, doc.body,
        json.dumps(doc.metadata, default=str), doc.path, digest,
    )


def relationship_row(edge: Relationship, digest: str) -> tuple[Any, ...]:
    """An edge as its ``relationships`` row."""
    return (
        edge.id, edge.source, edge.type, edge.target, iso(edge.valid_from),
        iso(edge.valid_to), edge.recorded_at.isoformat(), iso(edge.retired_at),
        json.dumps(list(edge.source_ids)), edge.note, edge.origin, digest,
    )


def document_from_row(row: sqlite3.Row) -> Document:
    """A ``documents`` row as a document."""
    return Document(
        id=row["id"], title=row["title"], kind=row["kind"], version=row["version"],
        effective_from=parse_date(row["effective_from"]), effective_to=parse_date(row["effective_to"]),
        published_at=parse_date(row["published_at"]), url=row["url"],
        supersedes=tuple(json.loads(row["supersedes"])),
        entity_ids=tuple(json.loads(row["entity_ids"])), owner=row["owner"], body=row["body"],
        metadata=json.loads(row["metadata"]), path=row["path"],
    )


_raw_decode = json.JSONDecoder().raw_decode


def _json(text: str) -> Any:
    """A JSON value the store wrote (``json.dumps``: nothing around it), parsed."""
    value, end = _raw_decode(text)  # a third of json.loads's cost, which strips first
    return value if end == len(text) else json.loads(text)


def entity_from_row(row: sqlite3.Row) -> Entity:
    """An ``entities`` row as an entity."""
    # Rows were validated on their way in; resolve builds twenty of these a call, and
    # building them was a fifth of its time at 100k chunks.
    return trusted(Entity, {
        "id": row["id"], "kind": row["kind"], "name": row["name"],
        "aliases": tuple(_json(row["aliases"])), "owner": row["owner"],
        "description": row["description"], "source_ids": tuple(_json(row["source_ids"])),
        "attributes": _json(row["attributes"]), "origin": row["origin"],
    })


def relationship_from_row(row: sqlite3.Row) -> Relationship:
    """A ``relationships`` row as an edge."""
    return Relationship(
        id=row["id"], source=row["source"], type=row["type"], target=row["target"],
        valid_from=parse_date(row["valid_from"]), valid_to=parse_date(row["valid_to"]),
        recorded_at=datetime.fromisoformat(row["recorded_at"]), retired_at=parse_datetime(row["retired_at"]),
        source_ids=tuple(json.loads(row["source_ids"])), note=row["note"], origin=row["origin"],
    )


def contradiction_from_row(row: sqlite3.Row) -> Contradiction:
    """A ``contradictions`` row as a register entry."""
    return Contradiction(
        id=row["id"], topic=row["topic"], entity_ids=tuple(json.loads(row["entity_ids"])),
        positions=tuple(Position(**p) for p in json.loads(row["positions"])),
        status=row["status"], owner=row["owner"], opened_at=parse_date(row["opened_at"]),
        resolved_at=parse_date(row["resolved_at"]), resolution=row["resolution"], origin=row["origin"],
    )

"""Declared knowledge: entities, relationships and contradictions from located YAML items.

Each field is read with its own type (``fields.py``), so a wrong kind of value is an
error naming the file, the line and the field, never a ``str()`` of it.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from groundgate.errors import CorpusError
from groundgate.knowledge.ingest.fields import (
    as_date,
    as_id,
    as_id_list,
    as_mapping,
    as_str_list,
    as_text,
)
from groundgate.knowledge.ingest.reader import Located
from groundgate.knowledge.model import RELATIONSHIP_TYPES, Contradiction, Entity, Position, Relationship

__all__ = ["read_contradiction", "read_entity", "read_relationship", "required_id"]

Known = Callable[[str], bool]
"""Whether an id names a document or entity of the corpus or the store."""


def required_id(item: Located, key: str, path: Path) -> str:
    """The id at ``key``, which must be set."""
    value = as_id(item.data.get(key), path, item.at(key), key)
    if not value:
        raise CorpusError(path, item.at(key), f"missing required key {key!r}")
    return value


def _required_text(item: Located, key: str, path: Path) -> str:
    value = as_text(item.data.get(key), path, item.at(key), key)
    if value is None or not value.strip():
        raise CorpusError(path, item.at(key), f"missing required key {key!r}")
    return value.strip()


def _text(item: Located, key: str, path: Path) -> str | None:
    return as_text(item.data.get(key), path, item.at(key), key)


def read_entity(item: Located, path: Path) -> Entity:
    """A declared entity."""
    eid = required_id(item, "id", path)
    data = item.data
    return Entity(
        id=eid,
        kind=_text(item, "kind", path) or "concept",
        name=_text(item, "name", path) or eid,
        aliases=as_str_list(data.get("aliases"), path, item.at("aliases"), "aliases"),
        owner=_text(item, "owner", path),
        description=_text(item, "description", path) or "",
        source_ids=as_id_list(data.get("source_ids"), path, item.at("source_ids"), "source_ids"),
        attributes=as_mapping(data.get("attributes"), path, item.at("attributes"), "attributes"),
    )


def read_relationship(item: Located, path: Path, now: datetime, known: Known) -> Relationship:
    """A declared relationship, whose ends and sources must be known."""
    data = item.data
    source = required_id(item, "source", path)
    target = required_id(item, "target", path)
    kind = required_id(item, "type", path)
    if kind not in RELATIONSHIP_TYPES:
        raise CorpusError(
            path, item.at("type"),
            f"unknown relationship type {kind!r}; known: {', '.join(RELATIONSHIP_TYPES)}",
        )
    for key, end in (("source", source), ("target", target)):
        if not known(end):
            raise CorpusError(path, item.at(key), f"relationship names unknown id {end!r}")
    source_ids = as_id_list(data.get("source_ids"), path, item.at("source_ids"), "source_ids")
    for sid in source_ids:
        if not known(sid):
            raise CorpusError(path, item.at("source_ids"), f"source id {sid!r} names no document or entity")
    valid_from = as_date(data.get("valid_from"), path, item.at("valid_from"), "valid_from")
    valid_to = as_date(data.get("valid_to"), path, item.at("valid_to"), "valid_to")
    if valid_from and valid_to and valid_to <= valid_from:
        raise CorpusError(path, item.at("valid_to"), "valid_to is not after valid_from")
    recorded = as_date(data.get("recorded_at"), path, item.at("recorded_at"), "recorded_at")
    return Relationship(
        id=f"{source}|{kind}|{target}|{valid_from.isoformat() if valid_from else ''}",
        source=source,
        type=kind,
        target=target,
        valid_from=valid_from,
        valid_to=valid_to,
        recorded_at=datetime(recorded.year, recorded.month, recorded.day, tzinfo=UTC)
        if recorded
        else now,
        source_ids=source_ids,
        note=_text(item, "note", path) or "",
    )


def read_contradiction(item: Located, path: Path, known: Known) -> Contradiction:
    """A declared register entry with two or more positions."""
    data = item.data
    entry_id = required_id(item, "id", path)
    raw_positions = data.get("positions") or []
    if not isinstance(raw_positions, list) or len(raw_positions) < 2:
        raise CorpusError(
            path, item.at("positions"), f"contradiction {entry_id!r} needs two or more positions"
        )
    positions = []
    for raw in raw_positions:
        line = raw.get("__line__", item.at("positions")) if isinstance(raw, dict) else item.at("positions")
        statement = as_text(raw.get("statement"), path, line, "statement") if isinstance(raw, dict) else None
        if not statement:
            raise CorpusError(path, line, f"contradiction {entry_id!r}: a position needs a statement")
        sids = as_id_list(raw.get("source_ids"), path, line, "source_ids")
        for sid in sids:
            if not known(sid):
                raise CorpusError(path, line, f"source id {sid!r} names no document or entity")
        positions.append(Position(statement=statement, source_ids=sids))
    entity_ids = as_id_list(data.get("entity_ids"), path, item.at("entity_ids"), "entity_ids")
    for eid in entity_ids:
        if not known(eid):
            raise CorpusError(path, item.at("entity_ids"), f"entity id {eid!r} names nothing in the corpus")
    status = _text(item, "status", path) or "open"
    if status not in ("open", "resolved"):
        raise CorpusError(path, item.at("status"), f"status must be 'open' or 'resolved', not {status!r}")
    return Contradiction(
        id=entry_id,
        topic=_required_text(item, "topic", path),
        entity_ids=entity_ids,
        positions=tuple(positions),
        status=status,  # type: ignore[arg-type]
        owner=_text(item, "owner", path),
        opened_at=as_date(data.get("opened_at"), path, item.at("opened_at"), "opened_at"),
        resolved_at=as_date(data.get("resolved_at"), path, item.at("resolved_at"), "resolved_at"),
        resolution=_text(item, "resolution", path),
    )

"""What travels to the Gremlin endpoint: the fixed scripts, and the values bound to them.

Cosmos accepts only string scripts over GraphSON v2 (no bytecode), so every request is one
of the fixed scripts of ``Scripts``, and every value (ids, types, dates, notes) travels as a
binding: no caller text is ever spliced into a script. The only identifier in the scripts
that comes from configuration is the partition-key property name, validated as a plain
identifier. The same scripts run unchanged on Apache TinkerPop Gremlin Server (the CI target).

Time lives on the edges as strings that compare in order: ``vf``/``vt`` (validity, ISO dates,
open ends as sentinels that sort first/last), ``ra``/``xa`` (recorded/retired, UTC
timestamps, ``xa`` open as a sentinel that sorts last). ``as_of`` and ``known_at`` become
``has(..., lte/gt(...))`` steps, so the server filters edges before they are sent.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, date, datetime
from typing import Any

from groundgate.errors import ConfigError
from groundgate.knowledge.model import Relationship
from groundgate.knowledge.records import content_hash

__all__ = [
    "NOT_RETIRED",
    "VALID_OPEN_END",
    "VALID_OPEN_START",
    "Scripts",
    "edge_bindings",
    "encode_instant",
    "relationship_from",
]

VALID_OPEN_START = "0000-00-00"
"""``vf`` of an edge valid since forever: sorts before every ISO date."""
VALID_OPEN_END = "9999-99-99"
"""``vt`` of an edge valid for ever: sorts after every ISO date."""
NOT_RETIRED = "9999-12-31T23:59:59.999999Z"
"""``xa`` of an edge that is still current: sorts after every timestamp."""

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")


class Scripts:
    """The fixed Gremlin scripts, for one partition-key property name.

    Binding names all start with ``b`` and a capital: Gremlin Server's script engine imports
    many bare names (``day`` is ``DT.day``, ``id`` is ``T.id``) that would shadow a binding.
    """

    def __init__(self, pk: str) -> None:
        if not _IDENTIFIER.match(pk):
            raise ConfigError(f"gremlin partition key {pk!r} must be a plain identifier")
        v = f"has('{pk}', bVid).has('eid', bVid)"
        many = f"has('{pk}', within(bIds)).has('eid', within(bIds))"
        self.upsert_vertex = (
            f"g.V().{v}.fold().coalesce(unfold(), "
            f"addV('entity').property('{pk}', bVid).property('eid', bVid).property('kind', bKind)).count()"
        )
        self.existing_vertices = f"g.V().{many}.values('eid')"
        self.add_edge = (
            f"g.V().has('{pk}', bTid).has('eid', bTid).as('t')"
            f".V().has('{pk}', bSid).has('eid', bSid).addE(bEtype).to('t')"
            ".property('rid', bRid).property('type', bEtype).property('vf', bVf).property('vt', bVt)"
            ".property('ra', bRa).property('xa', bXa).property('h', bH).property('src', bSrc)"
            ".property('note', bNote).property('origin', bOrigin).count()"
        )
        self.retire_edge = (
            f"g.V().has('{pk}', bSid).has('eid', bSid).outE(bEtype).has('rid', bRid).has('xa', bCurrent)"
            ".property('xa', bStamp).property('rid', bRetiredRid).count()"
        )
        self.drop_current_edge = (
            f"g.V().has('{pk}', bSid).has('eid', bSid).outE(bEtype).has('rid', bRid)"
            ".has('xa', bCurrent).drop()"
        )
        self.current_edges_from = (
            f"g.V().{many}.outE().has('xa', bCurrent).project('rid', 'h').by('rid').by('h')"
        )
        self.touching = f"g.V().{many}.bothE()"
        self.project_edge = (
            ".project('e', 's', 't').by(valueMap()).by(outV().values('eid')).by(inV().values('eid'))"
        )
        self.count_vertices = "g.V().limit(1).count()"
        self.drop_everything = "g.V().drop()"

    def edges_touching(self, *, types: bool, as_of: bool, known_at: bool) -> str:
        """The read script for edges touching ``bIds``; each filter is a fixed fragment."""
        script = self.touching
        if types:
            script += ".has('type', within(bTypes))"
        if as_of:
            script += ".has('vf', lte(bDay)).has('vt', gt(bDay))"
        script += ".has('ra', lte(bKnown)).has('xa', gt(bKnown))" if known_at else ".has('xa', bCurrent)"
        return script + self.project_edge


def encode_instant(moment: datetime) -> str:
    """A UTC timestamp that sorts as it compares (naive datetimes are taken as UTC)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _decode_instant(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)


def edge_bindings(edge: Relationship) -> dict[str, Any]:
    """The bindings of ``add_edge`` for ``edge``."""
    return {
        "bSid": edge.source,
        "bTid": edge.target,
        "bEtype": edge.type,
        "bRid": edge.id,
        "bVf": edge.valid_from.isoformat() if edge.valid_from else VALID_OPEN_START,
        "bVt": edge.valid_to.isoformat() if edge.valid_to else VALID_OPEN_END,
        "bRa": encode_instant(edge.recorded_at),
        "bXa": encode_instant(edge.retired_at) if edge.retired_at else NOT_RETIRED,
        "bH": content_hash(edge),
        "bSrc": json.dumps(list(edge.source_ids)),
        "bNote": edge.note,
        "bOrigin": edge.origin,
    }


def relationship_from(props: dict[str, Any], source: str, target: str) -> Relationship:
    """The relationship an edge's projected properties and end ids describe."""

    def one(key: str) -> Any:
        value = props.get(key)
        return value[0] if isinstance(value, list) and len(value) == 1 else value  # vertex-style maps

    vf, vt, xa = one("vf"), one("vt"), one("xa")
    return Relationship(
        id=one("rid"),
        source=source,
        type=one("type"),
        target=target,
        valid_from=None if vf == VALID_OPEN_START else date.fromisoformat(vf),
        valid_to=None if vt == VALID_OPEN_END else date.fromisoformat(vt),
        recorded_at=_decode_instant(one("ra")),
        retired_at=None if xa == NOT_RETIRED else _decode_instant(xa),
        source_ids=tuple(json.loads(one("src") or "[]")),
        note=one("note") or "",
        origin=one("origin") or "declared",
    )

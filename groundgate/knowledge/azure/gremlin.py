"""The bitemporal graph on Cosmos DB for Apache Gremlin (or any Apache TinkerPop Gremlin Server).

Cosmos accepts only string scripts over GraphSON v2 (no bytecode), so every request here is one
of the fixed scripts below, and every value (ids, types, dates, notes) travels as a binding:
no caller text is ever spliced into a script. The only identifier in the scripts that comes
from configuration is the partition-key property name, validated as a plain identifier.
The same scripts run unchanged on Apache TinkerPop Gremlin Server (the CI target).

Time lives on the edges as strings that compare in order: ``vf``/``vt`` (validity, ISO dates,
open ends as sentinels that sort first/last), ``ra``/``xa`` (recorded/retired, UTC
timestamps, ``xa`` open as a sentinel that sorts last). ``as_of`` and ``known_at`` become
``has(..., lte/gt(...))`` steps, so the server filters edges before they are sent.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from datetime import UTC, date, datetime
from typing import Any

from groundgate.errors import ConfigError, StoreError
from groundgate.knowledge.azure.retry import RETRY_STATUSES, Retrier, Retryable, parse_retry_after
from groundgate.knowledge.azure.settings import AzureSettings
from groundgate.knowledge.model import Relationship, TraversalPath
from groundgate.knowledge.port import MAX_HOPS
from groundgate.knowledge.records import content_hash

__all__ = ["GremlinGraph", "Scripts", "edge_bindings", "encode_instant"]

VALID_OPEN_START = "0000-00-00"
"""``vf`` of an edge valid since forever: sorts before every ISO date."""
VALID_OPEN_END = "9999-99-99"
"""``vt`` of an edge valid for ever: sorts after every ISO date."""
NOT_RETIRED = "9999-12-31T23:59:59.999999Z"
"""``xa`` of an edge that is still current: sorts after every timestamp."""

LOOKUP_BATCH = 100
"""Vertex ids per ``within(...)`` lookup."""

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


def _relationship(props: dict[str, Any], source: str, target: str) -> Relationship:
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


def _classify(exc: BaseException) -> Retryable | None:
    attributes = getattr(exc, "status_attributes", None) or {}
    status = attributes.get("x-ms-status-code")
    try:
        code = int(status) if status is not None else None
    except (TypeError, ValueError):
        code = None
    if code in RETRY_STATUSES:
        return Retryable(code, parse_retry_after(ms=attributes.get("x-ms-retry-after-ms")))
    return None


class GremlinGraph:
    """Relationships and traversal over a Gremlin endpoint, scripts plus bindings only.

    ``client_factory`` builds the gremlinpython client on first use (tests pass their own).
    """

    def __init__(
        self,
        settings: AzureSettings,
        *,
        client_factory: Callable[[], Any] | None = None,
        sleep: Callable[[float], None] | None = None,
    ) -> None:
        self.settings = settings
        self.scripts = Scripts(settings.gremlin_partition_key)
        self._factory = client_factory or self._default_client
        self._client: Any = None
        self._lock = threading.Lock()
        kwargs = {"sleep": sleep} if sleep else {}
        self.retrier = Retrier(settings.retry, _classify, service="Gremlin", **kwargs)

    # ---- the wire --------------------------------------------------------------------

    def _default_client(self) -> Any:
        try:
            from gremlin_python.driver import client, serializer
        except ImportError as exc:  # pragma: no cover - the azure extra is missing
            raise ConfigError(
                "the Azure backend needs the 'azure' extra: pip install 'groundgate[azure]'"
            ) from exc
        return client.Client(
            self.settings.gremlin_url,
            "g",
            username=self.settings.gremlin_username or "",
            password=self.settings.gremlin_key or "",
            message_serializer=serializer.GraphSONSerializersV2d0(),
            pool_size=max(1, self.settings.write_concurrency),
        )

    def submit(self, script: str, bindings: dict[str, Any], what: str) -> list[Any]:
        """Run one fixed script with its bindings; every failure becomes a ``StoreError``."""

        def once() -> list[Any]:
            client = self._connected()
            try:
                return list(client.submit(script, bindings).all().result(timeout=self.settings.timeout_s))
            except FutureTimeout:
                where = self.settings.gremlin_url
                raise StoreError(
                    f"Gremlin: {what} timed out after {self.settings.timeout_s:g}s at {where}"
                ) from None

        return self.retrier.run(once, what)

    def _connected(self) -> Any:
        with self._lock:  # tool calls run in parallel: one pool, not one per first caller
            if self._client is None:
                self._client = self._factory()
            return self._client

    def close(self) -> None:
        """Close the websocket pool."""
        with self._lock:
            client, self._client = self._client, None
        if client is not None:
            client.close()

    # ---- provisioning and reads ------------------------------------------------------

    def check(self) -> None:
        """A cheap round trip: the endpoint answers scripts."""
        self.submit(self.scripts.count_vertices, {}, "reach the graph")

    def clear(self) -> None:
        """Drop every vertex and edge (tests and teardown only)."""
        self.submit(self.scripts.drop_everything, {}, "drop the graph")

    def edges_touching(
        self,
        entity_ids: Sequence[str],
        *,
        types: Sequence[str] = (),
        as_of: date | None = None,
        known_at: datetime | None = None,
    ) -> list[Relationship]:
        """Edges touching any of ``entity_ids``, filtered server-side, ordered as the port says."""
        script = self.scripts.edges_touching(
            types=bool(types), as_of=as_of is not None, known_at=known_at is not None
        )
        found: dict[tuple[str, str], Relationship] = {}
        for part in _batches(list(dict.fromkeys(entity_ids)), LOOKUP_BATCH):
            bindings: dict[str, Any] = {"bIds": part}
            if types:
                bindings["bTypes"] = list(types)
            if as_of is not None:
                bindings["bDay"] = as_of.isoformat()
            if known_at is not None:
                bindings["bKnown"] = encode_instant(known_at)
            else:
                bindings["bCurrent"] = NOT_RETIRED
            for row in self.submit(script, bindings, "read relationships"):
                edge = _relationship(row["e"], row["s"], row["t"])
                found[(edge.id, edge.recorded_at.isoformat())] = edge
        return sorted(found.values(), key=lambda e: (e.valid_from.isoformat() if e.valid_from else "", e.id))

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
        """Breadth-first simple paths of 1..hops edges, one batched request per hop.

        The hop bound is enforced here before any request; the type and time filters run on
        the server. Walking level by level keeps the order (and so what ``limit`` cuts) the
        same as every other backend's.
        """
        hops = max(1, min(hops, MAX_HOPS))
        touching: dict[str, list[Relationship]] = {}
        walked: list[TraversalPath] = []
        frontier: list[TraversalPath] = [TraversalPath(nodes=(start,), edges=())]
        for _ in range(hops):
            tails = [p.nodes[-1] for p in frontier if p.nodes[-1] not in touching]
            if tails:
                for tail in tails:
                    touching[tail] = []
                for edge in self.edges_touching(tails, types=types, as_of=as_of, known_at=known_at):
                    for end in {edge.source, edge.target}:
                        if end in touching and end in tails:
                            touching[end].append(edge)
            next_frontier = []
            for path in frontier:
                tail = path.nodes[-1]
                for edge in touching[tail]:
                    other = edge.target if edge.source == tail else edge.source
                    if other in path.nodes:
                        continue
                    step = TraversalPath(nodes=(*path.nodes, other), edges=(*path.edges, edge))
                    walked.append(step)
                    next_frontier.append(step)
                    if len(walked) >= limit:
                        return walked
            frontier = next_frontier
        return walked

    # ---- writing ---------------------------------------------------------------------

    def existing_vertices(self, ids: Iterable[str]) -> set[str]:
        """Which of ``ids`` have a vertex."""
        found: set[str] = set()
        for part in _batches(list(dict.fromkeys(ids)), LOOKUP_BATCH):
            found.update(self.submit(self.scripts.existing_vertices, {"bIds": part}, "look up vertices"))
        return found

    def current_edges_from(self, sources: Iterable[str]) -> dict[str, list[str]]:
        """Relationship id to the content hashes of its current edges.

        More than one hash for an id is a duplicate left by an interrupted write.
        """
        found: dict[str, list[str]] = {}
        for part in _batches(list(dict.fromkeys(sources)), LOOKUP_BATCH):
            for row in self.submit(
                self.scripts.current_edges_from,
                {"bIds": part, "bCurrent": NOT_RETIRED},
                "read current relationships",
            ):
                found.setdefault(row["rid"], []).append(row["h"])
        return found

    def upsert_vertices(self, vertices: Sequence[tuple[str, str]]) -> None:
        """Create the missing ``(id, kind)`` vertices (idempotent)."""
        self._parallel(
            [
                (self.scripts.upsert_vertex, {"bVid": vid, "bKind": kind}, f"write vertex {vid!r}")
                for vid, kind in vertices
            ]
        )

    def write_edges(
        self,
        added: Sequence[Relationship],
        retired: Sequence[Relationship],
        duplicated: Sequence[Relationship],
        stamp: datetime,
    ) -> None:
        """Retire changed edges, drop duplicates, then add the new versions.

        A retired edge is kept, with ``xa`` set and ``@stamp`` on its id, so ``known_at`` sees it.
        """
        marker = stamp.isoformat()
        self._parallel(
            [
                (
                    self.scripts.retire_edge,
                    {
                        "bSid": e.source,
                        "bEtype": e.type,
                        "bRid": e.id,
                        "bCurrent": NOT_RETIRED,
                        "bStamp": encode_instant(stamp),
                        "bRetiredRid": f"{e.id}@{marker}",
                    },
                    f"retire relationship {e.id!r}",
                )
                for e in retired
            ]
            + [
                (
                    self.scripts.drop_current_edge,
                    {"bSid": e.source, "bEtype": e.type, "bRid": e.id, "bCurrent": NOT_RETIRED},
                    f"drop duplicate relationship {e.id!r}",
                )
                for e in duplicated
            ]
        )
        results = self._parallel(
            [(self.scripts.add_edge, edge_bindings(e), f"write relationship {e.id!r}") for e in added]
        )
        for edge, result in zip(added, results, strict=True):
            if not result or result[0] != 1:
                raise StoreError(f"Gremlin: relationship {edge.id!r} names a vertex the graph does not have")

    def _parallel(self, requests: list[tuple[str, dict[str, Any], str]]) -> list[list[Any]]:
        if not requests:
            return []
        workers = max(1, min(self.settings.write_concurrency, len(requests)))
        if workers == 1:
            return [self.submit(*r) for r in requests]
        with ThreadPoolExecutor(workers, thread_name_prefix="gremlin-write") as pool:
            return list(pool.map(lambda r: self.submit(*r), requests))


def _batches(items: list[str], size: int) -> Iterable[list[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]

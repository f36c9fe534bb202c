"""The bitemporal graph on Cosmos DB for Apache Gremlin (or any Apache TinkerPop Gremlin Server).

``GremlinGraph`` sends only the fixed scripts of ``gremlin_scripts``, every value a binding,
over one client pool: edges touching a set of vertices (filtered in time on the server),
traversal one batched request per hop, and the writes ``AzureStore.apply`` makes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from datetime import datetime
from typing import Any

from groundgate.errors import ConfigError, StoreError
from groundgate.knowledge.azure.gremlin_scripts import (
    NOT_RETIRED,
    Scripts,
    edge_bindings,
    encode_instant,
    relationship_from,
)
from groundgate.knowledge.azure.retry import RETRY_STATUSES, Retrier, Retryable, parse_retry_after
from groundgate.knowledge.azure.settings import AzureSettings
from groundgate.knowledge.model import Relationship, TraversalPath
from groundgate.knowledge.port import CURRENT_EDGES, EdgeFilter, PathQuery
from groundgate.knowledge.traversal import walk

__all__ = ["GremlinGraph"]

LOOKUP_BATCH = 100
"""Vertex ids per ``within(...)`` lookup."""


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
        self, entity_ids: Sequence[str], edges: EdgeFilter = CURRENT_EDGES
    ) -> list[Relationship]:
        """Edges touching any of ``entity_ids``, filtered server-side, ordered as the port says."""
        types, as_of, known_at = edges.types, edges.as_of, edges.known_at
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
                edge = relationship_from(row["e"], row["s"], row["t"])
                found[(edge.id, edge.recorded_at.isoformat())] = edge
        return sorted(found.values(), key=lambda e: (e.valid_from.isoformat() if e.valid_from else "", e.id))


    def traverse(self, query: PathQuery) -> list[TraversalPath]:
        """Breadth-first simple paths of 1..hops edges, one batched request per hop.

        The hop bound is held by ``PathQuery`` before any request; the type and time filters
        run on the server. Walking level by level keeps the order (and so what ``limit``
        cuts) the same as every other backend's.
        """
        def edges_of(tails: Sequence[str]) -> dict[str, list[Relationship]]:
            touching: dict[str, list[Relationship]] = {tail: [] for tail in tails}
            for edge in self.edges_touching(tails, query.edges):
                for end in {edge.source, edge.target}:
                    if end in touching:
                        touching[end].append(edge)
            return touching

        return walk(
            query.start,
            hops=query.hops,
            limit=query.limit,
            edges_of=edges_of,
            other_end=lambda edge, tail: edge.target if edge.source == tail else edge.source,
            as_relationship=lambda edge: edge,
            per_hop=True,
        )


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

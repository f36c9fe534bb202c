"""The system of record on Azure Cosmos DB for NoSQL.

Documents, entities, names, contradictions, the entity-resolution log and the ingest manifest.

Containers and partition keys (chosen by how each is read):

| container        | partition key | read by                                              |
| ---------------- | ------------- | ---------------------------------------------------- |
| ``documents``    | ``/id``       | id (single partition), entity id (``ARRAY_CONTAINS``) |
| ``entities``     | ``/id``       | id (single partition), all (resolution, audits)       |
| ``names``        | ``/name``     | a normalised name or alias: one partition per lookup  |
| ``contradictions`` | ``/id``     | status (small register, read whole)                   |
| ``resolution_log`` | ``/ingest`` | an ingest's decisions live together, in ``seq`` order |
| ``meta``         | ``/id``       | the ingest manifest                                   |

Every read is a parameterised query (values as ``@parameters``, never in the SQL text);
queries on ``c.id`` are routed to one partition by the service's query plan. Throttling (429)
and unavailability (503) are retried here with backoff honouring ``x-ms-retry-after-ms``; the
SDK's own throttle retries are switched off so there is one policy, and one place to test it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

from groundgate.errors import ConfigError
from groundgate.knowledge.azure.retry import RETRY_STATUSES, Retrier, Retryable, parse_retry_after
from groundgate.knowledge.azure.settings import AzureSettings
from groundgate.knowledge.model import Contradiction, Document, Entity, ResolutionDecision

__all__ = ["CONTAINERS", "CosmosRecords", "cosmos_id"]

CONTAINERS: dict[str, str] = {
    "documents": "/id",
    "entities": "/id",
    "names": "/name",
    "contradictions": "/id",
    "resolution_log": "/ingest",
    "meta": "/id",
}
"""Container name to partition-key path."""

LOOKUP_BATCH = 100
"""Ids per ``ARRAY_CONTAINS(@ids, c.id)`` query."""

_FORBIDDEN = {"%": "%25", "/": "%2F", "\\": "%5C", "?": "%3F", "#": "%23"}


def cosmos_id(key: str) -> str:
    """``key`` as a Cosmos item id: the characters Cosmos forbids in ids are percent-escaped."""
    return "".join(_FORBIDDEN.get(ch, ch) for ch in key)


def _classify(exc: BaseException) -> Retryable | None:
    status = getattr(exc, "status_code", None)
    if status in RETRY_STATUSES:
        headers = getattr(exc, "headers", None) or {}
        return Retryable(
            int(status),
            parse_retry_after(ms=headers.get("x-ms-retry-after-ms"), seconds=headers.get("Retry-After")),
        )
    return None


class CosmosRecords:
    """Typed reads and writes of the system of record.

    ``transport`` (an ``azure.core`` ``HttpTransport``) replaces the SDK's HTTP layer: tests
    inject faults through it.
    """

    def __init__(
        self,
        settings: AzureSettings,
        *,
        transport: Any = None,
        credential: Any = None,
        sleep: Callable[[float], None] | None = None,
    ) -> None:
        self.settings = settings
        self._transport = transport
        self._credential = credential
        self._client: Any = None
        self._containers: dict[str, Any] = {}
        self._lock = threading.RLock()
        kwargs = {"sleep": sleep} if sleep else {}
        self.retrier = Retrier(settings.retry, _classify, service="Cosmos DB", **kwargs)

    # ---- the client --------------------------------------------------------------------

    def _cosmos(self) -> Any:
        with self._lock:  # tool calls run in parallel: build the client once
            return self._client or self._connect()

    def _connect(self) -> Any:
        if self._client is None:
            try:
                from azure.cosmos import CosmosClient, documents
            except ImportError as exc:  # pragma: no cover - the azure extra is missing
                raise ConfigError(
                    "the Azure backend needs the 'azure' extra: pip install 'groundgate[azure]'"
                ) from exc
            policy = documents.ConnectionPolicy()
            # One retry policy (ours, below), not two stacked: the SDK's throttle retries are off.
            policy.RetryOptions = type(policy.RetryOptions)(max_retry_attempt_count=0)
            policy.RequestTimeout = int(self.settings.timeout_s)
            if self.settings.cosmos_ca_file is not None:
                ssl = documents.SSLConfiguration()
                ssl.SSLCaCerts = str(self.settings.cosmos_ca_file)
                policy.SSLConfiguration = ssl
            kwargs: dict[str, Any] = {
                "connection_policy": policy,
                "connection_timeout": self.settings.timeout_s,
            }
            if self._transport is not None:
                kwargs["transport"] = self._transport
            self._client = CosmosClient(
                self.settings.cosmos_endpoint, credential=self._credential_value(), **kwargs
            )
        return self._client

    def _credential_value(self) -> Any:
        if self._credential is not None:
            return self._credential
        if self.settings.cosmos_key:
            return self.settings.cosmos_key
        from azure.identity import DefaultAzureCredential

        return DefaultAzureCredential()

    def _container(self, name: str) -> Any:
        with self._lock:
            if name not in self._containers:
                database = self._cosmos().get_database_client(self.settings.cosmos_database)
                self._containers[name] = database.get_container_client(name)
            return self._containers[name]

    def close(self) -> None:
        """Release the HTTP session."""
        if self._client is not None:
            self._client.close()
            self._client = None
            self._containers.clear()

    # ---- provisioning ------------------------------------------------------------------

    def provision(self) -> list[str]:
        """Create the database and containers if missing (idempotent). Returns what exists."""
        from azure.cosmos import PartitionKey

        database = self.retrier.run(
            lambda: self._cosmos().create_database_if_not_exists(self.settings.cosmos_database),
            "create the database",
        )
        made = [f"database {self.settings.cosmos_database}"]
        for name, path in CONTAINERS.items():
            self.retrier.run(
                partial(database.create_container_if_not_exists, name, partition_key=PartitionKey(path=path)),
                f"create container {name}",
            )
            made.append(f"container {name} (partition key {path})")
        return made

    def drop_database(self) -> None:
        """Delete the whole database (tests and teardown only)."""
        self.retrier.run(
            lambda: self._cosmos().delete_database(self.settings.cosmos_database), "delete the database"
        )
        self._containers.clear()

    # ---- reading -----------------------------------------------------------------------

    def query(
        self, container: str, sql: str, parameters: Sequence[tuple[str, Any]] = (), *, what: str
    ) -> list[dict[str, Any]]:
        """A parameterised query over ``container``, all pages, retried on 429/503."""
        params = [{"name": name, "value": value} for name, value in parameters]
        return self.retrier.run(
            lambda: list(
                self._container(container).query_items(
                    sql, parameters=params, enable_cross_partition_query=True
                )
            ),
            what,
        )

    def _by_ids(self, container: str, keys: Iterable[str], what: str) -> list[dict[str, Any]]:
        ids = list(dict.fromkeys(cosmos_id(k) for k in keys))
        rows: list[dict[str, Any]] = []
        for start in range(0, len(ids), LOOKUP_BATCH):
            rows += self.query(
                container,
                "SELECT * FROM c WHERE ARRAY_CONTAINS(@ids, c.id)",
                [("@ids", ids[start : start + LOOKUP_BATCH])],
                what=what,
            )
        return rows

    def document(self, doc_id: str) -> Document | None:
        """One document by id."""
        rows = self.query(
            "documents",
            "SELECT * FROM c WHERE c.id = @id",
            [("@id", cosmos_id(doc_id))],
            what="read a document",
        )
        return Document.model_validate(rows[0]["doc"]) if rows else None

    def documents(self, doc_ids: Iterable[str]) -> list[Document]:
        """The documents among ``doc_ids`` that exist."""
        return [
            Document.model_validate(r["doc"]) for r in self._by_ids("documents", doc_ids, "read documents")
        ]

    def documents_declaring(self, entity_id: str) -> list[Document]:
        """Documents whose front matter names ``entity_id``."""
        rows = self.query(
            "documents",
            "SELECT * FROM c WHERE ARRAY_CONTAINS(c.entity_ids, @eid)",
            [("@eid", entity_id)],
            what="read documents about an entity",
        )
        return [Document.model_validate(r["doc"]) for r in rows]

    def document_state(self, doc_ids: Iterable[str]) -> dict[str, tuple[str, list[str]]]:
        """Document id to (content hash, chunk ids) for those that exist."""
        return {
            r["doc_id"]: (r["hash"], list(r.get("chunk_ids") or []))
            for r in self._by_ids("documents", doc_ids, "read document hashes")
        }

    def entity(self, entity_id: str) -> Entity | None:
        """One entity by id."""
        rows = self.query(
            "entities",
            "SELECT * FROM c WHERE c.id = @id",
            [("@id", cosmos_id(entity_id))],
            what="read an entity",
        )
        return Entity.model_validate(rows[0]["entity"]) if rows else None

    def entity_state(self, entity_ids: Iterable[str]) -> dict[str, tuple[str, list[str]]]:
        """Entity id to (content hash, names) for those that exist."""
        return {
            r["entity_id"]: (r["hash"], list(r.get("names") or []))
            for r in self._by_ids("entities", entity_ids, "read entity hashes")
        }

    def entities(self, entity_ids: Iterable[str]) -> list[Entity]:
        """The entities among ``entity_ids`` that exist."""
        return [
            Entity.model_validate(r["entity"]) for r in self._by_ids("entities", entity_ids, "read entities")
        ]

    def all_entities(self) -> list[Entity]:
        """Every entity, by id."""
        rows = self.query("entities", "SELECT * FROM c", what="read every entity")
        return sorted((Entity.model_validate(r["entity"]) for r in rows), key=lambda e: e.id)

    def entity_ids_named(self, name: str) -> list[str]:
        """Ids of the entities whose normalised id, name or alias is ``name`` (one partition)."""
        rows = self.query(
            "names",
            "SELECT c.entity_id FROM c WHERE c.name = @name",
            [("@name", name)],
            what="look up a name",
        )
        return sorted({r["entity_id"] for r in rows})

    def contradictions(self, status: str | None) -> list[Contradiction]:
        """Register entries of ``status`` (every entry for ``None``), by id."""
        if status:
            rows = self.query(
                "contradictions",
                "SELECT * FROM c WHERE c.status = @status",
                [("@status", status)],
                what="read contradictions",
            )
        else:
            rows = self.query("contradictions", "SELECT * FROM c", what="read contradictions")
        return sorted((Contradiction.model_validate(r["entry"]) for r in rows), key=lambda c: c.id)

    def contradiction_origins(self, ids: Iterable[str]) -> dict[str, str]:
        """Contradiction id to origin, for those that exist."""
        return {
            r["entry"]["id"]: r["origin"] for r in self._by_ids("contradictions", ids, "read contradictions")
        }

    def resolution_log(self) -> list[ResolutionDecision]:
        """Every logged decision, by ingest then order within it."""
        rows = self.query("resolution_log", "SELECT * FROM c", what="read the resolution log")
        rows.sort(key=lambda r: (r["ingest"], r["seq"]))
        return [ResolutionDecision.model_validate(r["decision"]) for r in rows]

    def manifest(self) -> dict[str, Any] | None:
        """The ingest manifest, if any ingest ever started."""
        rows = self.query(
            "meta", "SELECT * FROM c WHERE c.id = @id", [("@id", "ingest")], what="read the manifest"
        )
        return rows[0] if rows else None

    # ---- writing -----------------------------------------------------------------------

    def upsert(self, container: str, items: Sequence[dict[str, Any]], what: str) -> None:
        """Upsert ``items`` (idempotent, so safe to retry), a few at a time."""
        if not items:
            return

        def one(item: dict[str, Any]) -> None:
            self.retrier.run(lambda: self._container(container).upsert_item(item), f"{what} {item['id']!r}")

        self._parallel(one, items)

    def delete(self, container: str, keys: Sequence[tuple[str, str]], what: str) -> None:
        """Delete ``(item id, partition key value)`` pairs; already gone is fine."""
        if not keys:
            return

        def one(key: tuple[str, str]) -> None:
            def attempt() -> None:
                try:
                    self._container(container).delete_item(key[0], partition_key=key[1])
                except Exception as exc:
                    if getattr(exc, "status_code", None) != 404:
                        raise

            self.retrier.run(attempt, f"{what} {key[0]!r}")

        self._parallel(one, keys)

    def _parallel(self, fn: Callable[[Any], None], items: Sequence[Any]) -> None:
        workers = max(1, min(self.settings.write_concurrency, len(items)))
        if workers == 1:
            for item in items:
                fn(item)
            return
        with ThreadPoolExecutor(workers, thread_name_prefix="cosmos-write") as pool:
            list(pool.map(fn, items))

"""Evidence and knowledge search on Azure AI Search (azure-search-documents).

``SearchAdapter`` owns the two indexes (``search_indexes``): it provisions them, uploads
chunks and entities in batches, and runs the queries ``search_query`` builds. Queries are
hybrid when a query vector is given (text and vector fused by the service), filtered by
validity (``as_of``) and kind; semantic reranking when a configuration is named in the
settings.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from datetime import date
from functools import partial
from typing import Any

from groundgate.errors import ConfigError, StoreError
from groundgate.knowledge.azure.retry import Retrier
from groundgate.knowledge.azure.search_indexes import (
    SCORING_PROFILE,
    evidence_index,
    knowledge_index,
    search_key,
)
from groundgate.knowledge.azure.search_query import (
    EVIDENCE_SELECT,
    evidence_hits,
    knowledge_hits,
    odata_day,
    odata_filter,
    search_text,
)
from groundgate.knowledge.azure.settings import AzureSettings
from groundgate.knowledge.model import Chunk, Document, Entity, EvidenceHit, KnowledgeHit
from groundgate.knowledge.port import EvidenceQuery, KnowledgeQuery

__all__ = ["SearchAdapter"]

UPLOAD_BATCH = 500
"""Index actions per request (the service takes at most 1000 or 16 MB)."""


def _stamp(day: date | None) -> str | None:
    return odata_day(day) if day else None


def _no_retry(exc: BaseException) -> None:
    return None  # azure-core's RetryPolicy already retried 429/503 honouring retry-after


class SearchAdapter:
    """The two indexes: provisioning, bulk upload, hybrid queries.

    ``transport`` (an ``azure.core`` ``HttpTransport``) replaces the SDK's HTTP layer: tests
    check the exact requests through it, or serve them from the labelled local fake.
    """

    def __init__(
        self,
        settings: AzureSettings,
        *,
        transport: Any = None,
        credential: Any = None,
    ) -> None:
        self.settings = settings
        self.evidence_name = f"{settings.search_index_prefix}-evidence"
        self.knowledge_name = f"{settings.search_index_prefix}-knowledge"
        self._transport = transport
        self._credential = credential
        self._clients: dict[str, Any] = {}
        self._lock = threading.Lock()
        self.retrier = Retrier(settings.retry, _no_retry, service="AI Search")

    # ---- clients ---------------------------------------------------------------------

    def _kwargs(self) -> dict[str, Any]:
        retry = self.settings.retry
        kwargs: dict[str, Any] = {
            "api_version": self.settings.search_api_version,
            "connection_timeout": self.settings.timeout_s,
            "read_timeout": self.settings.timeout_s,
            "retry_total": max(0, retry.attempts - 1),
            "retry_backoff_factor": retry.base_delay_s,
            "retry_backoff_max": retry.max_delay_s,
        }
        if self._transport is not None:
            kwargs["transport"] = self._transport
        return kwargs

    def _credential_value(self) -> Any:
        if self._credential is not None:
            return self._credential
        if self.settings.search_key:
            from azure.core.credentials import AzureKeyCredential

            return AzureKeyCredential(self.settings.search_key)
        from azure.identity import DefaultAzureCredential

        return DefaultAzureCredential()

    def _client(self, index: str) -> Any:
        with self._lock:
            return self._clients.get(index) or self._new_client(index)

    def _new_client(self, index: str) -> Any:
        if index not in self._clients:
            try:
                from azure.search.documents import SearchClient
            except ImportError as exc:  # pragma: no cover - the azure extra is missing
                raise ConfigError(
                    "the Azure backend needs the 'azure' extra: pip install 'groundgate[azure]'"
                ) from exc
            self._clients[index] = SearchClient(
                self.settings.search_endpoint, index, self._credential_value(), **self._kwargs()
            )
        return self._clients[index]

    def close(self) -> None:
        """Release the HTTP sessions."""
        for client in self._clients.values():
            client.close()
        self._clients.clear()

    # ---- provisioning ----------------------------------------------------------------

    def provision(self) -> list[str]:
        """Create or update both indexes (idempotent). Returns what exists."""
        from azure.search.documents.indexes import SearchIndexClient
        from azure.search.documents.indexes.models import SearchIndex

        definitions = [
            evidence_index(self.evidence_name, self.settings.vector_dimensions),
            knowledge_index(self.knowledge_name),
        ]
        with SearchIndexClient(
            self.settings.search_endpoint, self._credential_value(), **self._kwargs()
        ) as admin:
            for definition in definitions:
                self.retrier.run(
                    partial(admin.create_or_update_index, SearchIndex(definition)),
                    f"create index {definition['name']}",
                )
        return [f"index {d['name']}" for d in definitions]

    # ---- writing ---------------------------------------------------------------------

    def _index(self, index: str, actions: list[dict[str, Any]], what: str) -> None:
        client = self._client(index)
        for start in range(0, len(actions), UPLOAD_BATCH):
            part = actions[start : start + UPLOAD_BATCH]
            results = self.retrier.run(partial(client.index_documents, _batch(part)), what)
            failed = [r for r in results if not r.succeeded]
            if failed:
                first = failed[0]
                raise StoreError(
                    f"AI Search: {what}: {len(failed)} of {len(part)} records rejected "
                    f"(first: status {first.status_code}, {first.error_message})"
                )

    def upload_chunks(
        self, document: Document, chunks: Sequence[Chunk], vectors: dict[str, list[float]]
    ) -> list[dict[str, Any]]:
        """The upload actions for one document's chunks (sent by ``flush``)."""
        actions = []
        for chunk in chunks:
            record: dict[str, Any] = {
                "@search.action": "mergeOrUpload",
                "key": search_key(chunk.id),
                "chunk_id": chunk.id,
                "doc_id": document.id,
                "ordinal": chunk.ordinal,
                "title": document.title,
                "heading": chunk.heading,
                "text": chunk.text,
                "kind": document.kind,
                "effective_from": _stamp(document.effective_from),
                "effective_to": _stamp(document.effective_to),
                "published_at": _stamp(document.published_at),
            }
            vector = vectors.get(chunk.id)
            if vector is not None:
                if len(vector) != self.settings.vector_dimensions:
                    raise ConfigError(
                        f"the embedder gives {len(vector)} dimensions but the evidence index holds "
                        f"{self.settings.vector_dimensions}; set GROUNDGATE_AZURE_VECTOR_DIMENSIONS "
                        "and provision"
                    )
                record["vector"] = list(vector)
            actions.append(record)
        return actions

    def write(
        self, chunk_actions: list[dict[str, Any]], stale_chunk_ids: Sequence[str], entities: Sequence[Entity]
    ) -> None:
        """Upload chunks, delete chunks that no longer exist, upload entities."""
        deletes = [{"@search.action": "delete", "key": search_key(cid)} for cid in stale_chunk_ids]
        if chunk_actions or deletes:
            self._index(self.evidence_name, [*deletes, *chunk_actions], "upload evidence")
        if entities:
            self._index(
                self.knowledge_name,
                [
                    {
                        "@search.action": "mergeOrUpload",
                        "key": search_key(e.id),
                        "entity_id": e.id,
                        "kind": e.kind,
                        "name": e.name,
                        "aliases": list(e.aliases),
                        "description": e.description,
                        "entity_json": json.dumps(e.model_dump(mode="json")),
                    }
                    for e in entities
                ],
                "upload knowledge",
            )

    # ---- querying --------------------------------------------------------------------

    def _search(self, index: str, what: str, **kwargs: Any) -> list[dict[str, Any]]:
        client = self._client(index)
        return self.retrier.run(lambda: list(client.search(**kwargs)), what)

    def _score(self, row: dict[str, Any]) -> float:
        if self.settings.semantic_configuration and row.get("@search.rerankerScore") is not None:
            return float(row["@search.rerankerScore"])
        return float(row.get("@search.score") or 0.0)


    def search_evidence(self, query: EvidenceQuery) -> list[EvidenceHit]:
        """Hybrid search over chunks, best first, scores normalised to 0..1."""
        text = search_text(query.text)
        vector = list(query.vector) if query.vector is not None else None
        if vector is not None and len(vector) != self.settings.vector_dimensions:
            vector = None  # as the embedded backend does: a vector of another size is ignored
        if text is None and vector is None:
            return []
        kwargs: dict[str, Any] = {
            "search_text": text,
            "search_mode": "any",
            "scoring_profile": SCORING_PROFILE,
            "select": EVIDENCE_SELECT,
            "top": query.top_k,
        }
        flt = odata_filter(as_of=query.as_of, kinds=query.kinds)
        if flt:
            kwargs["filter"] = flt
        if vector is not None:
            from azure.search.documents.models import VectorizedQuery

            kwargs["vector_queries"] = [
                VectorizedQuery(vector=vector, k_nearest_neighbors=min(query.top_k * 4, 200), fields="vector")
            ]
        if self.settings.semantic_configuration and text is not None:
            kwargs["query_type"] = "semantic"
            kwargs["semantic_configuration_name"] = self.settings.semantic_configuration
        rows = self._search(self.evidence_name, "search evidence", **kwargs)
        return evidence_hits(rows, self._score, query.text)

    def search_knowledge(self, query: KnowledgeQuery) -> list[KnowledgeHit]:
        """Keyword search over entity names, aliases and descriptions, best first."""
        text = search_text(query.text)
        if text is None:
            return []
        kwargs: dict[str, Any] = {
            "search_text": text,
            "search_mode": "any",
            "scoring_profile": SCORING_PROFILE,
            "select": ["entity_id", "entity_json"],
            "top": query.top_k,
        }
        flt = odata_filter(kinds=query.kinds)
        if flt:
            kwargs["filter"] = flt
        return knowledge_hits(self._search(self.knowledge_name, "search knowledge", **kwargs))


def _batch(actions: list[dict[str, Any]]) -> Any:
    from azure.search.documents import IndexDocumentsBatch

    batch = IndexDocumentsBatch()
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for action in actions:
        record = {k: v for k, v in action.items() if k != "@search.action"}
        by_kind.setdefault(action["@search.action"], []).append(record)
    # Order matters only between a delete and an upload of the same key, which never meet:
    # a chunk id is either stale or uploaded.
    if "delete" in by_kind:
        batch.add_delete_actions(by_kind["delete"])
    if "mergeOrUpload" in by_kind:
        batch.add_merge_or_upload_actions(by_kind["mergeOrUpload"])
    return batch

"""Evidence and knowledge search on Azure AI Search (azure-search-documents).

Two indexes, defined here as the documented REST JSON (so the definition is exactly what is
sent, whatever the SDK's model classes look like):

- ``<prefix>-evidence``: one record per chunk, keyword fields analysed with ``en.lucene``,
  the document's kind and validity denormalised as filterable fields, a vector field with an
  HNSW profile, a semantic configuration and a field-weighted scoring profile.
- ``<prefix>-knowledge``: one record per entity (name, aliases, description, kind), the entity
  itself kept whole in a retrievable, unsearchable field.

Queries are hybrid when a query vector is given (text and vector fused by the service), with
OData filters for validity (``as_of``) and kind; semantic reranking when a configuration is
named in the settings. Scores are normalised to 0..1, best = 1.0, as the port requires.
"""

from __future__ import annotations

import base64
import json
import threading
from collections.abc import Callable, Sequence
from datetime import date
from functools import partial
from typing import Any

from groundgate.errors import ConfigError, StoreError
from groundgate.knowledge.azure.retry import Retrier
from groundgate.knowledge.azure.settings import AzureSettings
from groundgate.knowledge.model import Chunk, Document, Entity, EvidenceHit, KnowledgeHit, Validity
from groundgate.knowledge.port import MAX_TOP_K
from groundgate.knowledge.text import content_terms, coverage
from groundgate.knowledge.weights import CHUNK_WEIGHTS, ENTITY_WEIGHTS

__all__ = [
    "HNSW_ALGORITHM",
    "SCORING_PROFILE",
    "SEMANTIC_CONFIGURATION",
    "VECTOR_PROFILE",
    "SearchAdapter",
    "evidence_index",
    "knowledge_index",
    "odata_filter",
    "search_key",
    "search_text",
]

MAX_QUERY_TERMS = 12
"""Keyword terms per query, as in the embedded backend."""

UPLOAD_BATCH = 500
"""Index actions per request (the service takes at most 1000 or 16 MB)."""

HNSW_ALGORITHM = "groundgate-hnsw"
VECTOR_PROFILE = "groundgate-vector"
SEMANTIC_CONFIGURATION = "groundgate-semantic"
SCORING_PROFILE = "groundgate-fields"

_EVIDENCE_SELECT = [
    "chunk_id",
    "doc_id",
    "title",
    "kind",
    "heading",
    "text",
    "effective_from",
    "effective_to",
]


def search_key(record_id: str) -> str:
    """A record id as an index key (keys allow only letters, digits, ``-``, ``_`` and ``=``)."""
    return base64.urlsafe_b64encode(record_id.encode()).decode()


def evidence_index(name: str, dimensions: int) -> dict[str, Any]:
    """The evidence index definition (REST shape)."""
    text = {
        "type": "Edm.String",
        "searchable": True,
        "filterable": False,
        "retrievable": True,
        "analyzer": "en.lucene",
    }
    stamp = {"type": "Edm.DateTimeOffset", "filterable": True, "sortable": True, "retrievable": True}
    return {
        "name": name,
        "fields": [
            {"name": "key", "type": "Edm.String", "key": True, "filterable": True, "retrievable": True},
            {"name": "chunk_id", "type": "Edm.String", "filterable": True, "retrievable": True},
            {"name": "doc_id", "type": "Edm.String", "filterable": True, "retrievable": True},
            {
                "name": "ordinal",
                "type": "Edm.Int32",
                "filterable": False,
                "sortable": True,
                "retrievable": True,
            },
            {"name": "title", **text},
            {"name": "heading", **text},
            {"name": "text", **text},
            {
                "name": "kind",
                "type": "Edm.String",
                "filterable": True,
                "facetable": True,
                "retrievable": True,
            },
            {"name": "effective_from", **stamp},
            {"name": "effective_to", **stamp},
            {"name": "published_at", **stamp},
            {
                "name": "vector",
                "type": "Collection(Edm.Single)",
                "searchable": True,
                "retrievable": False,
                "dimensions": dimensions,
                "vectorSearchProfile": VECTOR_PROFILE,
            },
        ],
        "scoringProfiles": [
            {"name": SCORING_PROFILE, "text": {"weights": dict(CHUNK_WEIGHTS)}}
        ],
        "vectorSearch": {
            "algorithms": [
                {
                    "name": HNSW_ALGORITHM,
                    "kind": "hnsw",
                    "hnswParameters": {"m": 4, "efConstruction": 400, "efSearch": 500, "metric": "cosine"},
                }
            ],
            "profiles": [{"name": VECTOR_PROFILE, "algorithm": HNSW_ALGORITHM}],
        },
        "semantic": {
            "configurations": [
                {
                    "name": SEMANTIC_CONFIGURATION,
                    "prioritizedFields": {
                        "titleField": {"fieldName": "title"},
                        "prioritizedContentFields": [{"fieldName": "text"}],
                        "prioritizedKeywordsFields": [{"fieldName": "heading"}],
                    },
                }
            ]
        },
    }


def knowledge_index(name: str) -> dict[str, Any]:
    """The knowledge (entity) index definition (REST shape)."""
    text = {"type": "Edm.String", "searchable": True, "retrievable": True, "analyzer": "en.lucene"}
    return {
        "name": name,
        "fields": [
            {"name": "key", "type": "Edm.String", "key": True, "filterable": True, "retrievable": True},
            {"name": "entity_id", "type": "Edm.String", "filterable": True, "retrievable": True},
            {
                "name": "kind",
                "type": "Edm.String",
                "filterable": True,
                "facetable": True,
                "retrievable": True,
            },
            {"name": "name", **text},
            {
                "name": "aliases",
                "type": "Collection(Edm.String)",
                "searchable": True,
                "retrievable": True,
                "analyzer": "en.lucene",
            },
            {"name": "description", **text},
            {
                "name": "entity_json",
                "type": "Edm.String",
                "searchable": False,
                "filterable": False,
                "retrievable": True,
            },
        ],
        "scoringProfiles": [
            {"name": SCORING_PROFILE, "text": {"weights": dict(ENTITY_WEIGHTS)}}
        ],
    }


def search_text(query: str) -> str | None:
    """The query's content terms as quoted phrases; ``None`` when no term is left.

    In the simple syntax any phrase may match, and no character of the question can be read
    as an operator.
    """
    terms = content_terms(query, MAX_QUERY_TERMS)
    if not terms:
        return None
    return " ".join('"' + t.replace("\\", " ").replace('"', " ") + '"' for t in terms)


def _odata_string(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _odata_day(day: date) -> str:
    return f"{day.isoformat()}T00:00:00Z"


def odata_filter(*, as_of: date | None = None, kinds: Sequence[str] = ()) -> str | None:
    """The OData filter for validity on ``as_of`` and membership in ``kinds``; ``None`` if none."""
    clauses = []
    if as_of is not None:
        day = _odata_day(as_of)
        clauses.append(
            f"(effective_from eq null or effective_from le {day}) and "
            f"(effective_to eq null or effective_to gt {day}) and "
            f"(published_at eq null or published_at le {day})"
        )
    if kinds:
        clauses.append("(" + " or ".join(f"kind eq {_odata_string(k)}" for k in kinds) + ")")
    return " and ".join(clauses) if clauses else None


def _stamp(day: date | None) -> str | None:
    return _odata_day(day) if day else None


def _day(value: Any) -> date | None:
    return date.fromisoformat(str(value)[:10]) if value else None


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

    def search_evidence(
        self,
        query: str,
        *,
        top_k: int = 8,
        as_of: date | None = None,
        kinds: Sequence[str] = (),
        query_vector: Sequence[float] | None = None,
    ) -> list[EvidenceHit]:
        """Hybrid search over chunks, best first, scores normalised to 0..1."""
        top_k = max(1, min(top_k, MAX_TOP_K))
        text = search_text(query)
        vector = list(query_vector) if query_vector is not None else None
        if vector is not None and len(vector) != self.settings.vector_dimensions:
            vector = None  # as the embedded backend does: a vector of another size is ignored
        if text is None and vector is None:
            return []
        kwargs: dict[str, Any] = {
            "search_text": text,
            "search_mode": "any",
            "scoring_profile": SCORING_PROFILE,
            "select": _EVIDENCE_SELECT,
            "top": top_k,
        }
        flt = odata_filter(as_of=as_of, kinds=kinds)
        if flt:
            kwargs["filter"] = flt
        if vector is not None:
            from azure.search.documents.models import VectorizedQuery

            kwargs["vector_queries"] = [
                VectorizedQuery(vector=vector, k_nearest_neighbors=min(top_k * 4, 200), fields="vector")
            ]
        if self.settings.semantic_configuration and text is not None:
            kwargs["query_type"] = "semantic"
            kwargs["semantic_configuration_name"] = self.settings.semantic_configuration
        rows = self._search(self.evidence_name, "search evidence", **kwargs)
        return _evidence_hits(rows, self._score, query)

    def search_knowledge(
        self, query: str, *, top_k: int = 8, kinds: Sequence[str] = ()
    ) -> list[KnowledgeHit]:
        """Keyword search over entity names, aliases and descriptions, best first."""
        top_k = max(1, min(top_k, MAX_TOP_K))
        text = search_text(query)
        if text is None:
            return []
        kwargs: dict[str, Any] = {
            "search_text": text,
            "search_mode": "any",
            "scoring_profile": SCORING_PROFILE,
            "select": ["entity_id", "entity_json"],
            "top": top_k,
        }
        flt = odata_filter(kinds=kinds)
        if flt:
            kwargs["filter"] = flt
        rows = self._search(self.knowledge_name, "search knowledge", **kwargs)
        scored = sorted(
            ((float(r.get("@search.score") or 0.0), r) for r in rows),
            key=lambda pair: (-pair[0], pair[1]["entity_id"]),
        )
        scored = [(s, r) for s, r in scored if s > 0]
        if not scored:
            return []
        best = scored[0][0]
        return [
            KnowledgeHit(entity=Entity.model_validate(json.loads(r["entity_json"])), score=round(s / best, 4))
            for s, r in scored
        ]


def _evidence_hits(
    rows: list[dict[str, Any]], score: Callable[[dict[str, Any]], float], query: str
) -> list[EvidenceHit]:
    ranked = sorted(((score(r), r) for r in rows), key=lambda pair: -pair[0])
    ranked = [(s, r) for s, r in ranked if s > 0]
    if not ranked:
        return []
    best = ranked[0][0]
    terms = content_terms(query, MAX_QUERY_TERMS)
    hits = []
    for raw, row in ranked:
        normalised = round(raw / best, 4)
        if normalised <= 0.0:
            continue
        hits.append(
            EvidenceHit(
                chunk_id=row["chunk_id"],
                doc_id=row["doc_id"],
                title=row.get("title") or "",
                kind=row.get("kind") or "document",
                heading=row.get("heading") or "",
                text=row.get("text") or "",
                score=normalised,
                coverage=round(coverage(terms, f"{row.get('heading') or ''} {row.get('text') or ''}"), 4),
                validity=Validity(
                    valid_from=_day(row.get("effective_from")), valid_to=_day(row.get("effective_to"))
                ),
            )
        )
    return hits


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

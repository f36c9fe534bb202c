"""``AzureStore``: the knowledge ports over three managed services.

```
AzureStore
 ├── SearchAdapter   (AI Search)       search_evidence, search_knowledge
 ├── CosmosRecords   (Cosmos NoSQL)    documents, entities, names, contradictions, resolution log
 └── GremlinGraph    (Cosmos Gremlin)  relationships, traverse (bitemporal edges)
```

Three services share no transaction, so ``apply`` is convergent rather than atomic: it
marks an ingest manifest ``writing``, writes the search indexes, then the graph, then the
system of record (whose content hashes decide what later ingests skip), and marks the
manifest ``complete`` last. An apply that dies part-way leaves the manifest ``writing``;
the next apply sees that and rewrites everything instead of trusting the hashes, dropping
any duplicate edge the interrupted run left. Every write is an upsert or keyed, so
repeating one is harmless.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from groundgate.errors import StoreError
from groundgate.knowledge.azure.cosmos import CosmosRecords, cosmos_id
from groundgate.knowledge.azure.gremlin import GremlinGraph
from groundgate.knowledge.azure.gremlin_scripts import encode_instant
from groundgate.knowledge.azure.search import SearchAdapter
from groundgate.knowledge.azure.settings import ENV_NAMES, AzureSettings
from groundgate.knowledge.embed import Embedder
from groundgate.knowledge.facade import ReadFacade
from groundgate.knowledge.model import (
    Chunk,
    Contradiction,
    Document,
    Entity,
    EvidenceHit,
    KnowledgeHit,
    Relationship,
    ResolutionDecision,
    TraversalPath,
)
from groundgate.knowledge.port import (
    EdgeFilter,
    EvidenceQuery,
    IngestBatch,
    KnowledgeQuery,
    PathQuery,
    WriteReport,
)
from groundgate.knowledge.records import content_hash
from groundgate.knowledge.text import normalise

__all__ = ["AzureStore"]


def _entity_names(entity: Entity) -> list[str]:
    names = {entity.id.lower(), normalise(entity.name)}
    names |= {normalise(a) for a in entity.aliases}
    return sorted(n for n in names if n)


def _last_by_id(items: Sequence[Any]) -> list[Any]:
    return list({item.id: item for item in items}.values())


class AzureStore(ReadFacade):
    """The composite Azure backend: both knowledge ports.

    Build it with :meth:`from_settings`; call :meth:`provision` once (idempotent) before the
    first ingest. ``read_only_view()`` is what the agent gets.
    """

    def __init__(
        self, search: SearchAdapter, records: CosmosRecords, graph: GremlinGraph, *, read_only: bool = False
    ) -> None:
        self.search = search
        self.records = records
        self.graph = graph
        self.read_only = read_only

    @classmethod
    def from_settings(
        cls,
        settings: AzureSettings,
        *,
        search_transport: Any = None,
        cosmos_transport: Any = None,
        gremlin_client_factory: Callable[[], Any] | None = None,
        credential: Any = None,
        sleep: Callable[[float], None] | None = None,
        read_only: bool = False,
    ) -> AzureStore:
        """The store for ``settings``; no connection is made until the first call.

        The transports and client factory replace the SDKs' network layers (tests inject
        requests checks and faults there); ``credential`` overrides keys and Entra ID.
        """
        return cls(
            SearchAdapter(settings, transport=search_transport, credential=credential),
            CosmosRecords(settings, transport=cosmos_transport, credential=credential, sleep=sleep),
            GremlinGraph(settings, client_factory=gremlin_client_factory, sleep=sleep),
            read_only=read_only,
        )

    @classmethod
    def from_env(
        cls, env: Mapping[str, str], *, embedder: Embedder | None = None, dimensions: int | None = None
    ) -> AzureStore:
        """The store for ``GROUNDGATE_AZURE_*`` in ``env`` (what the CLI does).

        The vector field's size is ``dimensions``, else ``GROUNDGATE_AZURE_VECTOR_DIMENSIONS``,
        else the embedder's, else the settings' default.
        """
        settings = AzureSettings.from_env(env)
        if dimensions is None and not env.get(ENV_NAMES["vector_dimensions"]) and embedder is not None:
            dimensions = embedder.dimension
        if dimensions is not None:
            settings = settings.with_changes(vector_dimensions=dimensions)
        return cls.from_settings(settings)

    def read_only_view(self) -> AzureStore:
        """The same services, refusing writes."""
        return AzureStore(self.search, self.records, self.graph, read_only=True)

    def provision(self) -> list[str]:
        """Create indexes, database, containers (and check the graph); safe to repeat."""
        made = self.search.provision()
        made += self.records.provision()
        self.graph.check()
        made.append(f"graph at {self.graph.settings.gremlin_url} reachable")
        return made

    def close(self) -> None:
        """Close every client."""
        self.search.close()
        self.records.close()
        self.graph.close()

    def __str__(self) -> str:
        s = self.search.settings
        return (
            f"azure (search {s.search_endpoint}, cosmos {s.cosmos_endpoint} db {s.cosmos_database}, "
            f"gremlin {s.gremlin_url})"
        )

    # ---- evidence and knowledge search (AI Search) ---------------------------------------

    def _search_evidence(self, query: EvidenceQuery) -> list[EvidenceHit]:
        return self.search.search_evidence(query)

    def _search_knowledge(self, query: KnowledgeQuery) -> list[KnowledgeHit]:
        return self.search.search_knowledge(query)

    # ---- the system of record (Cosmos NoSQL) ---------------------------------------------

    def get_entity(self, entity_id: str) -> Entity | None:
        """The entity with this canonical id, or ``None``."""
        return self.records.entity(entity_id)

    def get_document(self, doc_id: str) -> Document | None:
        """The document with this id, or ``None``."""
        return self.records.document(doc_id)

    def find_entities(self, name: str) -> list[Entity]:
        """Entities whose id, name or an alias equals ``name`` (case-insensitive)."""
        ids = self.records.entity_ids_named(normalise(name))
        return sorted(self.records.entities(ids), key=lambda e: e.id) if ids else []

    def all_entities(self) -> list[Entity]:
        """Every entity, by id."""
        return self.records.all_entities()

    def _contradictions(self, status: str | None) -> list[Contradiction]:
        return self.records.contradictions(status)

    def documents_about(self, entity_id: str) -> list[Document]:
        """Documents that declare ``entity_id`` or that it cites, oldest effective first."""
        found = {d.id: d for d in self.records.documents_declaring(entity_id)}
        entity = self.records.entity(entity_id)
        if entity is not None and entity.source_ids:
            found.update({d.id: d for d in self.records.documents(entity.source_ids)})

        def order(doc: Document) -> tuple[str, str]:
            first = doc.effective_from or doc.published_at
            return (first.isoformat() if first else "", doc.id)

        return sorted(found.values(), key=order)

    def resolution_log(self) -> list[ResolutionDecision]:
        """Every logged entity-resolution decision, in order."""
        return self.records.resolution_log()

    # ---- the graph (Gremlin) -------------------------------------------------------------

    def _relationships(self, entity_id: str, edges: EdgeFilter) -> list[Relationship]:
        return self.graph.edges_touching([entity_id], edges)

    def _traverse(self, query: PathQuery) -> list[TraversalPath]:
        return self.graph.traverse(query)

    # ---- writing -------------------------------------------------------------------------

    def apply(self, batch: IngestBatch, *, now: datetime) -> WriteReport:
        """Write ``batch`` to the three services, convergently (see the module docstring)."""
        if self.read_only:
            raise StoreError("this knowledge store is open read-only")
        stamp = encode_instant(now)
        manifest = self.records.manifest()
        repair = manifest is not None and manifest.get("state") != "complete"
        self.records.upsert(
            "meta",
            [{"id": "ingest", "state": "writing", "started": stamp, "repairing": repair}],
            "mark the ingest",
        )

        documents = _last_by_id(batch.documents)
        entities = _last_by_id(batch.entities)
        edges = _last_by_id(batch.relationships)

        # What changed, judged by the content hashes in the system of record.
        doc_state = self.records.document_state([d.id for d in documents])
        chunks_by_doc: dict[str, list[Chunk]] = {}
        for chunk in batch.chunks:
            chunks_by_doc.setdefault(chunk.doc_id, []).append(chunk)
        changed_docs: list[tuple[Document, str]] = []
        stale_chunks: list[str] = []
        chunk_actions: list[dict[str, Any]] = []
        for doc in documents:
            digest = content_hash(doc)
            old_hash, old_chunks = doc_state.get(doc.id, (None, []))
            if old_hash == digest and not repair:
                continue
            changed_docs.append((doc, digest))
            fresh = chunks_by_doc.get(doc.id, [])
            chunk_actions += self.search.upload_chunks(doc, fresh, batch.vectors)
            keep = {c.id for c in fresh}
            stale_chunks += [cid for cid in old_chunks if cid not in keep]
        entity_state = self.records.entity_state([e.id for e in entities])
        changed_entities = [
            e for e in entities if repair or entity_state.get(e.id, (None, []))[0] != content_hash(e)
        ]

        # 1. the search indexes
        self.search.write(chunk_actions, stale_chunks, changed_entities)

        # 2. the graph: vertices for every entity and edge end, then edges
        kinds = {e.id: e.kind for e in entities}
        ends = list(dict.fromkeys([*kinds, *(x for e in edges for x in (e.source, e.target))]))
        have = self.graph.existing_vertices(ends)
        self.graph.upsert_vertices([(vid, kinds.get(vid, "")) for vid in ends if vid not in have])
        current = self.graph.current_edges_from({e.source for e in edges})
        added: list[Relationship] = []
        retired: list[Relationship] = []
        duplicated: list[Relationship] = []
        for edge in edges:
            hashes = current.get(edge.id, [])
            digest = content_hash(edge)
            if len(hashes) > 1:
                duplicated.append(edge)  # an interrupted write left two: keep one, the new one
            elif hashes == [digest]:
                continue
            elif hashes:
                retired.append(edge)
            added.append(edge)
        self.graph.write_edges(added, retired, duplicated, now)

        # 3. the system of record, hashes last
        self.records.upsert(
            "documents",
            [
                {
                    "id": cosmos_id(doc.id),
                    "doc_id": doc.id,
                    "doc": doc.model_dump(mode="json"),
                    "hash": digest,
                    "chunk_ids": [c.id for c in chunks_by_doc.get(doc.id, [])],
                    "entity_ids": list(doc.entity_ids),
                }
                for doc, digest in changed_docs
            ],
            "write document",
        )
        gone_names = [
            (cosmos_id(e.id), name)
            for e in changed_entities
            for name in entity_state.get(e.id, (None, []))[1]
            if name not in _entity_names(e)
        ]
        self.records.delete("names", gone_names, "delete name")
        self.records.upsert(
            "names",
            [
                {"id": cosmos_id(e.id), "name": name, "entity_id": e.id}
                for e in changed_entities
                for name in _entity_names(e)
            ],
            "write name",
        )
        self.records.upsert(
            "entities",
            [
                {
                    "id": cosmos_id(e.id),
                    "entity_id": e.id,
                    "entity": e.model_dump(mode="json"),
                    "hash": content_hash(e),
                    "names": _entity_names(e),
                }
                for e in changed_entities
            ],
            "write entity",
        )
        opened = self._write_contradictions(_last_by_id(batch.contradictions))
        self.records.upsert(
            "resolution_log",
            [
                {
                    "id": f"{stamp}:{seq:06d}",
                    "ingest": stamp,
                    "seq": seq,
                    "decision": d.model_dump(mode="json"),
                }
                for seq, d in enumerate(batch.resolution_log)
            ],
            "log resolution decision",
        )
        self.records.upsert(
            "meta",
            [
                {
                    "id": "ingest",
                    "state": "complete",
                    "started": stamp,
                    "finished": encode_instant(datetime.now(now.tzinfo)),
                }
            ],
            "mark the ingest",
        )
        return WriteReport(
            documents_written=len(changed_docs),
            documents_unchanged=len(documents) - len(changed_docs),
            chunks_written=sum(len(chunks_by_doc.get(d.id, [])) for d, _ in changed_docs),
            entities_written=len(changed_entities),
            relationships_written=len(added),
            relationships_retired=len(retired),
            contradictions_opened=opened,
        )

    def _write_contradictions(self, entries: list[Contradiction]) -> int:
        existing = self.records.contradiction_origins([c.id for c in entries])
        # A detected entry is never re-opened or closed by ingest; declared ones follow the corpus.
        write = [c for c in entries if not (c.id in existing and c.origin == "detected")]
        self.records.upsert(
            "contradictions",
            [
                {
                    "id": cosmos_id(c.id),
                    "status": c.status,
                    "origin": c.origin,
                    "entry": c.model_dump(mode="json"),
                }
                for c in write
            ],
            "write contradiction",
        )
        return sum(1 for c in entries if c.id not in existing)

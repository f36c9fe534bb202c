"""The ``KnowledgeStore`` port: the few typed operations every backend implements.

Tools and nodes speak only to this protocol. Richer operations that can be derived
from it (timelines, diffs) live beside it as pure functions (``timeline.py``,
``diff.py``), so every backend gets them for free.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Protocol, runtime_checkable

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

__all__ = ["IngestBatch", "KnowledgeStore", "MAX_HOPS", "MAX_TOP_K", "StreamingWriter", "WriteReport"]

MAX_TOP_K = 50
"""No search returns more than this many results."""

MAX_HOPS = 3
"""No traversal walks further than this."""


@dataclass
class IngestBatch:
    """Everything one ingest writes, applied in a single transaction."""

    documents: list[Document] = field(default_factory=list)
    chunks: list[Chunk] = field(default_factory=list)
    entities: list[Entity] = field(default_factory=list)
    relationships: list[Relationship] = field(default_factory=list)
    contradictions: list[Contradiction] = field(default_factory=list)
    resolution_log: list[ResolutionDecision] = field(default_factory=list)
    vectors: dict[str, list[float]] = field(default_factory=dict)
    """Chunk id to embedding, when an embedder is configured."""


@dataclass(frozen=True)
class WriteReport:
    """What an ``apply`` changed."""

    documents_written: int
    documents_unchanged: int
    chunks_written: int
    entities_written: int
    relationships_written: int
    relationships_retired: int
    contradictions_opened: int


@runtime_checkable
class KnowledgeStore(Protocol):
    """Read operations for the tools, plus one transactional write for ingest."""

    def search_evidence(
        self,
        query: str,
        *,
        top_k: int = 8,
        as_of: date | None = None,
        kinds: Sequence[str] = (),
        query_vector: Sequence[float] | None = None,
    ) -> list[EvidenceHit]:
        """Hybrid evidence search, best first, scores normalised to 0..1."""
        ...

    def search_knowledge(
        self, query: str, *, top_k: int = 8, kinds: Sequence[str] = ()
    ) -> list[KnowledgeHit]:
        """Search entities by name, aliases and description, best first."""
        ...

    def get_entity(self, entity_id: str) -> Entity | None:
        """The entity with this canonical id, or ``None``."""
        ...

    def get_document(self, doc_id: str) -> Document | None:
        """The document with this id, or ``None``."""
        ...

    def find_entities(self, name: str) -> list[Entity]:
        """Entities whose id, name or an alias equals ``name`` (case-insensitive)."""
        ...

    def all_entities(self) -> list[Entity]:
        """Every entity (for resolution by similarity and for audits)."""
        ...

    def relationships(
        self,
        entity_id: str,
        *,
        types: Sequence[str] = (),
        as_of: date | None = None,
        known_at: datetime | None = None,
    ) -> list[Relationship]:
        """Edges touching ``entity_id`` in either direction, filtered in time."""
        ...

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
        """Simple paths from ``start`` of 1..hops edges, shortest first."""
        ...

    def contradictions(
        self,
        *,
        entity_ids: Sequence[str] = (),
        topic: str | None = None,
        status: str | None = "open",
    ) -> list[Contradiction]:
        """Register entries touching any of ``entity_ids`` or matching ``topic``.

        With neither filter, every entry of that status.
        """
        ...

    def documents_about(self, entity_id: str) -> list[Document]:
        """Documents that declare ``entity_id`` in their front matter or cite it."""
        ...

    def resolution_log(self) -> list[ResolutionDecision]:
        """Every logged entity-resolution decision."""
        ...

    def apply(self, batch: IngestBatch, *, now: datetime) -> WriteReport:
        """Write a batch in one transaction; unchanged records stay untouched."""
        ...


@runtime_checkable
class StreamingWriter(Protocol):
    """A store that writes one ingest as a sequence of batches, in one transaction.

    ``ingest`` hands such a store its batches as it makes them, so that a large corpus is
    never in memory whole; any other store gets them merged into one ``apply``.
    """

    def apply_parts(self, parts: Iterable[IngestBatch], *, now: datetime) -> WriteReport:
        """Write each batch of ``parts`` in order, all in one transaction.

        A part is taken from ``parts`` only once the one before it is written; an error
        while ``parts`` is iterated rolls everything back.
        """
        ...

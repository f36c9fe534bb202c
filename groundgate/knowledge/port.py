"""The knowledge ports: what the tools read, and what ingest writes.

```
KnowledgeStore   the read port: eleven lookups and searches, all a tool or policy may call
KnowledgeWriter  the write port: ``apply``, one ingest's batch in one transaction
StreamingWriter  a writer that takes one ingest as a sequence of batches
WritableStore    both ports: what ``ingest`` plans against and writes into
```

Every backend implements both ports; the agent is handed only the read port (and a
store opened read-only behind it). A backend usually gets the read port's keyword methods
from ``knowledge.facade.ReadFacade``, which normalises their arguments into the typed
queries below (``EvidenceQuery``, ``KnowledgeQuery``, ``EdgeFilter``, ``PathQuery``) once,
for every backend. Richer operations derived from the read port (timelines, diffs) are pure
functions beside it (``timeline.py``, ``diff.py``), so every backend gets them for free.
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

__all__ = [
    "CURRENT_EDGES",
    "MAX_HOPS",
    "MAX_TOP_K",
    "EdgeFilter",
    "EvidenceQuery",
    "IngestBatch",
    "KnowledgeQuery",
    "KnowledgeStore",
    "KnowledgeWriter",
    "PathQuery",
    "StreamingWriter",
    "WritableStore",
    "WriteReport",
]

MAX_TOP_K = 50
"""No search returns more than this many results."""

MAX_HOPS = 3
"""No traversal walks further than this."""


def _bounded(value: int, most: int) -> int:
    return max(1, min(value, most))


@dataclass(frozen=True)
class EvidenceQuery:
    """One evidence search; ``top_k`` is held to 1..``MAX_TOP_K`` when it is made."""

    text: str
    top_k: int = 8
    as_of: date | None = None
    """Only passages of documents in effect on this day."""
    kinds: tuple[str, ...] = ()
    """Only documents of these kinds (any kind when empty)."""
    vector: Sequence[float] | None = None
    """The query's embedding, fused with the keyword ranking when given."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "top_k", _bounded(self.top_k, MAX_TOP_K))
        object.__setattr__(self, "kinds", tuple(self.kinds))


@dataclass(frozen=True)
class KnowledgeQuery:
    """One entity search; ``top_k`` is held to 1..``MAX_TOP_K`` when it is made."""

    text: str
    top_k: int = 8
    kinds: tuple[str, ...] = ()
    """Only entities of these kinds (any kind when empty)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "top_k", _bounded(self.top_k, MAX_TOP_K))
        object.__setattr__(self, "kinds", tuple(self.kinds))


@dataclass(frozen=True)
class EdgeFilter:
    """Which edges count: of these types, valid on ``as_of``, as recorded at ``known_at``."""

    types: tuple[str, ...] = ()
    """Relationship types (any type when empty)."""
    as_of: date | None = None
    """Only edges valid on this day (validity time)."""
    known_at: datetime | None = None
    """Edges as recorded at this moment (transaction time); current edges when ``None``."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "types", tuple(self.types))


CURRENT_EDGES = EdgeFilter()
"""Every current edge, of any type, valid at any time."""


@dataclass(frozen=True)
class PathQuery:
    """One traversal; ``hops`` is held to 1..``MAX_HOPS`` when it is made."""

    start: str
    hops: int = 2
    limit: int = 50
    """How many paths at most, shortest first."""
    edges: EdgeFilter = CURRENT_EDGES
    """Which edges a path may walk."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "hops", _bounded(self.hops, MAX_HOPS))


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
    """The read port: every operation the tools, the policies and the lanes use."""

    def search_evidence(
        self,
        query: str,
        *,
        top_k: int = 8,
        as_of: date | None = None,
        kinds: Sequence[str] = (),
        query_vector: Sequence[float] | None = None,
    ) -> list[EvidenceHit]:
        """Hybrid evidence search, best first, scores normalised to 0..1.

        Keyword ranking, fused with vector similarity when ``query_vector`` is given;
        ``top_k`` is held to 1..``MAX_TOP_K``, and a vector of another size is ignored.
        """
        ...

    def search_knowledge(
        self, query: str, *, top_k: int = 8, kinds: Sequence[str] = ()
    ) -> list[KnowledgeHit]:
        """Search entities by name, aliases and description, best first, scores 0..1."""
        ...

    def get_entity(self, entity_id: str) -> Entity | None:
        """The entity with this canonical id, or ``None``."""
        ...

    def get_document(self, doc_id: str) -> Document | None:
        """The document with this id, or ``None``."""
        ...

    def find_entities(self, name: str) -> list[Entity]:
        """Entities whose id, name or an alias equals ``name`` (case-insensitive), by id."""
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
        """Edges touching ``entity_id`` in either direction, filtered in time (see ``EdgeFilter``).

        Ordered by the start of validity (open starts first), then by id.
        """
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
        """Simple paths from ``start`` of 1..hops edges, breadth first, at most ``limit``.

        ``hops`` is held to 1..``MAX_HOPS``; the edges are filtered as ``relationships`` does.
        """
        ...

    def contradictions(
        self,
        *,
        entity_ids: Sequence[str] = (),
        topic: str | None = None,
        status: str | None = "open",
    ) -> list[Contradiction]:
        """Register entries touching any of ``entity_ids`` or whose topic matches ``topic``.

        With neither filter, every entry of that status (every entry when ``status`` is
        ``None``); see ``knowledge.register.select_entries``.
        """
        ...

    def documents_about(self, entity_id: str) -> list[Document]:
        """Documents that declare ``entity_id`` in their front matter or that it cites."""
        ...

    def resolution_log(self) -> list[ResolutionDecision]:
        """Every logged entity-resolution decision, in order."""
        ...


@runtime_checkable
class KnowledgeWriter(Protocol):
    """The write port: what ingest writes through."""

    def apply(self, batch: IngestBatch, *, now: datetime) -> WriteReport:
        """Write a batch in one transaction; unchanged records stay untouched."""
        ...


@runtime_checkable
class StreamingWriter(KnowledgeWriter, Protocol):
    """A writer that takes one ingest as a sequence of batches, in one transaction.

    ``ingest`` hands such a store its batches as it makes them, so that a large corpus is
    never in memory whole; any other store gets them merged into one ``apply``.
    """

    def apply_parts(self, parts: Iterable[IngestBatch], *, now: datetime) -> WriteReport:
        """Write each batch of ``parts`` in order, all in one transaction.

        A part is taken from ``parts`` only once the one before it is written; an error
        while ``parts`` is iterated rolls everything back.
        """
        ...


@runtime_checkable
class WritableStore(KnowledgeStore, KnowledgeWriter, Protocol):
    """Both ports: ingest reads what is there (entities, documents, the log) and writes a batch."""

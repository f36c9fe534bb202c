"""The domain model of the knowledge layer (pydantic v2, immutable).

Two layers: evidence (documents and their chunks) and understanding (entities, typed
bitemporal relationships, contradictions). Query results are typed here too, so every
backend returns the same shapes.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "RELATIONSHIP_TYPES",
    "Chunk",
    "Contradiction",
    "Document",
    "DocumentDiff",
    "Entity",
    "EntityMatch",
    "EvidenceHit",
    "KnowledgeHit",
    "Position",
    "Relationship",
    "ResolutionDecision",
    "TimelineEvent",
    "TraversalPath",
    "Validity",
    "trusted",
]

RELATIONSHIP_TYPES: tuple[str, ...] = (
    "applies_to",
    "supersedes",
    "definition_changed_by",
    "required_for",
    "depends_on",
    "derived_from",
    "governs",
    "decided_by",
    "owned_by",
    "mentions",
    "scoped_to",
    "amends",
    "references",
    "part_of",
    "about",
)
"""Every relationship type the layer accepts; anything else is a corpus error."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


_M = TypeVar("_M", bound=_Frozen)


def trusted(cls: type[_M], values: dict[str, Any]) -> _M:
    """An instance of ``cls`` from ``values`` that give every field, already valid.

    For rows a store wrote after validating them, and for results built field by field
    in this package: what ``model_construct`` makes of complete values, without its
    per-field alias and default lookups (which were most of a resolve's object building).
    ``values`` must be in field order and is used as the instance's ``__dict__``.
    """
    names = _field_names(cls)
    if len(values) != len(names):
        raise ValueError(f"trusted({cls.__name__}) needs every field, got {sorted(values)}")
    instance = cls.__new__(cls)
    object.__setattr__(instance, "__dict__", values)
    object.__setattr__(instance, "__pydantic_fields_set__", names)
    object.__setattr__(instance, "__pydantic_extra__", None)
    object.__setattr__(instance, "__pydantic_private__", None)
    return instance


_FIELD_NAMES: dict[type, set[str]] = {}


def _field_names(cls: type[_Frozen]) -> set[str]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = set(cls.model_fields)
    # A fresh set each time, as model_construct gives: callers may not share one.
    return set(names)


class Validity(_Frozen):
    """A validity window; ``None`` on either side means open. ``valid_to`` is exclusive."""

    valid_from: date | None = None
    valid_to: date | None = None

    def contains(self, day: date) -> bool:
        """Whether ``day`` falls inside the window."""
        if self.valid_from and day < self.valid_from:
            return False
        return not (self.valid_to and day >= self.valid_to)

    def overlaps(self, other: Validity) -> bool:
        """Whether two windows share at least one day."""
        start = max(self.valid_from or date.min, other.valid_from or date.min)
        end = min(self.valid_to or date.max, other.valid_to or date.max)
        return start < end or (start == end == date.max)

    def label(self) -> str:
        """Human form, e.g. ``2025-06-01 → open``."""
        left = self.valid_from.isoformat() if self.valid_from else "open"
        right = self.valid_to.isoformat() if self.valid_to else "open"
        return f"{left} → {right}"


class Document(_Frozen):
    """A source document as ingested."""

    id: str
    title: str
    kind: str = "document"
    version: str | None = None
    effective_from: date | None = None
    effective_to: date | None = None
    published_at: date | None = None
    url: str | None = None
    supersedes: tuple[str, ...] = ()
    entity_ids: tuple[str, ...] = ()
    owner: str | None = None
    body: str = ""
    metadata: dict[str, Any] = Field(default_factory=dict)
    path: str | None = None

    @property
    def validity(self) -> Validity:
        """The document's effective window."""
        return Validity(valid_from=self.effective_from, valid_to=self.effective_to)


class Chunk(_Frozen):
    """A piece of a document's body, with the heading it sits under."""

    id: str
    doc_id: str
    ordinal: int
    heading: str = ""
    text: str


class Entity(_Frozen):
    """A node of the understanding layer: concept, decision, claim, document, ..."""

    id: str
    kind: str
    name: str
    aliases: tuple[str, ...] = ()
    owner: str | None = None
    description: str = ""
    source_ids: tuple[str, ...] = ()
    attributes: dict[str, Any] = Field(default_factory=dict)
    origin: Literal["declared", "document", "extracted"] = "declared"


class Relationship(_Frozen):
    """A typed, bitemporal edge: validity in the world, and when we learned it."""

    id: str
    source: str
    type: str
    target: str
    valid_from: date | None = None
    valid_to: date | None = None
    recorded_at: datetime
    retired_at: datetime | None = None
    source_ids: tuple[str, ...] = ()
    note: str = ""
    origin: Literal["declared", "document", "extracted"] = "declared"

    @property
    def validity(self) -> Validity:
        """The edge's validity window."""
        return Validity(valid_from=self.valid_from, valid_to=self.valid_to)


class Position(_Frozen):
    """One side of a contradiction: what is stated, and where."""

    statement: str
    source_ids: tuple[str, ...]


class Contradiction(_Frozen):
    """A register entry: sources disagree; only a person resolves it."""

    id: str
    topic: str
    entity_ids: tuple[str, ...] = ()
    positions: tuple[Position, ...]
    status: Literal["open", "resolved"] = "open"
    owner: str | None = None
    opened_at: date | None = None
    resolved_at: date | None = None
    resolution: str | None = None
    origin: Literal["declared", "detected"] = "declared"

    @property
    def source_ids(self) -> tuple[str, ...]:
        """Every source id cited by any position, in order, without repeats."""
        seen: dict[str, None] = {}
        for position in self.positions:
            for sid in position.source_ids:
                seen.setdefault(sid, None)
        return tuple(seen)


class ResolutionDecision(_Frozen):
    """One logged entity-resolution decision."""

    mention: str
    candidate_id: str
    score: float
    decision: Literal["merge", "separate"]
    zone: Literal["exact", "above", "gray", "below"]
    reason: str


# ---- query results -------------------------------------------------------------------


class EvidenceHit(_Frozen):
    """A chunk returned by evidence search; ``score`` is normalised to 0..1."""

    chunk_id: str
    doc_id: str
    title: str
    kind: str
    heading: str
    text: str
    score: float
    coverage: float = 0.0
    """Fraction of the query's content terms found in this chunk (0..1)."""
    validity: Validity = Validity()


class KnowledgeHit(_Frozen):
    """An entity returned by knowledge search; ``score`` is normalised to 0..1."""

    entity: Entity
    score: float


class EntityMatch(_Frozen):
    """A candidate for a mention, with how it matched."""

    entity: Entity
    score: float
    method: Literal["exact", "alias", "similar"]


class TraversalPath(_Frozen):
    """A walked path: ``nodes[i] -edges[i]-> nodes[i+1]`` (edges may be walked backwards)."""

    nodes: tuple[str, ...]
    edges: tuple[Relationship, ...]

    def describe(self) -> str:
        """``a -[type]-> b <-[type]- c`` form."""
        parts = [self.nodes[0]]
        for edge, node in zip(self.edges, self.nodes[1:], strict=True):
            parts.append(f"-[{edge.type}]->" if edge.target == node else f"<-[{edge.type}]-")
            parts.append(node)
        return " ".join(parts)


class TimelineEvent(_Frozen):
    """A dated event about an entity."""

    day: date
    kind: str
    description: str
    ref_id: str
    source_ids: tuple[str, ...] = ()


class DocumentDiff(_Frozen):
    """What changed between two versions of a document or requirement."""

    old_id: str
    new_id: str
    added: tuple[str, ...]
    removed: tuple[str, ...]
    unified: str

"""What the check reads: the run's trace and the contradiction register, as plain data.

``RunTrace.of`` builds the trace from a run's tool envelopes (what it retrieved, touched
and flagged, the passages its claims rest on, the entries its detector linked);
``Register.read`` reads every entry with its entities' names and its sources' titles.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from groundgate.knowledge.model import Contradiction, Position
from groundgate.knowledge.port import KnowledgeStore
from groundgate.policies.honesty import bound_note, failure_notes, insufficient_notes
from groundgate.tools.envelope import Envelope, read_envelopes

__all__ = ["Register", "RunTrace", "touched_ids"]


@dataclass(frozen=True)
class RunTrace:
    """What the run did, as far as the guarantee needs it."""

    question: str
    retrieved: frozenset[str] = frozenset()
    """Source ids any tool result of the run named."""
    touched: frozenset[str] = frozenset()
    """Entity ids the run resolved, found or walked."""
    insufficient: tuple[str, ...] = ()
    """One note per insufficient or failed tool call."""
    failures: tuple[str, ...] = ()
    """The notes of failed tool calls (the rest are lookups that found nothing)."""
    bound: str | None = None
    """The note of the bound that stopped the run, if one did."""
    rests_on: Mapping[str, str] = field(default_factory=dict)
    """Claim text to the passage of its cited sources it rests on."""
    detected: frozenset[str] = frozenset()
    """Open entries the run's detector says bear on the answer (``Detector.bearing``)."""
    sided: frozenset[tuple[str, str, int]] = frozenset()
    """(sentence, entry id, position) the run's detector reads as stating that one position
    (``Detector.sides``, asked for the entries the question turns on)."""

    def states(self, sentence: str, entry_id: str) -> int | None:
        """The position of the entry the detector reads the sentence as stating, if one."""
        return next((n for s, e, n in sorted(self.sided) if s == sentence and e == entry_id), None)

    @classmethod
    def of(
        cls, question: str, envelopes: Iterable[Mapping[str, Any] | Envelope], *,
        bound_tripped: Mapping[str, Any] | None = None, rests_on: Mapping[str, str] | None = None,
        detected: Iterable[str] = (),
    ) -> RunTrace:
        """The trace of a run from its envelopes."""
        read = read_envelopes(envelopes)
        retrieved: set[str] = set()
        for env in read:
            if env.error:
                continue
            for item in env.results:
                retrieved.update(item.source_ids)
                for position in map(Position.model_validate, item.data.get("positions") or []):
                    retrieved.update(position.source_ids)
        return cls(
            question=question, retrieved=frozenset(retrieved), touched=frozenset(touched_ids(read)),
            insufficient=tuple(insufficient_notes(read)), bound=bound_note(bound_tripped),
            failures=tuple(failure_notes(read)),
            rests_on=dict(rests_on or {}), detected=frozenset(detected),
        )


_ENTITY_TOOLS = ("resolve_entity", "search_knowledge", "traverse", "timeline")


def touched_ids(envelopes: Iterable[Mapping[str, Any] | Envelope]) -> set[str]:
    """Entity ids the run resolved, found or walked (not every passage it skimmed)."""
    ids: set[str] = set()
    for env in read_envelopes(envelopes):
        if env.error or env.tool not in _ENTITY_TOOLS:
            continue
        if env.tool in ("traverse", "timeline"):
            ids.add(str(env.args.get("entity_id", "")))
        if env.tool != "timeline":
            ids.update(item.id for item in env.results)
    ids.discard("")
    return ids


@dataclass(frozen=True)
class Register:
    """The contradiction register as the gate reads it: every entry and its entities' names."""

    entries: tuple[Contradiction, ...]
    names: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Entity id to its name and aliases."""
    titles: Mapping[str, str] = field(default_factory=dict)
    """Position source id to its document's title."""

    @classmethod
    def read(cls, store: KnowledgeStore) -> Register:
        """Every entry (open and resolved), its entities' names and its sources' titles.

        Raises:
            StoreError: The register cannot be read.
        """
        entries = tuple(store.contradictions(status=None))
        names: dict[str, tuple[str, ...]] = {}
        for entity_id in dict.fromkeys(e for entry in entries for e in entry.entity_ids):
            entity = store.get_entity(entity_id)
            if entity is not None:
                names[entity_id] = tuple(n for n in (entity.name, *entity.aliases) if n.strip())
        titles = {}
        for sid in dict.fromkeys(s for entry in entries for s in entry.source_ids):
            doc = store.get_document(sid)
            if doc is not None:
                titles[sid] = doc.title
        return cls(entries=entries, names=names, titles=titles)

    @property
    def open(self) -> tuple[Contradiction, ...]:
        """The entries nobody has resolved."""
        return tuple(e for e in self.entries if e.status == "open")

    def entry(self, entry_id: str | None) -> Contradiction | None:
        """The entry with this id, if the register holds it."""
        return next((e for e in self.entries if entry_id and e.id == entry_id), None)

    def names_of(self, entry: Contradiction) -> tuple[str, ...]:
        """The names and aliases of the entry's entities."""
        return tuple(n for e in entry.entity_ids for n in self.names.get(e, ()))

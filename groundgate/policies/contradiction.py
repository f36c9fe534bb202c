"""Contradiction presentation: an open register entry that bears on the answer is shown
with every position and its sources, and the answer chooses none.

The policy does its own lookup: for every entity and source the trace touched, and for
the question's and the draft's topics, whether or not the agent ever asked the register.
Recency is not applicability: a newer position is not a decision.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from groundgate.answer.model import ContestedPoint, StatedPosition
from groundgate.knowledge.model import Contradiction
from groundgate.knowledge.port import KnowledgeStore
from groundgate.knowledge.text import content_terms, coverage, stem

__all__ = ["ContradictionVerdict", "check_contradictions", "disputed_axis", "present"]

DRAFT_RELEVANCE = 0.67
"""Share of a topic's words the draft must contain for the topic to count as mentioned."""


@dataclass(frozen=True)
class ContradictionVerdict:
    """Entries that bear on the answer (must be presented) and those merely nearby."""

    applies: tuple[Contradiction, ...]
    nearby: tuple[Contradiction, ...]


def disputed_axis(entry: Contradiction) -> set[str]:
    """Words every position uses that the topic does not: what the positions argue over.

    "Handlers need no separate approval" and "covered only with prior written approval"
    share "approval" beyond the topic "whether trace-and-access costs are automatically
    included"; a question about approval asks about the split even without the topic's words.
    """
    if len(entry.positions) < 2:
        return set()
    shared = set.intersection(*({stem(t) for t in content_terms(p.statement)} for p in entry.positions))
    return shared - {stem(t) for t in content_terms(entry.topic)}


def _bears(entry: Contradiction, question: str, draft: str, threshold: float) -> bool:
    """The question or draft covers the topic, or the question asks about the disputed axis."""
    terms = content_terms(entry.topic)
    if terms and (coverage(terms, question) >= threshold or coverage(terms, draft) >= DRAFT_RELEVANCE):
        return True
    return bool(disputed_axis(entry) & {stem(t) for t in content_terms(question)})


def check_contradictions(
    store: KnowledgeStore,
    *,
    question: str,
    draft: str,
    touched: Iterable[str],
    threshold: float = 0.5,
) -> ContradictionVerdict:
    """Check every open entry against the question and draft; note those the run touched."""
    touched_ids = sorted(set(touched))
    near = {e.id for e in store.contradictions(entity_ids=touched_ids)} if touched_ids else set()
    applies, nearby = [], []
    for entry in store.contradictions():
        if _bears(entry, question, draft, threshold):
            applies.append(entry)
        elif entry.id in near:
            nearby.append(entry)
    return ContradictionVerdict(applies=tuple(applies), nearby=tuple(nearby))


def present(entry: Contradiction) -> ContestedPoint:
    """The answer's view of a register entry."""
    return ContestedPoint(
        topic=entry.topic,
        positions=tuple(
            StatedPosition(statement=p.statement, source_ids=p.source_ids) for p in entry.positions
        ),
        contradiction_id=entry.id,
        owner=entry.owner,
        status="open",
    )

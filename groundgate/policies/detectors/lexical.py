"""The lexical detector: what the words say, read without a model or an embedder.

- ``bearing``: an open entry bears when the question holds ``threshold`` of its topic's
  words, asks about what its positions argue over, or is a yes/no question and a passage
  a claim rests on is about the question and states the contested point
  (``policies/contradiction.py``).
- ``sides``: nothing beyond the gate's own word rules (``policies/sides.py``), which G2
  applies whatever the detector.
- ``disagreements``: retrieved passages of different documents give different values of
  what the question asks: dates and years, amounts, percentages, durations, lengths,
  counts, and for a who-question the people and bodies named
  (``policies/disagreement.py``). At ingest (no question), different values of the same
  unit about nearly the same subject (``knowledge/ingest/contradictions.py``).

It sees numbers and names; a disagreement stated in words ("dogs are welcome" and "no
dog may be taken") is beyond it: that is what the semantic detector and the judge are for.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from groundgate.knowledge.model import Contradiction
from groundgate.knowledge.port import KnowledgeStore
from groundgate.policies.applies import question_bears, states_point_for
from groundgate.policies.detectors.base import (
    Bearing,
    BearingQuestion,
    Detection,
    Finding,
    FindingPosition,
    Passage,
    Sides,
    SidesQuestion,
)
from groundgate.policies.disagreement import find_disagreements
from groundgate.policies.wording import asks_for_verdict
from groundgate.tools.envelope import Envelope, ResultItem

__all__ = ["LexicalDetector", "as_envelopes"]


def as_envelopes(passages: Sequence[Passage]) -> list[Envelope]:
    """Retrieved passages as the tool results they came from."""
    return [
        Envelope(
            tool="search_evidence",
            results=(
                ResultItem(
                    id=p.source_id,
                    title=p.title,
                    kind="chunk",
                    snippet=p.text,
                    source_ids=(p.source_id,),
                    validity=p.validity,
                ),
            ),
        )
        for p in passages
        if p.role == "retrieved"
    ]


@dataclass(frozen=True)
class LexicalDetector:
    """Numbers, dates and named parties, read from the words (the default)."""

    name: str = "lexical"

    def bearing(self, request: BearingQuestion) -> Bearing:
        """The entries the question asks about, or whose point a yes/no question's resting passages state."""
        question = request.question
        verdict = asks_for_verdict(question)
        evidence = [p.text for p in request.passages if p.role == "rests"] if verdict else []
        found = set()
        for entry in request.entries:
            names = entity_names(request.store, entry)
            if question_bears(entry, question, request.threshold, names) or (
                evidence and states_point_for(entry, question, evidence, names)
            ):
                found.add(entry.id)
        return Bearing(frozenset(found))

    def sides(self, request: SidesQuestion) -> Sides:
        """Nothing: the word rules of ``policies/sides.py`` are G2's lexical reading, applied by the gate."""
        return Sides()

    def disagreements(
        self, passages: Sequence[Passage], *, question: str | None, store: KnowledgeStore | None = None
    ) -> Detection:
        """Conflicting values of what the question asks, in the retrieved passages."""
        if question is None or store is None:
            return Detection()  # the ingest-time reading works on value statements (see module doc)
        return Detection(
            tuple(
                Finding(
                    topic=point.topic,
                    positions=tuple(FindingPosition(p.statement, p.source_ids) for p in point.positions),
                    kind="value",
                    detector=self.name,
                )
                for point in find_disagreements(question, as_envelopes(passages), store)
            )
        )



def entity_names(store: KnowledgeStore, entry: Contradiction) -> list[str]:
    """The names and aliases of the entry's entities, as the store holds them."""
    return [
        name
        for entity in filter(None, (store.get_entity(i) for i in entry.entity_ids))
        for name in (entity.name, *entity.aliases)
        if name.strip()
    ]

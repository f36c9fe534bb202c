"""Contradiction presentation: every position of an open entry, and no choice among them.

An open register entry that bears on the answer is shown with every position and its
sources, and the answer chooses none.

The policy does its own lookup: for every entity and source the trace touched, and for
the question's and the draft's topics, whether or not the agent ever asked the register.
Recency is not applicability: a newer position is not a decision. A draft that speaks to
an open entry the question does not turn on ("Who owns CHG-04?" answered with what CHG-04
says about trace-and-access) keeps its answer, loses the side-taking claims, and says so
in a short note: no wrong refusal, and no contested position asserted.

A yes/no question ("Was the payment made in line with the policy terms?") asks for a
verdict, and a verdict depends on every rule it rests on: when a passage the draft rests
on states the contested point, the entry bears even if the question shares few words
with its topic. A question asking for a fact ("Which contractor did the work?") is
answered from the same passage without taking a side, so that route is for verdicts only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from groundgate.answer.model import ContestedPoint, StatedPosition
from groundgate.knowledge.model import Contradiction
from groundgate.knowledge.port import KnowledgeStore
from groundgate.knowledge.text import content_terms, coverage, key_parts, stem

if TYPE_CHECKING:
    from groundgate.policies.detectors.base import Detector, Passage

__all__ = [
    "ContradictionVerdict",
    "asks_for_verdict",
    "bears_on_question",
    "check_contradictions",
    "disputed_axis",
    "present",
    "rests_on",
]

DRAFT_RELEVANCE = 0.67
"""Share of a topic's words the draft must contain for the topic to count as mentioned."""
POSITION_RESTATED = 0.5
"""Share of a position's words a passage must contain to restate that position."""
POSITION_ECHOED = 1 / 3
"""Share of a position's words a passage naming one of the entry's entities must contain."""
QUESTION_FIT = 0.5
"""Share of the question's words a passage must contain to be about the question."""

_VERDICT_OPENERS = frozenset(
    "is are was were am do does did should shall can could will would must may might has have had".split()
)


@dataclass(frozen=True)
class ContradictionVerdict:
    """What the register holds about this answer.

    ``applies``: entries that bear on the question (every position is presented).
    ``mentioned``: entries the draft speaks to although the question does not turn on them
    (the draft's side-taking claims are withheld and a short note says why).
    ``nearby``: entries on entities the run touched (noted for the trace only).
    """

    applies: tuple[Contradiction, ...]
    nearby: tuple[Contradiction, ...]
    mentioned: tuple[Contradiction, ...] = ()
    notes: tuple[str, ...] = ()
    """What the detector put on the record (a fallback taken, a model call made)."""


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


def asks_for_verdict(question: str) -> bool:
    """Whether the question is a yes/no question.

    It is when it, or a clause after its first comma, opens with an auxiliary verb
    ("Was ...", "On claim CLM-1190, is ...", "Could you ...").
    """
    clauses = [question, *question.split(",", 1)[1:]]
    return any(
        (words := clause.split()) and words[0].lower() in _VERDICT_OPENERS for clause in clauses
    )


def bears_on_question(entry: Contradiction, question: str, threshold: float) -> bool:
    """The question covers the topic, or asks about what the positions argue over."""
    terms = content_terms(entry.topic)
    if terms and coverage(terms, question) >= threshold:
        return True
    return bool(disputed_axis(entry) & {stem(t) for t in content_terms(question)})


def _words(text: str) -> str:
    return " " + " ".join(key_parts(text)) + " "


def _states_the_point(entry: Contradiction, passage: str, names: Sequence[str]) -> bool:
    """Whether the passage states the entry's point.

    It does when it covers the topic, restates a position, or names one of the entry's
    entities while echoing a position.
    """
    topic = content_terms(entry.topic)
    if topic and coverage(topic, passage) >= DRAFT_RELEVANCE:
        return True
    echo = max((coverage(content_terms(p.statement), passage) for p in entry.positions), default=0.0)
    if echo >= POSITION_RESTATED:
        return True
    if echo < POSITION_ECHOED:
        return False
    text = _words(passage)
    return any(_words(name) in text for name in names)


def rests_on(
    store: KnowledgeStore, entry: Contradiction, question: str, evidence: Sequence[str]
) -> bool:
    """Whether a passage of the evidence is about the question and states the entry's point.

    This is the route by which a yes/no question's verdict depends on the entry.
    """
    asked = content_terms(question)
    about = [p for p in evidence if coverage(asked, p) >= QUESTION_FIT]
    if not about:
        return False
    names = [
        name
        for entity in filter(None, (store.get_entity(i) for i in entry.entity_ids))
        for name in (entity.name, *entity.aliases)
        if name.strip()
    ]
    return any(_states_the_point(entry, passage, names) for passage in about)


def check_contradictions(
    store: KnowledgeStore,
    *,
    question: str,
    draft: str,
    touched: Iterable[str],
    evidence: Sequence[str] = (),
    threshold: float = 0.5,
    detector: Detector | None = None,
    passages: Sequence[Passage] = (),
) -> ContradictionVerdict:
    """Check every open entry against the question and the draft.

    Whether an entry bears is the ``detector``'s question, asked of ``passages`` (the
    passages the answer rests on, then those retrieved). Without one, the lexical rules
    decide on ``evidence`` (the passages the draft's claims rest on): for a yes/no question
    an entry also bears when one of them states its contested point.
    """
    touched_ids = sorted(set(touched))
    near = {e.id for e in store.contradictions(entity_ids=touched_ids)} if touched_ids else set()
    entries = store.contradictions()
    notes: tuple[str, ...] = ()
    if detector is not None:
        bearing = detector.bearing(
            entries, question=question, passages=passages, store=store, threshold=threshold
        )
        bearing_ids, notes = bearing.entry_ids, bearing.notes
    else:
        verdict_evidence = evidence if asks_for_verdict(question) else ()
        bearing_ids = frozenset(
            e.id for e in entries
            if bears_on_question(e, question, threshold)
            or (verdict_evidence and rests_on(store, e, question, verdict_evidence))
        )
    applies, mentioned, nearby = [], [], []
    for entry in entries:
        topic = content_terms(entry.topic)
        if entry.id in bearing_ids:
            applies.append(entry)
        elif topic and coverage(topic, draft) >= DRAFT_RELEVANCE:
            mentioned.append(entry)
        elif entry.id in near:
            nearby.append(entry)
    return ContradictionVerdict(
        applies=tuple(applies), nearby=tuple(nearby), mentioned=tuple(mentioned), notes=notes
    )


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

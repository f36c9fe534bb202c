"""G1: which open register entries apply to an answer, and how (the one definition).

An entry applies **by the question** (presented in full, no side taken) when the question
turns on it (``bears_on_question``) or the run's detector said it bears on the answer;
**by the answer** (shown as a note) when the answer's sentences speak to it; **only by
touch** (trace only) when the run touched its entities or position sources and nothing
in the answer speaks to it. ``docs/gate.md`` gives the rules with examples.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from groundgate.knowledge.model import Contradiction
from groundgate.knowledge.text import content_terms, coverage, key_parts, stem
from groundgate.policies.trace import Register, RunTrace
from groundgate.policies.wording import (
    POSITION_OVERLAP,
    PRECEDENCE,
    SETTLED,
    about_entry,
    asks_for_verdict,
    disputed_axis,
    names_in,
    term_stems,
)

__all__ = ["Applicable", "applicable", "bears_on_question", "question_bears", "states_point_for"]

POSITION_ECHOED = 1 / 3
"""Share of a position's words a passage naming one of the entry's entities must hold."""
PASSAGE_TOPIC = 0.67
"""Share of a topic's words a passage must hold to be about the topic."""
NAMED_TOPIC = 1 / 3
"""Share of a topic's words a yes/no question naming one of the entry's entities must hold."""
DRAFT_TOPIC = 0.67
"""Share of a topic's words the answer's sentences together must hold to be about the topic."""
QUESTION_FIT = 0.5
"""Share of the question's words a passage must hold to be about the question."""


@dataclass(frozen=True)
class Applicable:
    """Which open entries apply to an answer, and how (G1)."""

    question: tuple[Contradiction, ...] = ()
    """Entries that bear on the question: presented in full, no side taken."""
    answer: tuple[Contradiction, ...] = ()
    """Entries the answer speaks to that the question does not turn on: shown as a note."""
    nearby: tuple[Contradiction, ...] = ()
    """Entries whose entities or position sources the run touched and nothing in the answer speaks
    to (trace only)."""


def question_bears(
    entry: Contradiction, question: str, threshold: float, names: Sequence[str] = ()
) -> bool:
    """The question covers the topic, or asks about what the positions argue over.

    The topic's words beyond the names of the entry's entities are what it is about: a
    question must hold ``NAMED_TOPIC`` of them too. One that shares only the product's name
    and one more word with "How long a full charge of the AeroSense Two takes" asks about
    the AeroSense Two, not about its charge.
    """
    terms = content_terms(entry.topic)
    beyond = _beyond_names(entry, names)
    if terms and coverage(terms, question) >= threshold and (
            not beyond or coverage(beyond, question) >= NAMED_TOPIC):
        return True
    return bool(disputed_axis(entry) & {stem(t) for t in content_terms(question)})


def _beyond_names(entry: Contradiction, names: Sequence[str]) -> list[str]:
    """The topic's words beyond the names of the entry's entities."""
    named = {w for name in names for w in key_parts(name)}
    return [t for t in content_terms(entry.topic) if not set(key_parts(t)) <= named]


def _states_the_point(entry: Contradiction, passage: str, names: Sequence[str]) -> bool:
    """A passage covers the topic, restates a position, or names an entity while echoing one."""
    topic = content_terms(entry.topic)
    if topic and coverage(topic, passage) >= PASSAGE_TOPIC:
        return True
    echo = max((coverage(content_terms(p.statement), passage) for p in entry.positions), default=0.0)
    if echo >= POSITION_OVERLAP:
        return True
    return echo >= POSITION_ECHOED and names_in(names, passage)


def states_point_for(
    entry: Contradiction, question: str, passages: Iterable[str], names: Sequence[str]
) -> bool:
    """Whether a passage about the question states the entry's point."""
    asked = content_terms(question)
    about = [p for p in passages if p and coverage(asked, p) >= QUESTION_FIT]
    return any(_states_the_point(entry, passage, names) for passage in about)


def _verdict_rests_on(entry: Contradiction, trace: RunTrace, names: Sequence[str]) -> bool:
    """A yes/no question's verdict depends on the entry: a passage it rests on states the point."""
    return states_point_for(entry, trace.question, trace.rests_on.values(), names)


def _verdict_turns_on(entry: Contradiction, question: str, said: Sequence[str]) -> bool:
    """A yes/no question's verdict, as the answer gives it, turns on the entry.

    It does when a sentence about the question speaks to what the positions argue over
    ("... so no written approval was needed"), names the entry, or has its owner rule on it.
    """
    asked = content_terms(question)
    axis = disputed_axis(entry)
    owner = [entry.owner] if entry.owner else []
    for sentence in said:
        if coverage(asked, sentence) < QUESTION_FIT:
            continue
        if axis & term_stems(sentence) or about_entry(sentence, entry, ()):
            return True
        if names_in(owner, sentence) and (SETTLED.search(sentence) or PRECEDENCE.search(sentence)):
            return True
    return False


def bears_on_question(
    entry: Contradiction, trace: RunTrace, names: Sequence[str], threshold: float, said: Sequence[str] = ()
) -> bool:
    """Whether the question turns on the entry.

    It does when the question covers the topic or asks about the axis, or, for a yes/no
    question, when it names one of the entry's entities and holds ``NAMED_TOPIC`` of the
    topic ("Should the customer on claim CLM-1190 get all 14 kitchen units replaced?"), a
    passage the answer rests on states the point, or the answer's verdict turns on it.
    """
    if question_bears(entry, trace.question, threshold, names):
        return True
    if not asks_for_verdict(trace.question):
        return False
    topic = _beyond_names(entry, names)
    if names_in(names, trace.question) and topic and coverage(topic, trace.question) >= NAMED_TOPIC:
        return True
    return _verdict_rests_on(entry, trace, names) or _verdict_turns_on(entry, trace.question, said)


def applicable(
    register: Register, trace: RunTrace, sentences: Iterable[str], *, threshold: float = 0.5
) -> Applicable:
    """Which open entries apply (G1): by the question, by the answer's sentences, or by touch only.

    An entry applies by the question when the rules of ``bears_on_question`` say so or the
    run's detector said it bears on the answer (``trace.detected``: the detector read the
    passages the answer rests on, which may state the entry's point in other words).

    The answer applies an entry when its sentences together hold ``DRAFT_TOPIC`` of the
    topic's words, or one of them is about the entry itself (names it, or names its subject
    while speaking of "the dispute").

    ``sentences`` are the answer's own sentences (what grounding kept, before the gate
    withheld anything): an entry the draft spoke to applies even once those sentences go.
    """
    said = list(sentences)
    together = " ".join(said)
    question, answer, nearby = [], [], []
    for entry in register.open:
        names = register.names_of(entry)
        topic = content_terms(entry.topic)
        if entry.id in trace.detected or bears_on_question(entry, trace, names, threshold, said):
            question.append(entry)
        elif (topic and coverage(topic, together) >= DRAFT_TOPIC) or any(
            about_entry(s, entry, names) for s in said
        ):
            answer.append(entry)
        elif (set(entry.entity_ids) | set(entry.source_ids)) & trace.touched:
            nearby.append(entry)
    return Applicable(tuple(question), tuple(answer), tuple(nearby))

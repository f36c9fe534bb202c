"""The offline planner's answer: chosen source sentences with citations, or INSUFFICIENT.

Extractive on purpose: every sentence of the answer is a sentence a tool returned (or a
dated statement built from a timeline), ending with the document ids it came from. When
what was retrieved does not cover the question, or lacks the kind of value it asks for,
the answer says so and shows what was found instead of guessing.
"""

from __future__ import annotations

from datetime import date

from groundgate.knowledge.events import event_kinds
from groundgate.reading.evidence import collect
from groundgate.reading.polarity import lead_for
from groundgate.reading.protocol import Reading
from groundgate.reading.question import Question
from groundgate.reading.score import (
    VALUE_KINDS,
    Scored,
    coverage_of,
    ranked,
    score_sentences,
    typed,
)
from groundgate.reading.select import cited_lines, render, select
from groundgate.reading.succession import answer_succession, succession_of
from groundgate.reading.temporal import contradiction_lines, temporal_lines, window_of
from groundgate.reading.text import low, values_of
from groundgate.reading.transcript import Transcript
from groundgate.reading.verdict import insufficiency
from groundgate.reading.when import event_anchor

__all__ = ["SAID_COVERAGE", "compose", "read"]

SAID_COVERAGE = 0.3
"""Weighted share of the question's words a sentence shown under "what the sources do say"
must hold (or come from what the question names): a refusal does not list unrelated text."""


def _event_sentence(t: Transcript, scored: list[Scored]) -> Scored | None:
    """The sentence the question's event date was read from (``loss 20 February 2026``)."""
    anchor = event_anchor(t.question, t.anchors())
    if anchor is None:
        return None
    first = anchor.text.split(". ")[0].rstrip(".")
    for item in scored:
        if first and first in item.sentence.text:
            return item
    return None


def _disagreement(q: Question, chosen: list[Scored], scored: list[Scored],
                  weights: dict[str, float]) -> list[str]:
    """A sentence from another document giving a different value for the same thing."""
    if q.asks not in VALUE_KINDS or q.relative or not q.mentions:
        return []  # a described or unnamed subject: another value is as likely about another thing
    answers = [c for c in chosen if typed(q, c.sentence.rendered)]
    if not answers:
        return []
    first = answers[0]
    kind = q.asks
    values = values_of(first.sentence.rendered, kind)
    subject = first.covered & set(q.predicate)
    events = event_kinds(q.text)  # "founded in 1871" answers "when founded"; "born 1839" does not
    for item in ranked(scored, q, weights)[:15]:
        other = values_of(item.sentence.rendered, kind)
        shared = len(item.covered & subject) / len(subject) if subject else 0.0
        if events and not events & event_kinds(item.sentence.text):
            continue
        about = low(f"{item.sentence.rendered} {item.sentence.title}")
        if not all(low(m) in about for m in q.mentions):
            continue  # it must name what the question names
        if (item in chosen or item.sentence.tool == "timeline" or not other or other & values
                or not typed(q, item.sentence.rendered)
                or set(item.sentence.sources) & set(first.sentence.sources)
                or shared < 0.6 or coverage_of([item], q.focus, weights) < 0.3
                or (first.anchored and not item.anchored)
                or (first.sentence.valid and item.sentence.valid)):
            continue
        return cited_lines(item.sentence, f"Another source gives a different {q.asks}: ")
    return []


def _later(q: Question, chosen: list[Scored], scored: list[Scored],
           weights: dict[str, float], day: date | None) -> list[str]:
    """The best matching passage from a document that only applies after the date."""
    if not (day and q.temporal):
        return []
    later = []
    for item in scored:
        window = window_of(item.sentence.valid)
        if item in chosen or not window or not window.valid_from or window.valid_from <= day:
            continue
        later.append((coverage_of([item], q.focus, weights), item.sentence.order, item, window))
    if not later:
        return []
    value, _, item, window = min(
        later, key=lambda x: (-round(x[0], 1), x[3].valid_from or date.max, x[1])
    )
    if value < 0.4 or window.valid_from is None:
        return []
    return cited_lines(
        item.sentence, f"From {window.valid_from.isoformat()} (after {day.isoformat()}): "
    )


def read(t: Transcript) -> Reading:
    """What the transcript's evidence says about its question."""
    q = t.question
    pool = collect(t)
    scored, env = score_sentences(t, pool)
    chosen = select(scored, q, env.weights)
    event = _event_sentence(t, scored)
    if event and event not in chosen:
        chosen.insert(0, event)
    reason = insufficiency(q, chosen, scored, env)
    succession = succession_of(q.text)
    if succession is not None:
        # who came before or after: only a sentence saying so answers it
        named = answer_succession(succession, pool)
        if named:
            return Reading("answered", tuple(named), score=1.0)
        reason = reason or (f"no retrieved passage says who came "
                            f"{'before' if succession.earlier else 'after'} {succession.name}")
    if reason:
        # what the sources do say: only sentences about the question's subject
        about = [c for c in chosen if c.anchored or coverage_of([c], q.focus, env.weights) >= SAID_COVERAGE]
        return Reading("insufficient", tuple(render(about)), (reason,))
    lines = render(chosen)
    lines += _disagreement(q, chosen, scored, env.weights)
    lines += temporal_lines(t, env.day)
    later = _later(q, chosen, scored, env.weights, env.day)
    if later and not any(line.startswith(later[0][:16]) for line in lines):
        lines += later  # a passage that starts applying on a date not yet stated
    lines += contradiction_lines(t, " ".join([q.text, *(c.sentence.text for c in chosen)]))
    lead = lead_for(q, chosen[0], env.weights) if chosen else None
    if lead:
        lines = _led(lines, chosen[0], lead)
    return Reading("answered", tuple(lines), score=_score(q, chosen, env.weights))


def _score(q: Question, chosen: list[Scored], weights: dict[str, float]) -> float:
    """How well one sentence answers: the best single sentence's weighted cover of the question.

    For a question asking for a value or a name, only a sentence stating one counts.
    """
    wanted = q.asks in (*VALUE_KINDS, "name", "entity")
    covers = [coverage_of([c], q.focus, weights) for c in chosen
              if not wanted or typed(q, c.sentence.rendered)]
    return round(max(covers, default=0.0), 3)


def _led(lines: list[str], best: Scored, lead: str) -> list[str]:
    """The lines with the best sentence first, opening with Yes or No."""
    at = next((i for i, line in enumerate(lines) if line.startswith(best.sentence.text)), None)
    if at is None:
        return lines
    first = lines[at]
    return [f"{lead} — {first}", *lines[:at], *lines[at + 1:]]


def compose(t: Transcript) -> str:
    """The final answer text for the transcript (the default reader's, as draft text)."""
    return read(t).text()

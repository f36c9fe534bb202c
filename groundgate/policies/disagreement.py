"""Evidence disagreement the register does not hold: shown, never silently settled.

When retrieved sources give different values for what the question asks, the answer shows
both values with their sources and says the disagreement is not yet recorded.

Two statements disagree when all of these hold:

- They come from different documents, neither superseding the other, with overlapping
  validity windows (rules in force at different times are a change).
- The question asks for a value: a which/what-N question asks for a thing, a where-question
  for a place, a what-did question for a deed; the years in their sources say when.
- They give different values of the unit the question asks for: a date or year, an
  amount, a percentage, a duration, a length, a plain count (how many), or, for a
  who-question not pinned to a time, the people and bodies named (for who made or
  founded something, only the maker: "built by ...", "the work of ..."). A value the
  question itself states ("the 2024 review") is part of its subject, not an answer.
- Each is about the question's subject: every identifier it names (CLM-1108), half the
  words of every name it gives ("Gullrun" for "MV Gullrun"), and half its words,
  counting the passage's title and heading, and its first sentence when the statement
  refers back to it ("She set up her own company in 1905" in an article whose first
  sentence calls her the company's founder). When the subject is longer than two words,
  the two share a phrase of it ("zone map" in "the storm zone map", not in "the map of
  zone H3", for "the H3 zone map update") or a name the question gives.
- They state the same fact. When the question names a kind of event, both speak of it:
  "took effect on 1 February" and "went live on 15 February" do, "was published on 10
  February" does not (see ``knowledge/events.py``). When it names none, each sentence by
  itself (a length, count or party: with the first sentence its pronoun points to)
  holds half the question's subject words and half of those that are not names ("When
  did Elias Morrow retire?": a sentence naming him is not enough), and both speak of the
  same kinds of event
  (a length is no event: "launched in 1974" beside it is incidental). Sentences naming
  people must both use the question's relation word ("owns", "owned", "owner").
- The register does not already hold it: a statement restating a register position, open
  or resolved, is the register's business.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from groundgate.answer.model import ContestedPoint, StatedPosition
from groundgate.knowledge.events import EVENT_WORDS, event_kinds
from groundgate.knowledge.ingest.contradictions import normal_value
from groundgate.knowledge.ingest.extract import ValueStatement, statements_in
from groundgate.knowledge.model import Contradiction, Validity
from groundgate.knowledge.port import KnowledgeStore
from groundgate.knowledge.text import STOPWORDS, content_terms, coverage, stem, stems, term_covered, tokens
from groundgate.policies.stated import (
    CODE,
    MAKING,
    NAME,
    count_statements,
    has_time,
    holds_name,
    question_names,
    statements,
)
from groundgate.tools.envelope import Envelope

__all__ = ["find_disagreements"]

QUESTION_FIT = 0.5
"""Share of the question's subject words a statement (with its heading) must contain."""

POSITION_RESTATED = 0.5
"""Share of a register position's words a statement must contain to restate it."""


_ASKS = {
    "when": ("date", "year"),
    "date": ("date", "year"),
    "year": ("date", "year"),
    "much": ("money", "percent"),
    "amount": ("money",),
    "cost": ("money",),
    "long": ("years", "months", "weeks", "days", "hours", "length"),
    "tall": ("length",),
    "high": ("length",),
    "height": ("length",),
    "length": ("length",),
    "wide": ("length",),
    "width": ("length",),
    "deep": ("length",),
    "depth": ("length",),
    "many": ("years", "months", "weeks", "days", "hours", "percent", "count"),
    "number": ("count",),
    "population": ("count",),
}


def _pairs(text: str) -> set[tuple[str, str]]:
    """Adjacent content words in order, stopwords skipped and stemmed.

    "zone map" is in "the storm zone map", and not in "the map of zone H3".
    """
    words = [stem(t) for t in tokens(text) if t not in STOPWORDS and t not in EVENT_WORDS]
    return set(zip(words, words[1:], strict=False))



def _codes(text: str) -> set[str]:
    """Identifiers such as CLM-1108 or DR-017 (a statement naming another is about another thing)."""
    return {t for t in tokens(text) if CODE.match(t)}


def _holds(
    entry: Contradiction, left: ValueStatement, right: ValueStatement, unit: str, values: set[str]
) -> bool:
    """Whether a register entry records this disagreement.

    It does when both documents are its sources, or one is and its positions state every
    value in question.
    """
    sources = set(entry.source_ids)
    if not sources & {left.doc_id, right.doc_id}:
        return False
    if {left.doc_id, right.doc_id} <= sources:
        return True
    stated = {
        v
        for p in entry.positions
        for s in statements_in("", p.statement, Validity())
        if _common_unit(s.unit, unit) == unit
        for v in _values(s, unit)
    }
    return values <= stated


def _restates(position_terms: list[str], sentence: str) -> bool:
    return bool(position_terms) and coverage(position_terms, sentence) >= POSITION_RESTATED


_VALUE_NOUNS = (
    "year date day month time amount sum figure number percentage percent rate age cost price total value "
    "count".split()
)
"""Nouns that ask for a value ("what year", "the amount"): read by both tests below."""
_MEASURE_NOUNS = (
    "proportion share population length height size distance fee charge excess limit threshold duration "
    "period".split()
)
"""Further nouns a which/what question asks a value by ("what share", "which threshold")."""
_AUXILIARIES = "is was are were did does do has have had will would can could should may might".split()

_THING_ASKED = re.compile(
    r"^\s*(?:(?:in|at|for|from|to|on|by|with)\s+)?(?:which|what)\s+"
    rf"(?!(?:{'|'.join([*_AUXILIARIES, *_VALUE_NOUNS, *_MEASURE_NOUNS])})\b)[a-z]+",
    re.IGNORECASE,
)
"""A which/what-N question asks for a thing ("Which club did she coach in 2005?"), not a value."""
_PLACE_OR_DEED = re.compile(r"^\s*(?:where\b|what\s+(?:did|does|do|will|would|can|could)\b)", re.I)
_VALUE_WORD = re.compile(rf"^(?:{'|'.join([*_VALUE_NOUNS, 'long', 'much', 'many', 'often', 'old'])})$")
"""A subject word that is the value asked for ("year", "how long"), not what is said about the subject."""


def _wanted_units(question: str) -> set[str] | None:
    words = {w.lower().strip("?.,") for w in question.split()}
    if question.split()[:1] and question.split()[0].lower() in ("who", "whom"):
        # who held a role at a time is history, not a disagreement between sources
        return set() if has_time(question) else {"party"}
    if _THING_ASKED.match(question) or _PLACE_OR_DEED.match(question):
        return set()  # the years in its sources say when, not which, where or what was done
    units: set[str] = set()
    for word, kinds in _ASKS.items():
        if word in words:
            units.update(kinds)
    return units or None


def _common_unit(left: str, right: str) -> str | None:
    """The unit two statements can be compared in: the same one, or years for a date and a year."""
    if left == right:
        return left
    return "year" if {left, right} == {"date", "year"} else None


def _values(statement: ValueStatement, unit: str) -> set[str]:
    """The statement's values as ``unit`` (a date read as a year when years are compared)."""
    values = {normal_value(statement.unit, v) for v in statement.values}
    if unit == "year" and statement.unit == "date":
        return {v[:4] for v in values}
    return values



def _relates(relation: str, sentence: str) -> bool:
    """Whether the sentence uses the question's relation word, in any form (owns, owned, owner).

    A thing made is also "the work of" its maker.
    """
    if relation in MAKING and re.search(r"\bthe work of\b", sentence, re.I):
        return True
    root = stem(relation)
    return len(root) >= 3 and any(
        stem(t).startswith(root) or (len(stem(t)) >= 3 and root.startswith(stem(t))) for t in tokens(sentence)
    )


_REFERS_BACK = re.compile(
    r"\b(?:it|its|she|her|he|his|they|their|this|the (?:company|firm|ship|city|town))\b", re.I
)


def _own_words(statement: ValueStatement, lead: str) -> str:
    """The sentence, with the passage's lead when it refers back to it ("she measures ...").

    Only for a measure (a length, a count) or a named party: a dated sentence in an
    article ("She joined ... in 2001") is about its subject, not about every date asked.
    """
    if lead and statement.unit in ("length", "count", "party") and _REFERS_BACK.search(statement.sentence):
        return f"{lead} {statement.sentence}"
    return statement.sentence


def _same_fact(
    left_with_lead: tuple[ValueStatement, str],
    right_with_lead: tuple[ValueStatement, str],
    asked: frozenset[str],
    relation: str | None,
    subject_terms: list[str],
    predicate: Sequence[str] = (),
) -> bool:
    """Whether two statements (each with its passage's lead) are about the same fact.

    They are when they speak of the kind of event the question asks about, or, when it
    names none, of the same kinds of event, each sentence by itself (or with the lead
    its pronoun points to) covering half the question's subject words, not only through
    its heading. Two sentences naming people or bodies must also use the who-question's
    relation word ("owns").
    """
    (left, left_lead), (right, right_lead) = left_with_lead, right_with_lead
    left_events, right_events = event_kinds(left.sentence), event_kinds(right.sentence)
    if left.unit == "party":
        return (
            relation is not None
            and _relates(relation, left.sentence)
            and _relates(relation, right.sentence)
            # one act ("built", "the work of"): the relation word is the event
            and (not asked or bool(asked & left_events & right_events) or relation in MAKING)
        )
    if asked:
        return bool(asked & left_events) and bool(asked & right_events)
    if left_events != right_events and left.unit != "length":
        return False  # a ship's length is no event; "launched in 1974" beside it is incidental
    # no event to tie them: each sentence, by itself, must be about what the question asks,
    # and not only name its subject ("When did Elias Morrow retire?": every dated sentence
    # of his article names him; only one speaks of retiring)
    return all(
        coverage(subject_terms, _own_words(s, lead)) >= QUESTION_FIT
        and (not predicate or coverage(list(predicate), _own_words(s, lead)) >= QUESTION_FIT)
        for s, lead in ((left, left_lead), (right, right_lead))
    )


def _named_values(question: str) -> set[str]:
    """The values the question itself states, in the spelling statements use."""
    stated = statements_in("", question, Validity()) + count_statements("", question, Validity())
    named = {v for s in stated for v in s.values}
    return named | set(re.findall(r"\b\d{4}\b", question))


def _mentions_subject(subject_terms: list[str], relation: str | None, sentence: str) -> bool:
    """Whether a sentence naming people speaks of the subject itself, not only by "it"."""
    sentence_stems = stems(sentence)
    return any(term_covered(t, sentence_stems) for t in subject_terms if t != relation)


def _topic(unit: str, values: set[str]) -> str:
    if unit == "party":
        return f"Sources name different people or bodies: {', '.join(sorted(values))}"
    return f"Sources give different {unit} values: {', '.join(sorted(values))}"


def find_disagreements(
    question: str, envelopes: Iterable[Mapping[str, Any] | Envelope], store: KnowledgeStore
) -> list[ContestedPoint]:
    """Conflicting values about the question's subject in the retrieved evidence."""
    asked_events = event_kinds(question)
    subject_terms = [t for t in content_terms(question) if t not in EVENT_WORDS]
    units = _wanted_units(question)
    subject_pairs = _pairs(question)
    # a proper name the question gives ("Gullrun" in "the ferry MV Gullrun") pins the subject
    names = {stem(w.lower()) for w in re.findall(r"(?<=\s)[A-Z][a-z]{2,}\w*", question)
             if w.lower() not in STOPWORDS and w.lower() not in EVENT_WORDS}
    # and a statement about another one is not about the question ("Greta Morrow", not
    # "Oskar Velde", when both joined Meridian Freight)
    # the subject words that are not names: what is said about the subject ("retire")
    named_words = {stem(w.lower()) for n in NAME.finditer(question) for w in n.group(0).split()}
    predicate = [t for t in subject_terms if stem(t) not in named_words and not _VALUE_WORD.match(t)]
    name_phrases = [
        " ".join(words) for name in question_names(question)
        if (words := [w for w in name.split() if re.fullmatch(r"[A-Z][a-z]{2,}\w*", w)])
    ]
    codes = _codes(question)
    relation = next(iter(content_terms(question)), None) if units == {"party"} else None
    relevant: list[tuple[ValueStatement, set[str], set[tuple[str, str]], str]] = []
    named = _named_values(question)
    for found, title, lead in statements(
        envelopes, question, parties=units == {"party"}, counts=units is not None and "count" in units,
        lengths=units is not None and "length" in units,
    ):
        if units is not None and found.unit not in units:
            continue
        # a value the question names is part of its subject ("the 2025 review"), not an answer
        statement = replace(found, values=tuple(v for v in found.values if v not in named))
        context = f"{title}\n{lead}" if lead and _REFERS_BACK.search(statement.sentence) else title
        text = f"{context}\n{statement.sentence}"
        if not statement.values:
            continue
        if statement.unit == "party" and not _mentions_subject(
            subject_terms, relation, _own_words(statement, lead)
        ):
            continue
        if (coverage(subject_terms, text) >= QUESTION_FIT and codes <= _codes(text)
                and all(holds_name(n, stems(text)) for n in name_phrases)):
            relevant.append((statement, stems(text), _pairs(context) | _pairs(statement.sentence), lead))
    entries = store.contradictions(status=None)
    recorded = [content_terms(p.statement) for entry in entries for p in entry.positions]
    points: dict[tuple[str, ...], ContestedPoint] = {}
    for i, (left, left_stems, left_pairs, left_lead) in enumerate(relevant):
        for right, right_stems, right_pairs, right_lead in relevant[i + 1 :]:
            if left.doc_id == right.doc_id or not left.validity.overlaps(right.validity):
                continue  # one document, or rules in force at different times: a change
            unit = _common_unit(left.unit, right.unit)
            if unit is None:
                continue
            lv, rv = _values(left, unit), _values(right, unit)
            if lv & rv:
                continue
            shared = [t for t in subject_terms if term_covered(t, left_stems & right_stems)]
            if len(shared) < min(2, len(subject_terms)):
                continue
            if not _same_fact((left, left_lead), (right, right_lead), asked_events, relation,
                              subject_terms, predicate):
                continue
            if (len(subject_terms) > 2 and not subject_pairs & left_pairs & right_pairs
                    and not names & left_stems & right_stems):
                continue  # they name different things that share the question's words
            if _versions(store, left.doc_id, right.doc_id):
                continue
            if any(_holds(entry, left, right, unit, lv | rv) for entry in entries) or any(
                _restates(terms, s.sentence) for terms in recorded for s in (left, right)
            ):
                continue  # the register already holds this disagreement (open or settled)
            key = tuple(sorted((left.doc_id, right.doc_id)))
            points.setdefault(
                key,
                ContestedPoint(
                    topic=_topic(unit, lv | rv),
                    positions=(
                        StatedPosition(statement=left.sentence, source_ids=(left.doc_id,)),
                        StatedPosition(statement=right.sentence, source_ids=(right.doc_id,)),
                    ),
                    status="unrecorded",
                ),
            )
    return list(points.values())


def _versions(store: KnowledgeStore, a: str, b: str) -> bool:
    """Whether one document supersedes the other (a change, not a disagreement)."""
    doc_a, doc_b = store.get_document(a), store.get_document(b)
    return bool(
        (doc_a and b in doc_a.supersedes) or (doc_b and a in doc_b.supersedes)
    )

"""What retrieved passages state: values, with the sentence, its passage's title and lead.

The disagreement policy (``disagreement.py``) compares these statements; this module only
reads them. A statement is a ``ValueStatement``: dates, years, amounts, percentages and
durations (``knowledge/ingest/extract.py``), and on request the people and bodies a
sentence names (for a who-question), plain counts (how many) and lengths.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from groundgate.knowledge.ingest.contradictions import normal_value
from groundgate.knowledge.ingest.extract import ValueStatement, sentences, statements_in
from groundgate.knowledge.model import Validity
from groundgate.knowledge.text import content_terms, term_covered
from groundgate.reading.evidence import table_rows_apart
from groundgate.tools.envelope import Envelope, read_envelopes

__all__ = [
    "CODE", "MAKING", "NAME", "count_statements", "has_time", "holds_name", "making", "question_names",
    "statements",
]

_FIELD = re.compile(r"\s+(?=[A-Z][A-Za-z]*(?: [A-Za-z]+)?: )")
"""Where a run-in field starts: "... Distribution Date: 18 February 2026 Subject: ..."."""

CODE = re.compile(r"^[a-z]+(?:[-_/][a-z0-9]+)*[-_/]\d+[a-z0-9]*$")
"""A lowercased identifier token: ``clm-1108``, ``dr-017``."""

NAME = re.compile(r"[A-Z][\w&'.-]*(?:\s+(?:(?:of|and|for|the|&)\s+)?[A-Z][\w&'.-]*)*")
"""A run of capitalised words: "Claims Technical Committee", "Lenth & Partners"."""
_JOINER = re.compile(r"^(?:(?:of|and|for|the|&)\s+)+")


def question_names(question: str) -> list[str]:
    """The names a question gives, without its opening word.

    A question's first word is capitalised because it opens the sentence ("Does", "Which"),
    so it is no part of a name: "Does Ostrum Green contain chromium?" names "Ostrum Green",
    "Does the AeroSense Two Pro support Bluetooth?" names "AeroSense Two Pro".
    """
    out = []
    for match in NAME.finditer(question):
        text = match.group(0)
        if match.start() == 0 or not question[: match.start()].strip():
            text = _JOINER.sub("", text.split(None, 1)[1] if len(text.split()) > 1 else "")
        if text:
            out.append(text)
    return out


def holds_name(name: str, found: set[str]) -> bool:
    """Whether stems ``found`` hold a name: all of a name of one or two words, half of a longer one.

    "AeroSense One" is not "AeroSense Two"; "the valley" and "the park" are "Kestrel Valley
    Country Park".
    """
    words = content_terms(name)
    held = sum(term_covered(w, found) for w in words)
    return not words or (held == len(words) if len(words) <= 2 else 2 * held >= len(words))


_NOT_NAMES = frozenset(
    "january february march april may june july august september october november december "
    "monday tuesday wednesday thursday friday saturday sunday i".split()
)


def has_time(text: str) -> bool:
    """Whether ``text`` names a year."""
    return bool(re.search(r"\b(?:1[5-9]|20)\d\d\b", text))


MAKING = frozenset(
    "built build builds designed design designs made make makes created create creates constructed "
    "erected painted wrote written writes composed composes founded established".split()
)
"""Relations that are one act, not a role held over time ("built", not "directs")."""


_AGENT = re.compile(
    r"\b(?:by|the work of)\s+(?:(?:the|an?|his|her|their|its|[a-z]+),?\s+){0,3}(?=[A-Z])"
)
"""What comes before a maker's name: "built by", "by his father,", "the work of the engineer"."""


def _parties(
    doc_id: str, text: str, question: str, validity: Validity, *, making: bool = False
) -> list[ValueStatement]:
    """One statement per sentence naming people or bodies the question does not name.

    A name is a run of capitalised words ("Claims Technical Committee", "Dana Whitfield");
    a lone capitalised word opening the sentence is not one ("Decision owner: ...").
    Sentences with a year are left out (a role at a time) unless the question asks who
    did one thing (``making``): then the year is when ("built by Hedda Voss ... in 1867"),
    and only the maker counts, named after "by" or "the work of" (not the place, "founded
    in Port Ellery by Anders Velde").
    """
    asked = {w.lower() for w in re.findall(r"[\w&'.-]+", question)}
    out = []
    for sentence in sentences(text):
        if has_time(sentence) and not making:
            continue  # "Lena Voss, since 2019": a role at a time, not a standing fact
        agents = {m.end() for m in _AGENT.finditer(sentence)} if making else set()
        names = set()
        for match in NAME.finditer(sentence):
            words = match.group(0).split()
            if match.start() == 0 and len(words) == 1:
                continue
            if making and match.start() not in agents:
                continue
            kept = [w for w in words if w.lower() not in asked and w.lower() not in _NOT_NAMES]
            if kept and not CODE.match(" ".join(kept).lower()):
                names.add(" ".join(words).lower().rstrip("."))
        if names:
            out.append(ValueStatement(doc_id, sentence, "party", tuple(sorted(names)), (), validity))
    return out


_NOT_COUNTS = re.compile(
    r"(?:GBP|USD|EUR|£|\$|€)\s?\d[\d,.]*"  # amounts
    r"|\b\d+(?:\.\d+)?\s?(?:%|per ?cent)"  # percentages
    r"|\b\d+[- ](?:year|month|week|day|hour)s?\b"  # durations
    r"|\b\d{1,2} [A-Z][a-z]+\.? \d{4}\b|\b[A-Z][a-z]+\.? \d{1,2},? \d{4}\b|\b\d{4}-\d{2}-\d{2}\b"  # dates
    r"|\b(?:1[5-9]|20)\d\d\b"  # years
    r"|\b[A-Za-z]+(?:[-_/][A-Za-z0-9]+)*[-_/]\d+\w*"  # identifiers
    r"|\b\d+(?:st|nd|rd|th)\b"  # ordinals
    r"|\b(?:[A-Z][a-z]*|version|edition|section|part|chapter|article|level|phase|step|stage|item|page"
    r"|room|no|number|route|zone|grade|tier|class|type)\.?\s+\d+\b"  # labels: Edition 2, route 66
)
_COUNT = re.compile(r"\b(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?:\s+(thousand|million|billion))?\b", re.I)
_SCALE = {"thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}


_UNITS = "two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen" \
    " seventeen eighteen nineteen".split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_NUMBER_WORDS = {w: n for n, w in enumerate(_UNITS, start=2)} | {
    w: 10 * n for n, w in enumerate(_TENS, start=2)}
_COUNT_WORD = re.compile(
    r"\b(" + "|".join(_TENS) + r")[- ](one|" + "|".join(_UNITS[:8]) + r")\b"  # twenty-five
    r"|\b(" + "|".join(_UNITS + _TENS) + r")\b(?![- ](?:year|month|week|day|hour)s?\b)",  # six items
    re.I,
)
"""A count in words. "one" is left out: it is far more often a pronoun ("one of the ...")."""


def _word_counts(sentence: str) -> set[str]:
    """The counts a sentence writes in words ("up to six items", "twenty-five stalls")."""
    found = set()
    for match in _COUNT_WORD.finditer(sentence):
        if match.group(1):
            ones = match.group(2).lower()
            tens = _NUMBER_WORDS[match.group(1).lower()]
            found.add(str(tens + (1 if ones == "one" else _NUMBER_WORDS[ones])))
        else:
            found.add(str(_NUMBER_WORDS[match.group(3).lower()]))
    return found


def count_statements(doc_id: str, text: str, validity: Validity) -> list[ValueStatement]:
    """One statement per sentence stating plain numbers, in digits or in words.

    Amounts, dates, years and ids are not counts; "up to six items" is one.
    """
    out = []
    for sentence in sentences(text):
        values = _word_counts(sentence)
        for match in _COUNT.finditer(_NOT_COUNTS.sub(" ", sentence)):
            number = float(match.group(1).replace(",", "") + "." + (match.group(2) or "0"))
            number *= _SCALE.get((match.group(3) or "").lower(), 1)
            values.add(str(int(number)) if number.is_integer() else str(number))
        if values:
            found = tuple(sorted(values))
            out.append(ValueStatement(doc_id, sentence, "count", found, (), validity))
    return out


_LENGTH = re.compile(
    r"\b(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)[\s-]?(kilometres|kilometers|km|metres|meters|metre|meter|m"
    r"|centimetres|centimeters|cm|feet|foot|ft|miles|mile|yards|yard|inches|inch)\b",
    re.I,
)
_LENGTH_UNITS = {"kilometre": "km", "kilometer": "km", "metre": "m", "meter": "m", "centimetre": "cm",
                 "centimeter": "cm", "feet": "ft", "foot": "ft", "mile": "mi", "yard": "yd",
                 "inche": "in", "inch": "in"}


def _lengths(doc_id: str, text: str, validity: Validity) -> list[ValueStatement]:
    """One statement per sentence stating lengths ("54 metres", "the 58-metre ferry")."""
    out = []
    for sentence in sentences(text):
        values = set()
        for match in _LENGTH.finditer(sentence):
            unit = match.group(2).lower().rstrip("s")
            unit = _LENGTH_UNITS.get(unit, unit)
            values.add(f"{normal_value('length', match.group(1).replace(',', ''))} {unit}")
        if values:
            found = tuple(sorted(values))
            out.append(ValueStatement(doc_id, sentence, "length", found, (), validity))
    return out


def statements(
    envelopes: Iterable[Mapping[str, Any] | Envelope], question: str = "", parties: bool = False,
    counts: bool = False, lengths: bool = False,
) -> list[tuple[ValueStatement, str, str]]:
    """Every value statement in the retrieved passages, with the passage's title and lead.

    The lead is the passage's first sentence when the statement is not it: an article
    names its subject there and then says "it" or "she" ("She established her own company
    in 1871"). ``parties`` adds the people and bodies each sentence names (for a
    who-question), ``counts`` the plain numbers (for a how-many question).
    """
    seen: set[tuple[str, str]] = set()
    out: list[tuple[ValueStatement, str, str]] = []
    for env in read_envelopes(envelopes):
        if env.error or env.tool not in ("search_evidence", "get_source"):
            continue
        for item in env.results:
            for sid in item.source_ids:
                key = (sid, item.snippet)
                if key in seen:
                    continue
                seen.add(key)
                context = item.title
                validity = item.validity or Validity()
                # an email's header lines arrive run together; each field is its own statement
                # and a table's rows, joined onto one line by the snippet, are apart again
                text = table_rows_apart(_FIELD.sub("\n", item.snippet))
                first = next(iter(sentences(text)), "")
                found = statements_in(sid, text, validity)
                if parties:
                    found += _parties(sid, text, question, validity, making=making(question))
                if counts:
                    found += count_statements(sid, text, validity)
                if lengths:
                    found += _lengths(sid, text, validity)
                out.extend((s, context, first if s.sentence != first else "") for s in found)
    return out


def making(question: str) -> bool:
    """Whether a question asks who made or founded something (one act, not a role)."""
    return next(iter(content_terms(question)), "") in MAKING

"""Rule-based extraction that works offline on any corpus.

- identifiers (``CLM-1108``, ``INS-SYN-003``, ``DR-014``) and the names of known entities
  and document titles found in a body become ``mentions`` edges;
- defined terms (``"Excess" means ...``, ``**Excess**: ...``) become term entities;
- sentences that state a value (an amount, a duration, a percentage, a date, a year)
  become ``ValueStatement`` records for the contradiction detector.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from groundgate.knowledge.model import Document, Entity, Validity
from groundgate.knowledge.text import STOPWORDS, stem

__all__ = [
    "IDENTIFIER",
    "MentionIndex",
    "ValueStatement",
    "dateline",
    "defined_terms",
    "find_mentions",
    "sentences",
    "statements_in",
    "value_statements",
    "without_dateline",
]

IDENTIFIER = re.compile(r"\b[A-Z][A-Z0-9]{1,9}(?:-[A-Z0-9]{1,10})*-\d{2,}[A-Z]?\b")
"""Upper-case identifiers with a numeric tail: claim, policy, document, decision ids."""

_DIGIT = re.compile(r"\d")
_MAX_NAME_WORDS = 6
_WORD = re.compile(r"[a-z0-9][a-z0-9'\-]*")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])|\n+")
_MONTHS = (
    "january february march april may june july august september october november december"
).split()
_MONTH = r"(?:" + "|".join(m.capitalize() for m in _MONTHS) + r"|" + "|".join(
    m[:3].capitalize() for m in _MONTHS
) + r")"
_DATE = re.compile(
    rf"\b(\d{{4}}-\d{{2}}-\d{{2}}|\d{{1,2}} {_MONTH}\.? \d{{4}}|{_MONTH}\.? \d{{1,2}},? \d{{4}})\b"
)
_VALUE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("money", re.compile(r"(?:GBP|USD|EUR|£|\$|€)\s?(\d[\d,]*(?:\.\d+)?)")),
    ("percent", re.compile(r"\b(\d+(?:\.\d+)?)\s?(?:%|per ?cent)")),
    (
        "duration",
        re.compile(r"\b(\d+)[- ](year|month|week|day|hour)s?\b", re.IGNORECASE),
    ),
)
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_MONTH_PREFIXES = tuple(m[:3].capitalize() for m in _MONTHS)
_MONTH_WORDS = frozenset(_MONTHS)
_YEAR = re.compile(r"\b(1[5-9]\d\d|20\d\d)\b")
_DEFINED = (
    re.compile(r"^[\"“']?(?P<term>[A-Z][\w\- ]{1,60}?)[\"”']? means\b"),
    re.compile(r"^\*\*(?P<term>[^*]{2,60})\*\*\s*[:—-]"),
)


@dataclass(frozen=True, slots=True)
class ValueStatement:
    """A sentence that states a value about a subject.

    Ingest keeps one for every value sentence of the corpus until it has compared them
    all, so it is small: slots, and the subject as a sorted tuple rather than a frozenset
    (a frozenset of five words is 728 bytes, the tuple 88).
    """

    doc_id: str
    sentence: str
    unit: str
    values: tuple[str, ...]
    subject: tuple[str, ...]
    """The subject's word stems, distinct and sorted."""
    validity: Validity


def sentences(text: str) -> list[str]:
    """Split text into sentences (and list items), stripped, non-empty."""
    return list(_sentences(text))


@lru_cache(maxsize=8)
def _sentences(text: str) -> tuple[str, ...]:
    # Ingest splits every body twice in a row (defined terms, then value statements).
    return tuple(s.strip(" -*\t") for s in _SENTENCE.split(text) if s and s.strip(" -*\t"))


class MentionIndex:
    """Names to find in bodies, indexed by their first word so a scan is linear.

    Build it once per ingest and call :meth:`find` per document; the result is the same
    as :func:`find_mentions` with the same ``names``.
    """

    def __init__(self, names: dict[str, str]) -> None:
        self.names = names
        sizes: dict[str, set[int]] = {}
        seconds: dict[str, set[str]] = {}
        for key in names:
            parts = key.split(" ")
            # a body n-gram is 1..6 non-empty words joined by single spaces
            if len(parts) <= _MAX_NAME_WORDS and all(parts):
                sizes.setdefault(parts[0], set()).add(len(parts))
                if len(parts) > 1:
                    seconds.setdefault(parts[0], set()).add(parts[1])
        self._sizes = {first: sorted(found) for first, found in sizes.items()}
        self._seconds = seconds

    def find(self, body: str, self_id: str) -> set[str]:
        """Entity ids whose name occurs in ``body``, without ``self_id``."""
        names = self.names
        found = {
            names[m.group(0).lower()]
            for m in IDENTIFIER.finditer(body)
            if m.group(0).lower() in names
        }
        words = _WORD.findall(body.lower())
        count = len(words)
        index = self._sizes
        for start in [i for i, w in enumerate(words) if w in index]:
            word = words[start]
            for size in index[word]:
                if start + size > count:
                    break
                if size == 1:
                    gram = word
                elif words[start + 1] not in self._seconds[word]:
                    break  # every longer name starting here needs this second word
                else:
                    gram = " ".join(words[start : start + size])
                target = names.get(gram)
                if target and (size > 1 or len(gram) >= 6):
                    found.add(target)
        found.discard(self_id)
        return found


def find_mentions(body: str, names: dict[str, str], self_id: str) -> set[str]:
    """Entity ids whose lowercased name (a key of ``names``) occurs in ``body``.

    Identifiers match anywhere; other names must be at least two words or six letters,
    so that common words do not become edges. For many bodies, build a
    :class:`MentionIndex` once instead.
    """
    return MentionIndex(names).find(body, self_id)


def defined_terms(doc: Document) -> list[tuple[str, str]]:
    """(term, defining sentence) pairs stated in ``doc``."""
    out: list[tuple[str, str]] = []
    for sentence in _sentences(doc.body):
        for pattern in _DEFINED:
            match = pattern.match(sentence)
            if match:
                term = match.group("term").strip()
                if len(term.split()) <= 6:
                    out.append((term, sentence))
                break
    return out


def _may_hold_date(text: str) -> bool:
    """False only when ``_DATE`` cannot match: it needs an ISO date or a month's name."""
    return any(m in text for m in _MONTH_PREFIXES) or (
        "-" in text and _ISO_DATE.search(text) is not None
    )


def _subject(sentence: str, drop: list[str]) -> tuple[str, ...]:
    text = sentence
    for surface in drop:
        text = text.replace(surface, " ")
    if _may_hold_date(text):
        text = _DATE.sub(" ", text)
    words = re.findall(r"[a-z][a-z'\-]+", text.lower())
    return tuple(sorted({
        stem(w) for w in words if w not in STOPWORDS and w not in _MONTH_WORDS and len(w) > 2
    }))


def value_statements(doc: Document) -> list[ValueStatement]:
    """One statement per sentence and unit of value in ``doc``, with its subject words."""
    return statements_in(doc.id, doc.body, doc.validity)


def _dateline_at(text: str) -> int | None:
    """The index among ``text``'s lines of its own date line (see ``dateline``), if it opens with one."""
    for index, raw in enumerate(text.splitlines()):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if not (_DIGIT.search(line) and _may_hold_date(line) and _DATE.search(line)):
            return None
        words = len(line.split())
        emphasised = len(line) > 2 and line[0] in "*_" and line[-1] in "*_" and words <= 24
        # a label is short: "From: ... To: ... Date: ... Subject: ..." is an e-mail's header
        unpunctuated = not line.rstrip("*_ ").endswith((".", "!", "?")) and words <= 12
        return index if emphasised or unpunctuated else None
    return None


def dateline(text: str) -> str | None:
    """The document's own date line, when its body opens with one (it states nothing).

    The first line under the title that holds a date and reads as a label, not a sentence:
    wrapped in emphasis (``*Brackhaven Athletic FC — Club news — 14 April 2025*``), or
    short and without a full stop (``COASTLINE WIRE | 14 Jan 2025 | 11:02``). Each document of a
    series carries its own, with its own date: two of them are two documents, not a dispute.
    """
    index = _dateline_at(text)
    return None if index is None else text.splitlines()[index].strip().strip(" -*\t")


def without_dateline(text: str) -> str:
    """``text`` without its own date line (unchanged when it opens with none)."""
    index = _dateline_at(text)
    if index is None:
        return text
    lines = text.splitlines()
    return "\n".join(lines[:index] + lines[index + 1:])


def statements_in(doc_id: str, text: str, validity: Validity) -> list[ValueStatement]:
    """One statement per sentence and unit of value in ``text``."""
    out: list[ValueStatement] = []
    own_date = dateline(text)
    for sentence in _sentences(text):
        if len(sentence) > 400 or not _DIGIT.search(sentence):
            continue  # every value pattern (amounts, dates, years) needs a digit
        if sentence.startswith("#"):
            continue  # a heading names a section ("# Minutes of 20 January 2025"), it states nothing
        if own_date and sentence in own_date:
            continue  # the document's own date line
        found: list[tuple[str, str, str]] = []
        for unit, pattern in _VALUE_PATTERNS:
            for match in pattern.finditer(sentence):
                value = match.group(1).replace(",", "")
                # a duration is "years", "days", ...: never the calendar "year" of a date
                label = unit if unit != "duration" else match.group(2).lower() + "s"
                found.append((label, value, match.group(0)))
        dated = _may_hold_date(sentence)
        if dated:
            for match in _DATE.finditer(sentence):
                found.append(("date", match.group(0), match.group(0)))
        if not found:
            stripped = _DATE.sub(" ", sentence) if dated else sentence
            found = [("year", m.group(1), m.group(0)) for m in _YEAR.finditer(stripped)]
        by_unit: dict[str, list[tuple[str, str]]] = {}
        for unit, value, surface in found:
            by_unit.setdefault(unit, []).append((value, surface))
        for unit, pairs in by_unit.items():
            out.append(
                ValueStatement(
                    doc_id=doc_id,
                    sentence=sentence,
                    unit=unit,
                    values=tuple(sorted({v for v, _ in pairs})),
                    subject=_subject(sentence, [surface for _, surface in pairs]),
                    validity=validity,
                )
            )
    return out


def term_entity(term: str, sentence: str, doc: Document) -> Entity:
    """The entity for a defined term found in ``doc``."""
    slug = re.sub(r"[^a-z0-9]+", "-", term.lower()).strip("-")
    return Entity(
        id=f"term:{slug}",
        kind="term",
        name=term,
        description=sentence,
        source_ids=(doc.id,),
        origin="extracted",
    )

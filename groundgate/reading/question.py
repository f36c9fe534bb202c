"""Reading a question: its mentions, its dates, what it asks for, whether it is about time.

The offline planner plans and answers from this analysis; nothing here knows a corpus.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date

from groundgate.knowledge.text import STOPWORDS, content_terms, key_parts
from groundgate.reading.slot import LEADING_PREPOSITION, asked_kind, is_verb_like, scene_set
from groundgate.reading.text import (
    IDENTIFIER,
    capitalised_names,
    find_dates,
    find_years,
    term_key,
)

__all__ = ["Question", "analyse", "clauses", "parse_prompt"]

MAX_MENTIONS = 3

_TEMPORAL_CUES = re.compile(
    r"\b(changed?|changes|when|before|after|since|still|history|version|versions|edition|"
    r"in force|at the time|current|currently|now|no longer|until|effective|superseded|"
    r"replaced|previous|earlier|later|originally|first|latest|as of|on the date|"
    r"date of|took effect|take effect|live)\b",
    re.IGNORECASE,
)
_AT_DATE = re.compile(r"\b(?:on|as of|as at|at|in|during|by)\s+$", re.IGNORECASE)
_EVENT_DATE = re.compile(
    r"\b(?:on the date of|the date of|at the time of|on the day of|when (?:it|the \w+) was)\s+"
    r"(?:the\s+)?(\w+)",
    re.IGNORECASE,
)
_EXACT = re.compile(r"\b(exact|exactly|precise|precisely|confirmed|final|total|actual)\b", re.I)
_GENERIC = frozenset(
    """what which who whom whose when where why how did does do is are was were be been
    tell know find say says said according kind type one many much""".split()
)
_VALUE_WORDS = frozenset(
    "date day time times year month number amount sum figure value total much many long often"
    " tall high deep wide far".split()
)
_ROLE = re.compile(
    r"\s*who\s+(?:is|was|are|were|has been|had been|will be)\s+(?:the\s+)?(?:[a-z\-]+\s+){0,2}?"
    r"([a-z\-]{3,})\s+(?:of|at|for|in|on)\s+(?:the\s+)?[A-Z]",
    re.IGNORECASE,
)
_DESCRIBED = re.compile(
    r"\b(?:was|is|were|are|did|does|do|has|had)\s+the\s+(?:[a-z\-]+\s+){0,2}?[a-z\-]+\s+of\s+(?:the\s+)?"
    r"[A-Z][\w'&\-]*(?:\s+(?:of\s+|the\s+|&\s+)?[A-Z][\w'&\-]*)*\s+[a-z]{3,}"
)
"""``was the founder of Corran Yard born``: a role of a named thing, then more about it."""
_QUALIFIERS = frozenset("exact exactly precise precisely final actual confirmed".split())
TYPE_WORDS = frozenset(
    """amount sum figure date day year month time number age period value price cost total
    percentage percent rate count long old often much many tall high deep wide far height
    width depth distance length""".split()
)
"""Words that name the kind of value asked for rather than the subject."""


@dataclass(frozen=True)
class Question:
    """What the planner knows about a question before any tool call.

    Attributes:
        text: The question as asked.
        as_of: The date given with the question, if any.
        mentions: Names and identifiers to resolve, most specific first.
        terms: Distinct content words, in order.
        asks: The kind of answer wanted: ``date``, ``time`` (of day), ``money``, ``number``,
            ``duration``, ``percent``, ``length``, ``weight``, ``name``, ``entity`` (a which/what-N
            question), ``yesno`` or ``text``.
        head: Comparison keys of the noun the question asks about (``which team`` ->
            ``team``), empty when there is none.
        temporal: Whether the question is about change or time.
        text_date: A date the question pins itself to (``on 3 May 2024``), if any.
        year: A year the question pins itself to (``in 2003``), if any.
        event: The event whose date matters (``date of loss`` -> ``loss``), if any.
        exact: Whether the question insists on an exact, final or total value.
    """

    text: str
    as_of: date | None
    mentions: tuple[str, ...]
    terms: tuple[str, ...]
    asks: str
    head: tuple[str, ...]
    temporal: bool
    text_date: date | None
    year: int | None
    event: str | None
    exact: bool

    @property
    def relative(self) -> bool:
        """Whether the subject is described rather than named (a multi-hop mark).

        ``the engineer who designed X``, or ``the founder of X`` when the question goes on
        to ask about that founder (``... of Corran Yard born?``); ``the population of X?``
        asks for X's population itself. The question's own word is no relative clause,
        after a preposition either: "In which century was the Psalter written?".
        """
        asked = LEADING_PREPOSITION.sub("", self.text.lstrip().lower())
        return bool(re.search(r"\w\s+(who|whom|whose|that|which|where)\s+\w", asked[1:])
                    or self.described)

    @property
    def role(self) -> str:
        """The key of the role a who-question asks about, or ``""``.

        ``Who was the first keeper of X`` -> ``keeper``.
        """
        match = _ROLE.match(self.text)
        return term_key(match.group(1)) if match else ""

    @property
    def described(self) -> bool:
        """Whether it asks about a role of a named thing: ``was the founder of X born``."""
        return bool(_DESCRIBED.search(self.text))

    @property
    def focus(self) -> tuple[str, ...]:
        """What an answer sentence should cover.

        Content terms minus wh-words, bare value words (``date``, ``amount``) and the
        pinned year.
        """
        pinned = {str(self.year)} if self.year else set()  # the date is matched, not searched
        span = _range_years(self.text)
        if span:
            pinned |= {str(span[0]), str(span[1]), f"{span[0]}-{span[1]}"}
        return tuple(
            t for t in self.terms if t not in _GENERIC and t not in _VALUE_WORDS and t not in pinned
        )

    @property
    def predicate(self) -> tuple[str, ...]:
        """Focus terms that are neither mention words nor value-kind words."""
        mention_keys = {term_key(w) for m in self.mentions for w in re.findall(r"\w+", m)}
        return tuple(
            t for t in self.focus
            if t not in TYPE_WORDS and t not in _QUALIFIERS and term_key(t) not in mention_keys
            and not any(term_key(p) in mention_keys for p in key_parts(t))
        )


def parse_prompt(content: str) -> tuple[str, date | None]:
    """Split the plan node's human message into (question, as_of).

    Accepts ``Question: ...`` / ``As of: YYYY-MM-DD`` lines, or a bare question.
    """
    question, as_of = content.strip(), None
    match = re.search(r"^\s*Question:[ \t]*(.*?)\s*(?:\n\s*As of:|\Z)", content, re.S | re.M)
    if match:
        question = match.group(1).strip()
    when = re.search(r"^\s*As of:\s*(\d{4}-\d{2}-\d{2})", content, re.M)
    if when:
        try:
            as_of = date.fromisoformat(when.group(1))
        except ValueError:
            as_of = None
    return question, as_of


def mentions_of(text: str) -> tuple[str, ...]:
    """Identifiers, quoted phrases and capitalised names, most specific first, at most 3."""
    found: list[str] = [m.group(0) for m in IDENTIFIER.finditer(text)]
    # a quote opens and closes between words: "Athletic's supporters' share" quotes nothing
    found += [q.strip() for q in re.findall(r"(?<!\w)[\"“'‘]([^\"”'’]{3,80})[\"”'’](?!\w)", text)]
    names = capitalised_names(text, skip_initial=True)
    names = [re.sub(r"['’]s$", "", n) for n in names]
    found += sorted((n for n in names if " " in n), key=lambda n: -len(n))
    found += [n for n in names if " " not in n]
    chosen: list[str] = []
    for mention in found:
        lowered = mention.lower()
        if any(lowered in c.lower() or c.lower() in lowered for c in chosen):
            continue
        if IDENTIFIER.fullmatch(mention) is None and (len(mention) < 2 or lowered in _GENERIC):
            continue
        chosen.append(mention)
    return tuple(chosen[:MAX_MENTIONS])


def head_noun(text: str) -> tuple[str, ...]:
    """The noun a ``which/what N ...`` or ``X's N`` question asks about, as a comparison key."""
    lowered = LEADING_PREPOSITION.sub("", text.lower())
    cased = re.findall(r"[^\W_][\w\-']*", text[len(text) - len(lowered):])
    words = [w.lower() for w in cased]
    if (
        len(words) >= 3 and words[0] in ("which", "what") and words[1] not in STOPWORDS
        and not is_verb_like(words[1], words[2])
    ):
        run: list[str] = []
        for index, word in enumerate(words[1:5], start=1):
            following = words[index + 1] if index + 1 < len(words) else ""
            # "which firm employed Lena Voss": a verb before a name ends the noun
            before_name = index + 1 < len(cased) and cased[index + 1][:1].isupper()
            if word in STOPWORDS or (run and (is_verb_like(word, following) or (
                    before_name and word.endswith("ed")))):
                break
            run.append(word)
        keys = [term_key(w) for w in run if w not in TYPE_WORDS | _QUALIFIERS]
        if keys:
            return (keys[-1],)
    match = re.search(r"\b(?:what|which)\s+(?:is|was|are|were)\s+the\s+((?:[a-z\-]+\s+){0,2}?"
                      r"[a-z\-]+)\s+(?:of|for|on|in|that|which|under|to)\b", text.lower())
    match = match or re.search(r"['’]s\s+((?:[a-z\-]+\s+){0,2}?[a-z\-]+)\s*(?:\b(?:at|of|in|on|for|"
                               r"with|during|before|after)\b|\?|$)", text.lower())
    if match:
        phrase = match.group(1).split()
        # "Kittiwake Ward's patients looked after": the verb ends the noun
        cut = next((i for i, w in enumerate(phrase[1:], start=1)
                    if is_verb_like(w, (phrase[i + 1:] or [_after(text, match)])[0])), len(phrase))
        keys = [term_key(w) for w in phrase[:cut]
                if w not in TYPE_WORDS | _GENERIC | _QUALIFIERS]
        if keys:
            return (keys[-1],)
    return ()


def _after(text: str, match: re.Match[str]) -> str:
    """The word after a match (``""`` at the end)."""
    rest = re.findall(r"[a-z]+", text.lower()[match.end(1):])
    return rest[0] if rest else ""


def event_of(text: str) -> str | None:
    """The event whose date anchors the question (``date of loss`` -> ``loss``)."""
    match = _EVENT_DATE.search(text)
    return match.group(1).lower() if match else None


_YEAR_RANGE = re.compile(
    r"\b(?:between|from)\s+(1[5-9]\d\d|20\d\d)\s+(?:and|to|until|till)\s+(1[5-9]\d\d|20\d\d)\b"
    r"|\b(1[5-9]\d\d|20\d\d)\s*[-–]\s*(1[5-9]\d\d|20\d\d)\b"
)
"""A range of years a question asks about: "between 2000 and 2005", "from 2009 to 2012"."""


def _range_years(text: str) -> tuple[int, int] | None:
    match = _YEAR_RANGE.search(text)
    if not match:
        return None
    first, last = (int(y) for y in match.groups() if y)
    return (first, last) if first <= last else None


def pinned_date(text: str) -> tuple[date | None, int | None]:
    """A full date or a year the question is pinned to by ``on/as of/in/during``.

    A range of years ("from 2009 to 2012") is pinned to its middle year: what held
    through the range held then.
    """
    span = _range_years(text)
    if span:
        return None, (span[0] + span[1]) // 2
    for offset, day in find_dates(text):
        if _AT_DATE.search(text[:offset]):
            return day, day.year
    for match in re.finditer(r"\b(1[5-9]\d\d|20\d\d)\b", text):
        before = text[: match.start()]
        after = text[match.end() : match.end() + 12]
        if _AT_DATE.search(before) and not re.match(r"\s*[A-Z]", after):
            return None, int(match.group(1))
    years = find_years(text)
    return None, (years[0] if len(years) == 1 and re.search(r"\bin \d{4}\b", text) else None)


def analyse(text: str, as_of: date | None = None) -> Question:
    """Analyse a question (see ``Question``)."""
    text_date, year = pinned_date(text)
    return Question(
        text=text,
        as_of=as_of,
        mentions=mentions_of(text),
        terms=tuple(content_terms(text)),
        asks=asked_kind(text),
        head=head_noun(text),
        temporal=bool(_TEMPORAL_CUES.search(text) or text_date or year or as_of),
        text_date=text_date,
        year=year,
        event=event_of(text),
        exact=bool(_EXACT.search(text)),
    )


_CLAUSE_BREAK = re.compile(
    r"(?:,\s*(?:and\s+|but\s+)?|\s+(?:and|but)\s+|[.;?]\s+)"
    r"(?=(?:what|which|who|whom|whose|when|where|why|how|does|do|did|is|are|was|were|can|"
    r"could|should|has|have|had|will|would|by when)\b)",
    re.IGNORECASE,
)


def clauses(q: Question) -> list[Question]:
    """The question's parts (``Which X ..., and what Y ...?``), each analysed on its own.

    Every part keeps the whole question's mentions, date and time-mindedness, since a
    later part usually refers back (``... what did it cost?``).
    """
    parts = [p.strip(" ,;?.") for p in _CLAUSE_BREAK.split(q.text)]
    if len(parts) > 1 and scene_set(q.text):
        parts[:2] = [f"{parts[0]}, {parts[1]}"]  # "When the ward reopened, were ...": one part
    parts = [p for p in parts if len(p.split()) >= 3]
    if len(parts) <= 1:
        return [q]
    out = []
    for part in parts:
        sub = analyse(part + "?", q.as_of)
        out.append(replace(sub, mentions=q.mentions, temporal=q.temporal,
                           text_date=q.text_date, year=q.year, event=q.event))
    return out

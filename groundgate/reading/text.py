"""Lexical helpers of the offline planner: dates, values, names, stems with synonyms.

Everything here is a small pure function over strings, so the planner's rules can be
tested one at a time and behave the same on any corpus.
"""

from __future__ import annotations

import re
from datetime import date
from functools import lru_cache

from groundgate.knowledge.ingest.extract import IDENTIFIER
from groundgate.knowledge.text import STOPWORDS, fold, key_parts, stem

__all__ = [
    "GIVEN_NUMBER",
    "IDENTIFIER",
    "MONTH_ALT",
    "MONTHS",
    "capitalised_names",
    "find_dates",
    "find_years",
    "has_value",
    "low",
    "negated",
    "norm_stems",
    "term_key",
    "values_of",
    "without_dates",
    "without_given",
]

GIVEN_NUMBER = re.compile(r"(?<![\w./\-])\d[\w.,/\-–]*\w|(?<![\w./\-])\d")
"""A number as a question writes it (a year, a version, a count); an id's digits are not one."""

MONTHS = (
    "january february march april may june july august september october november december"
).split()
MONTH_ALT = "|".join([m.capitalize() for m in MONTHS] + [m[:3].capitalize() for m in MONTHS])
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_DMY = re.compile(rf"\b(\d{{1,2}}) ({MONTH_ALT})\.?,? (\d{{4}})\b")
_MDY = re.compile(rf"\b({MONTH_ALT})\.? (\d{{1,2}}),? (\d{{4}})\b")
_MY = re.compile(rf"\b({MONTH_ALT}) (\d{{4}})\b")
_DM = re.compile(
    rf"\b\d{{1,2}}(?:st|nd|rd|th)? (?:{MONTH_ALT})\b|\b(?:{MONTH_ALT}) \d{{1,2}}(?:st|nd|rd|th)?\b(?!:)")
"""A day of a month without its year: ``by 31 May``, ``on March 1st``."""
_YEAR = re.compile(r"\b(1[5-9]\d\d|20\d\d)\b")

_NUMBER_WORDS = (
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty thirty forty fifty hundred thousand million "
    "billion dozen half once twice thrice"
).split()
_UNITS = r"(?:years?|months?|weeks?|days?|hours?|minutes?|decades?|centuries|century)"
VALUE_PATTERNS: dict[str, re.Pattern[str]] = {
    "money": re.compile(
        r"(?:GBP|USD|EUR|CHF|£|\$|€)\s?\d|\b\d[\d,.]*\s?(?:pounds|dollars|euros|francs)\b"
        r"|\b\d+(?:\.\d+)?\s?(?:pence|cents?|p)\b(?!\.?m\b)"  # "45p per mile", not "6 p.m."
    ),
    "percent": re.compile(r"\b\d+(?:\.\d+)?\s?(?:%|per ?cent)"),
    "duration": re.compile(
        rf"\b(?:\d+(?:[-–]\d+)?|{'|'.join(_NUMBER_WORDS)})[- ]{_UNITS}\b", re.IGNORECASE
    ),
    "length": re.compile(
        # "412 metres", "96 m", "the 31-metre tower", "a 12-foot wall"
        r"\b\d[\d,.]*[\s-]?(?:km|kilometres?|kilometers?|miles?|metres?|meters?|m|feet|ft|foot|"
        r"yards?|cm|centimetres?|centimeters?|inch(?:es)?|mm)\b",
        re.IGNORECASE,
    ),
    "weight": re.compile(r"\b\d[\d,.]*\s?(?:g|kg|grams?|grammes?|kilograms?|kilos?|lbs?|oz|ounces?"
                         r"|tonnes?|tons?)\b", re.IGNORECASE),
    # a time of day: "7.15", "6.30pm", "21:40", "8am", "noon"
    "time": re.compile(r"\b\d{1,2}[.:]\d{2}(?:\s?[ap]\.?m\b\.?)?|\b\d{1,2}\s?[ap]\.?m\b\.?"
                       r"|\b(?:noon|midday|midnight)\b", re.IGNORECASE),
    "number": re.compile(rf"\b\d[\d,.]*\b|\b(?:{'|'.join(_NUMBER_WORDS)})\b", re.IGNORECASE),
}

# Irregular forms and nominalisations that questions and sources use interchangeably.
# General English only: nothing here names a corpus.
_SYNONYMS: dict[str, str] = {}
for _group in (
    "pay paid payment payout settlement",
    "cost costs price invoice charge charged fee",
    "write wrote written author authored",
    "own owns owned owner owners ownership",
    "begin began begun start started starts effective effect live",
    "die died death dead",
    "born birth birthplace",
    "age aged old older oldest",
    "lead led leader leads",
    "win won winner",
    "make made",
    "hold held",
    "take took taken",
    "give gave given",
    "find found",
    "build built",
    "buy bought",
    "sell sold",
    "leave left",
    "become became",
    "come came",
    "go went gone",
    "teach taught",
    "choose chose chosen",
    "know knew known",
    "replace replaced replacement",
    "inspect inspected inspection",
    "require required requirement",
    "decide decided decision",
    "marry married marriage spouse wife husband",
    "found founded founder foundation",
    "elect elected election",
    "coach coached coaching manager managed",
    "direct directs directing directed director directors",
    "weigh weighs weighed weight weighing",
):
    _words = _group.split()
    for _word in _words:
        _SYNONYMS.setdefault(_word, _words[0])


def term_key(word: str) -> str:
    """The comparison key of a word: its synonym head, else its light stem."""
    lowered = word.lower()
    stemmed = stem(lowered)
    for candidate in (lowered, lowered[:-1] if lowered.endswith("s") else "", stemmed):
        if candidate in _SYNONYMS:
            return _SYNONYMS[candidate]
    # ``estimate``/``estimated``, ``rule``/``rules`` and ``make``/``makes`` meet on one key
    return stemmed[:-1] if len(stemmed) >= 4 and stemmed.endswith("e") else stemmed


@lru_cache(maxsize=1 << 15)
def norm_stems(text: str) -> frozenset[str]:
    """Comparison keys of every alphanumeric part of ``text`` (ids split on hyphens)."""
    return frozenset(term_key(part) for part in key_parts(text))


def _safe_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _month(name: str) -> int:
    return [m[:3] for m in MONTHS].index(name[:3].lower()) + 1


def find_dates(text: str) -> list[tuple[int, date]]:
    """Full dates in ``text`` as (offset, date), in order.

    ISO, ``20 February 2026`` and ``February 20, 2026`` forms.
    """
    found: list[tuple[int, date]] = []
    for m in _ISO.finditer(text):
        day = _safe_date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        if day:
            found.append((m.start(), day))
    for m in _DMY.finditer(text):
        day = _safe_date(int(m.group(3)), _month(m.group(2)), int(m.group(1)))
        if day:
            found.append((m.start(), day))
    for m in _MDY.finditer(text):
        day = _safe_date(int(m.group(3)), _month(m.group(1)), int(m.group(2)))
        if day:
            found.append((m.start(), day))
    return sorted(found)


def find_years(text: str) -> list[int]:
    """Four-digit years (1500-2099) in ``text``, in order, ISO dates included."""
    return [int(y) for y in _YEAR.findall(text)]


def without_dates(text: str) -> str:
    """``text`` with its dates and years blanked: a year or a date is not a count, a size or a rate."""
    return _YEAR.sub(" ", _MY.sub(" ", _DMY.sub(" ", _MDY.sub(" ", _ISO.sub(" ", text)))))


@lru_cache(maxsize=256)
def _given(question: str) -> re.Pattern[str] | None:
    """One pattern for the numbers a question states (compiled once per question)."""
    tokens = sorted(set(GIVEN_NUMBER.findall(question)), key=len, reverse=True)
    if not tokens:
        return None
    return re.compile(rf"(?<![\w.,])(?:{'|'.join(map(re.escape, tokens))})(?![\w]|[.,]\d)")


def without_given(question: str, text: str) -> str:
    """``text`` without the numbers the question already states."""
    pattern = _given(question)
    return pattern.sub(" ", text) if pattern else text


def has_value(text: str, kind: str) -> bool:
    """Whether ``text`` states a value of ``kind``.

    Kinds: ``date`` (a full date, a month and year, a day and month, or a year), ``money``,
    ``percent``, ``duration``, ``length``, ``weight``, ``time`` (of day), ``number`` (any
    number, or a money/percent/duration), ``name`` (a capitalised name that does not open
    the sentence).
    """
    if kind == "date":
        return bool(find_dates(text) or _MY.search(text) or _YEAR.search(text) or _DM.search(text))
    if kind == "name":
        return bool(capitalised_names(text, skip_initial=True))
    if kind == "number":
        bare = without_dates(text)
        return any(p.search(bare) for p in VALUE_PATTERNS.values())
    pattern = VALUE_PATTERNS.get(kind)
    return bool(pattern and pattern.search(text))


_NAME_CONNECTORS = {"of", "the", "de", "da", "di", "van", "von", "der", "del", "la", "le", "and", "&"}
_NAME_WORD = re.compile(r"[^\W\d_][\w'’\-]*(?:\.\d+)*")  # and upper case first (any script)
_NOT_NAMES = {m.capitalize() for m in MONTHS} | {
    "I", "A", "An", "The", "This", "That", "These", "Those", "It", "Its", "He", "She", "They",
    "We", "You", "His", "Her", "Their", "Our", "Your", "If", "In", "On", "At", "For", "From",
    "To", "By", "With", "And", "Or", "But", "As", "Of", "What", "Which", "Who", "Whom", "Whose",
    "When", "Where", "Why", "How", "Is", "Are", "Was", "Were", "Do", "Does", "Did", "Can",
    "Could", "Should", "Would", "Will", "Has", "Have", "Had", "May", "Might", "Must", "Shall",
    "Yes", "No", "Not", "After", "Before", "During", "Since", "Until", "Under", "Within",
    "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "Mr", "Mrs",
    "Ms", "Dr", "Sir", "Also", "Then", "There", "Here", "Both", "Each", "All", "Any", "Some",
}


def capitalised_names(text: str, *, skip_initial: bool = False) -> list[str]:
    """Runs of capitalised words (with ``of``/``the``/``von``... inside), in order.

    Single words count too. With ``skip_initial``, a run that opens a sentence and is a
    single ordinary word (``Roofs``) is skipped.
    """
    names: list[str] = []
    words = re.findall(r"[\w'’\-&]+(?:\.\d+)*|[.!?;:,()\"“”]", text)  # "PM2.5" is one word
    run: list[str] = []
    sentence_start = True

    def flush() -> None:
        while run and run[-1].lower() in _NAME_CONNECTORS:
            run.pop()
        if run:
            name = " ".join(run)
            if not (skip_initial and run_initial[0] and len(run) == 1):
                names.append(name)
        run.clear()

    run_initial = [False]
    for word in words:
        is_name = (word[0].isupper() and bool(_NAME_WORD.fullmatch(word)) and word not in _NOT_NAMES
                   and word.lower() not in STOPWORDS
                   and not re.search(r"n['’]t$", word))  # "Didn't", "Isn't"
        if is_name:
            if not run:
                run_initial[0] = sentence_start
            possessive = re.fullmatch(r"(.+)['’]s", word)
            run.append(possessive.group(1) if possessive else word)
            if possessive:
                flush()  # "the Trust's Director of Finance": the Trust, and its Director of Finance
        elif run and word.lower() in _NAME_CONNECTORS and (word.islower() or word == "&"):
            run.append(word)
        else:
            flush()
        sentence_start = word in (".", "!", "?", ":", ";", "\"", "“") or (
            sentence_start and not word.isalnum()
        )
    flush()
    return [n for n in dict.fromkeys(names) if n.lower() not in STOPWORDS and len(n) > 1]


def values_of(text: str, kind: str) -> set[str]:
    """The values of ``kind`` stated in ``text``, normalised (``GBP 3,850`` -> ``3850``)."""
    if kind == "date":
        found = {d.isoformat() for _, d in find_dates(text)} or {str(y) for y in find_years(text)}
        return found
    pattern = VALUE_PATTERNS.get(kind)
    if pattern is None:
        return set()
    return {re.sub(r"[^0-9.]", "", m.group(0)).strip(".") or m.group(0).lower()
            for m in pattern.finditer(text)}


_NEGATION = re.compile(
    r"\b(?:not|no|never|cannot|nor|neither|none|nothing|nobody)\b|n['’]t\b", re.IGNORECASE
)
_BOUND = re.compile(r"\b(?:no|not)\s+(?:later|earlier|more|less|fewer|sooner|longer)\s+than\b"
                    r"|\bnot only\b", re.IGNORECASE)
"""A limit or an addition, not a denial: "no later than 30 days", "not only ... but"."""


def negated(text: str) -> bool:
    """Whether the text denies what it says: a negation that is not a limit ("no later than")."""
    return bool(_NEGATION.search(_BOUND.sub(" ", text)))


_DASHES = re.compile(r"(?<=\w)\s*[-‐‑–—]\s*(?=\w)")


def low(text: str) -> str:
    """A text as names compare: lowercased, without accents, a dash between words a space.

    "Muller" = "Müller", and "Brackhaven–Tolvey" = "Brackhaven-Tolvey" = the question's
    "Brackhaven Tolvey" (a mention's dash is read as a space).
    """
    return _DASHES.sub(" ", fold(text).lower())

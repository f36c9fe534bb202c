"""How a sentence's years and dates fit the date a question is about.

"2011 to 2019" holds 2015, "since 2019" holds 2020, "moved to X in 2008" holds 2010 (the
closer the move, the better), and a version valid from a later day is not the answer for
an earlier one. The scoring of candidates (``reading/score.py``) adds these as bonuses.
"""

from __future__ import annotations

import re
from datetime import date

from groundgate.reading.evidence import Sentence
from groundgate.reading.question import Question
from groundgate.reading.temporal import window_of
from groundgate.reading.text import MONTH_ALT, find_dates, find_years

__all__ = ["move_fit", "span_fit", "stated_window_fit", "time_fit", "year_fit"]

_DATED_START = re.compile(r"\b(?:from|effective|with effect from|starting|as of|since)\s+$", re.I)
_DATED_END = re.compile(r"\b(?:until|to|before)\s+$", re.I)

# A year may come with its day and month: "from 1999 until June 2008", "to 4 May 2012".
_ON = rf"(?:(?:\d{{1,2}}(?:st|nd|rd|th)?\s+)?(?:{MONTH_ALT})\.?\s+(?:\d{{1,2}}(?:st|nd|rd|th)?,?\s+)?)?"
_TO = r"(?:[-–]|to|until|till|through|and)"
_SPAN = re.compile(rf"\b(\d{{4}})\s*{_TO}\s*{_ON}(\d{{4}})\b")
_SINCE = re.compile(rf"\b(?:since|from)\s+{_ON}(\d{{4}})\b(?!\s*{_TO}\s*{_ON}\d{{4}})")
# "until 2011", "until June 2011", "until his retirement in 2016"
_UNTIL = re.compile(
    rf"(?<!\d{{4}} )\b(?:until|till|up to)\s+(?:(?:his|her|their|its)\s+\w+\s+in\s+)?{_ON}(\d{{4}})\b"
)


# A move into or out of a role, dated: "In 2008 she moved to X", "joined X in 2004", "left
# X in 2014". A start is held from its year on, an end until it (a sentence alone cannot
# see the next move; the closer start is preferred, see ``_time_fit``).
_START_VERBS = (r"(?:joined|moved to|became|was appointed|were appointed|took over|signed for|"
                r"signed with|was elected|took office|transferred to|returned to)")
_END_VERBS = (r"(?:left|retired|resigned|was dismissed|was sacked|stepped down|departed|"
              r"was replaced|was succeeded)")
_YEAR_AFTER = rf"\b[^.;]{{0,60}}?\b(?:in|on)\s+{_ON}(\d{{4}})\b"
_YEAR_BEFORE = rf"\b(?:[Ii]n|[Oo]n)\s+{_ON}(\d{{4}}),?\s+(?:\w+\s+){{0,3}}?"
_STARTED = re.compile(rf"\b{_START_VERBS}{_YEAR_AFTER}|{_YEAR_BEFORE}{_START_VERBS}\b")
_ENDED = re.compile(rf"\b{_END_VERBS}{_YEAR_AFTER}|{_YEAR_BEFORE}{_END_VERBS}\b")


def _years_of(pattern: re.Pattern[str], text: str) -> list[int]:
    return [int(a or b) for a, b in pattern.findall(text)]


def move_fit(year: int, text: str) -> float | None:
    """How a dated move into or out of a role fits ``year``; ``None`` when there is none.

    "moved to X in 2008" and "left X in 2014" both hold 2010; the closer the move to the
    year, the better (an earlier appointment may have ended since). Negative when the
    move is a start after the year or an end before it.
    """
    started, ended = _years_of(_STARTED, text), _years_of(_ENDED, text)
    if not (started or ended):
        return None
    gaps = [year - a for a in started if a <= year] + [b - year for b in ended if b > year]
    if not gaps:
        return -0.3
    return max(-0.3, 0.4 - 0.1 * min(gaps))  # four years on, a move says nothing more


def span_fit(year: int, text: str) -> int:
    """How the spans of years ``text`` states fit ``year``: 1, -1, or 0 when it states none.

    "2011 to 2019" holds 2015; "since 2019" holds 2020; "until 2011" holds 2005.
    """
    closed = [(int(a), int(b)) for a, b in _SPAN.findall(text)]
    since = [int(a) for a in _SINCE.findall(text)]
    until = [int(b) for b in _UNTIL.findall(text)]
    if not (closed or since or until):
        return 0
    held = (any(a <= year < b for a, b in closed) or any(a <= year for a in since)
            or any(year < b for b in until))
    return 1 if held else -1


def year_fit(q: Question, text: str) -> int:
    """How ``text`` fits the question's year: 1, -1 or 0.

    1 if it holds the year or a span of years around it ("2011 to 2019", "since 2019");
    -1 if it only names other years; 0 when the question has no year or the text none.
    """
    if not q.year:
        return 0
    years = find_years(text)
    spans = span_fit(q.year, text)
    moved = None if spans else move_fit(q.year, text)
    if moved is not None:
        return 1 if moved > 0 else -1
    if spans or q.year not in years:
        return spans or (-1 if years else 0)
    return 1


def time_fit(q: Question, sentence: Sentence, day: date | None) -> float:
    """Reward sentences whose years or validity fit the question's date; penalise misfits."""
    text = sentence.rendered
    bonus = 0.0
    if q.year:
        # a question pinned to a year is answered by what held in that year; a dated move
        # ("moved to X in 2008") fits the closer it is
        moved = None if span_fit(q.year, text) else move_fit(q.year, text)
        bonus = moved if moved is not None else {1: 0.4, -1: -0.3}.get(year_fit(q, text), 0.0)
    elif day:
        # asked as of a day: "since 2019" held then, "until 2011" had ended
        bonus = {1: 0.4, -1: -0.3}.get(span_fit(day.year, text), 0.0)
    window = window_of(sentence.valid)
    if day and window:
        bonus += 0.15 if window.contains(day) else -0.3
    elif window and window.valid_to:
        bonus -= 0.2  # undated question: a version that has since ended is not the answer
    return bonus


def stated_window_fit(text: str, day: date) -> float:
    """Penalise a sentence that itself says it starts after ``day`` or ended by then."""
    for offset, stated in find_dates(text):
        before = text[max(0, offset - 20) : offset]
        if _DATED_START.search(before) and stated > day:
            return -0.3
        if _DATED_END.search(before) and stated <= day:
            return -0.3
    return 0.0

"""Yes or No first: the polarity a source sentence gives a yes/no question.

A sentence that covers what the question asks answers it Yes when it says it the way the
question does, No when one of the two negates it and the other does not ("Are alcoholic
drinks reimbursed?" / "Alcohol is not reimbursed."). Only a sentence about the question's
own words gives a lead; anything weaker leaves the answer without one. A Yes must also hold
the question's details (its numbers and months, in the sentence or the heading and title it
sits under): "until 31 March 2025" does not say Yes to "in April 2025?".
"""

from __future__ import annotations

import re

from groundgate.reading.question import Question, clauses
from groundgate.reading.score import Scored, coverage_of
from groundgate.reading.slot import QUESTION_TAG
from groundgate.reading.text import MONTHS, low, negated

__all__ = ["LEAD_COVERAGE", "details", "lead_for", "negated", "proposition"]

LEAD_COVERAGE = 0.5
"""Weighted share of the question's focus words the sentence must hold to answer Yes or No."""

_NEGATIVE_OPENING = re.compile(r"^\s*([a-z]+?)n['’]t\b", re.IGNORECASE)
_CONTRACTED = {"ca": "can", "wo": "will", "sha": "shall"}
_MONTH = re.compile(r"\b(" + "|".join(m.capitalize() for m in MONTHS) + r")\b")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def proposition(question: str) -> str:
    """What a yes/no question asks to confirm: without its tag, a negative opening made plain.

    "Priya Lanyon won, didn't she?" and "Didn't Priya Lanyon win?" ask, as "Did Priya
    Lanyon win?" does, whether she won: Yes means she did.
    """
    text = QUESTION_TAG.sub("?", question)
    return _NEGATIVE_OPENING.sub(lambda m: _CONTRACTED.get(m.group(1).lower(), m.group(1)), text)


def details(text: str) -> set[str]:
    """The numbers and month names a text holds (``1.2``, ``2025``, ``April``)."""
    months = {m.group(1).lower() for m in _MONTH.finditer(text) if m.start() > 0}
    return {n.replace(",", "") for n in _NUMBER.findall(text)} | months


def lead_for(q: Question, best: Scored, weights: dict[str, float]) -> str | None:
    """``Yes`` or ``No`` for a one-part yes/no question the sentence answers, else ``None``."""
    if q.asks != "yesno" or len(clauses(q)) > 1:
        return None
    if coverage_of([best], q.focus, weights) < LEAD_COVERAGE:
        return None
    s = best.sentence
    if not best.anchored and not all(low(m) in low(f"{s.rendered} {s.heading} {s.title}")
                                     for m in q.mentions):
        return None  # a Yes about the Main Hall is no Yes about the Pavilion
    if re.match(r"(?:A:\s*)?(?:yes|no)\b", s.text, re.IGNORECASE):
        return None  # it says so itself
    asked = proposition(q.text)
    if negated(s.text) != negated(asked):
        return "No"
    if details(asked) - details(f"{s.rendered} {s.heading} {s.title}"):
        return None  # it says so of another number or month
    return "Yes"

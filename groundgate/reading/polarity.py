"""Yes or No first: the polarity a source sentence gives a yes/no question.

A sentence that covers what the question asks answers it Yes when it says it the way the
question does, No when one of the two negates it and the other does not ("Are alcoholic
drinks reimbursed?" / "Alcohol is not reimbursed."). Only a sentence about the question's
own words gives a lead; anything weaker leaves the answer without one.
"""

from __future__ import annotations

import re

from groundgate.reading.question import Question, clauses
from groundgate.reading.score import Scored, coverage_of

__all__ = ["LEAD_COVERAGE", "lead_for", "negated"]

LEAD_COVERAGE = 0.5
"""Weighted share of the question's focus words the sentence must hold to answer Yes or No."""

_NEGATION = re.compile(
    r"\b(?:not|no|never|cannot|nor|neither|none|nothing|nobody)\b|n['’]t\b", re.IGNORECASE
)


def negated(text: str) -> bool:
    """Whether the text negates what it says (an odd number of negations)."""
    return len(_NEGATION.findall(text)) % 2 == 1


def lead_for(q: Question, best: Scored, weights: dict[str, float]) -> str | None:
    """``Yes`` or ``No`` for a one-part yes/no question the sentence answers, else ``None``."""
    if q.asks != "yesno" or len(clauses(q)) > 1:
        return None
    if coverage_of([best], q.focus, weights) < LEAD_COVERAGE:
        return None
    text = best.sentence.text
    if re.match(r"(?:A:\s*)?(?:yes|no)\b", text, re.IGNORECASE):
        return None  # it says so itself
    return "No" if negated(text) != negated(q.text) else "Yes"


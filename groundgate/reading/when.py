"""The date a question is about: given, pinned in its text, or its event's date.

The event's date is read from a resolved entity's description (``loss 20 February 2026``
for "the date of loss").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date

from groundgate.reading.question import Question
from groundgate.reading.text import IDENTIFIER, find_dates, term_key
from groundgate.reading.transcript import Anchor

__all__ = ["effective_date", "event_anchor", "is_specific"]


def is_specific(mention: str) -> bool:
    """Identifiers, quoted phrases and multi-word names resolve to something specific."""
    return bool(IDENTIFIER.fullmatch(mention)) or " " in mention


def event_anchor(q: Question, anchors: Iterable[Anchor]) -> Anchor | None:
    """The resolved entity whose description dates the question's event, if any."""
    if q.as_of or q.text_date or not q.event:
        return None
    for anchor in anchors:
        if _event_day(q.event, anchor.text):
            return anchor
    return None


def _event_day(event: str, text: str) -> date | None:
    """The date nearest after a word of ``event`` (``loss 20 February 2026``)."""
    key = term_key(event)
    for offset, day in find_dates(text):
        window = text[max(0, offset - 40) : offset]
        if key in {term_key(w) for w in re.findall(r"[A-Za-z]+", window)}:
            return day
    return None


def effective_date(q: Question, anchors: Iterable[Anchor]) -> date | None:
    """The date the question is about: given, pinned in the text, or its event's date.

    The event's date comes from a resolved entity's description (``loss 20 February
    2026`` for ``the date of loss``).
    """
    if q.as_of or q.text_date:
        return q.as_of or q.text_date
    anchor = event_anchor(q, anchors)
    return _event_day(q.event, anchor.text) if anchor and q.event else None

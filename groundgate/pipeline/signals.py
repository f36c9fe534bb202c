"""The router's escalation signals: small pure functions, each with the reason it gives.

Question-structure signals read only the question's shape (relative clauses, references
back to an earlier part's answer, comparisons across dates), never a domain's words.
Outcome signals read lane A's answer and the contradiction register.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from groundgate.knowledge.port import KnowledgeStore
from groundgate.reading.question import analyse, clauses
from groundgate.reading.text import find_dates, find_years

__all__ = [
    "SIGNALS",
    "Signal",
    "contradiction_surfaced",
    "lane_a_insufficient",
    "sequential_dependency",
    "window_comparison",
]

SIGNALS = ("sequential", "insufficient", "contradiction", "validity_windows", "deep")
"""Every signal name, in the order the router checks them."""


@dataclass(frozen=True)
class Signal:
    """One reason to escalate to the agent."""

    name: str
    """One of ``SIGNALS``."""
    reason: str
    """What in the question or in lane A's answer raised it, in a sentence."""

    def to_json(self) -> dict[str, str]:
        """``{"signal": ..., "reason": ...}``."""
        return {"signal": self.name, "reason": self.reason}


_RELATIVE = re.compile(r"\b([a-z][\w\-]*)\s+(that|which|who|whom|whose)\s+([A-Za-z][\w\-]*)")
"""``the decision that introduced ...``: the subject is described, not named."""
_BACK_REFERENCE = re.compile(r"\b(that|this|those|these|the same)\s+([a-z][\w\-]*)", re.I)
_NOT_NOUNS = frozenset(
    "is was are were be been has have had does do did will would can could may might must and or but of so"
    .split()
)
_IN_FORCE_AT = re.compile(
    r"\b(in force|in effect|applicable|valid|live|current)\s+(on|at|when|as of|by)\b", re.I
)
_COMPARISON = re.compile(
    r"\b(would have been|would have|already|still|no longer|changed?|changes|compared?|comparison|"
    r"versus|vs\.?|before and after|previously|originally|upheld|overturned|superseded)\b",
    re.I,
)


def sequential_dependency(question: str) -> Signal | None:
    """The second retrieval depends on the first.

    The subject is described by a relative clause (``the team that maintains X``), or a
    later part of the question refers back to what an earlier part finds (``..., and what
    does that edition require``).
    """
    for match in _RELATIVE.finditer(question):
        if match.group(1).lower() in _NOT_NOUNS or match.group(3).lower() in _NOT_NOUNS:
            continue  # "does that edition", "which is": not a relative clause on a noun
        return Signal("sequential", f"the subject is described, not named: '{match.group(0)} ...'")
    parts = clauses(analyse(question))
    if len(parts) < 2:
        parts_text = [p for p in re.split(r"(?<=[.?!])\s+", question) if p]
        if len(parts_text) < 2:
            return None
        later = parts_text[1:]
    else:
        later = [p.text for p in parts[1:]]
    for part in later:
        for ref in _BACK_REFERENCE.finditer(part):
            if ref.group(2).lower() not in _NOT_NOUNS:
                return Signal("sequential", f"a later part refers back to an earlier one: '{ref.group(0)}'")
    return None


def window_comparison(question: str) -> Signal | None:
    """The question compares what held in one validity window with another.

    ``in force on the date of ...``, ``would have been ... under ...``, ``already live``,
    ``changed``, or two different dates named in the question.
    """
    match = _IN_FORCE_AT.search(question) or _COMPARISON.search(question)
    if match:
        return Signal("validity_windows", f"the question compares across time: '{match.group(0)}'")
    named = {d for _, d in find_dates(question)}
    years = set(find_years(question)) | {d.year for d in named}
    if len(named) >= 2 or len(years) >= 2:
        return Signal("validity_windows", "the question names two different dates")
    return None


def lane_a_insufficient(answer: dict[str, Any]) -> Signal | None:
    """Lane A's answer says the sources it retrieved do not answer the question."""
    if answer.get("answered", True):
        return None
    why = "; ".join(answer.get("insufficient") or ()) or "no grounded claim survived"
    return Signal("insufficient", f"lane A could not answer: {why}"[:300])


def contradiction_surfaced(
    answer: dict[str, Any], anchors: Iterable[str], store: KnowledgeStore
) -> Signal | None:
    """A disagreement surfaced in lane A, or the register has one about the question's entities.

    Lane A presented a disagreement, or an open register entry is about an entity the
    question names (whether or not the policy judged it to bear). Only the question's own
    entities count, not everything a two-hop walk reached: a walk from almost anything
    reaches some contested concept.
    """
    presented = [p.get("contradiction_id") or p.get("topic", "") for p in answer.get("contested") or ()]
    if presented:
        return Signal("contradiction", f"lane A's answer presents a disagreement: {', '.join(presented)}")
    ids = sorted(set(anchors))
    entries = store.contradictions(entity_ids=ids) if ids else []
    if entries:
        names = ", ".join(e.id for e in entries)
        return Signal("contradiction", f"an open contradiction is about an entity in the question: {names}")
    return None

"""The words the gate reads a sentence by: of a dispute, of its being settled, of an entry.

Shared by whether an entry applies (``applies.py``, G1) and whether a sentence takes a
side (``sides.py``, G2): talk of a disagreement, of a settlement, of one source ranked over
another; what an entry's positions argue over; whether a question asks for a yes or a no.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from groundgate.knowledge.model import Contradiction
from groundgate.knowledge.text import content_terms, coverage, key_parts, stem

__all__ = [
    "DISPUTE_TALK",
    "POSITION_OVERLAP",
    "PRECEDENCE",
    "SETTLED",
    "SETTLED_WHAT",
    "TOPIC_OVERLAP",
    "about_entry",
    "asks_for_verdict",
    "disputed_axis",
    "names_in",
    "restates",
    "term_stems",
]

TOPIC_OVERLAP = 0.6
"""Share of an entry's topic words a sentence must hold to restate the disputed topic."""
POSITION_OVERLAP = 0.5
"""Share of a position's words a sentence (or a passage) must hold to restate it."""

_VERDICT_OPENERS = frozenset(
    "is are was were am do does did should shall can could will would must may might has have had".split()
)


def asks_for_verdict(question: str) -> bool:
    """Whether the question is a yes/no question.

    It is when it, or a clause after its first comma, opens with an auxiliary verb
    ("Was ...", "On claim CLM-1190, is ...", "Could you ...").
    """
    clauses = [question, *question.split(",", 1)[1:]]
    return any((words := clause.split()) and words[0].lower() in _VERDICT_OPENERS for clause in clauses)


_UNIT = re.compile(r"\d[\d,.]*\s*([A-Za-z]+)")


def disputed_axis(entry: Contradiction) -> set[str]:
    """Words every position uses that the topic does not: what the positions argue over.

    "Handlers need no separate approval" and "covered only with prior written approval"
    share "approval" beyond the topic "whether trace-and-access costs are automatically
    included"; a question about approval asks about the split even without the topic's words.
    The unit of a value they give ("about 4 hours", "about 3 hours") is not such a word.
    """
    if len(entry.positions) < 2:
        return set()
    shared = set.intersection(*({stem(t) for t in content_terms(p.statement)} for p in entry.positions))
    # the unit of the values they give ("4 hours", "3 hours") is what they measure, not what they argue over
    units = {stem(m.group(1).lower()) for p in entry.positions for m in _UNIT.finditer(p.statement)}
    # a number every position gives ("2025" in "20 January 2025" and "17 March 2025") is
    # what they agree on
    numbers = {t for t in shared if any(ch.isdigit() for ch in t)}
    return shared - {stem(t) for t in content_terms(entry.topic)} - units - numbers


def _words(text: str) -> str:
    return " " + " ".join(key_parts(text)) + " "


def names_in(names: Iterable[str], text: str) -> bool:
    """Whether the text holds one of the names, word for word ("CLM-1190", "Home Plus")."""
    words = _words(text)
    return any(_words(name) in words for name in names if key_parts(name))


def term_stems(text: str) -> set[str]:
    """Stems of a text's content words, hyphenated words kept whole (as ``disputed_axis`` reads them)."""
    return {stem(t) for t in content_terms(text)}


DISPUTE_TALK = re.compile(
    r"\b(?:positions?|disagree(?:s|d|ment|ments)?|dispute[sd]?|disputing|contradict(?:s|ed|ion|ions)?|"
    r"contested|conflict(?:s|ing)?|register|sides?|undecided|unresolved|debate[sd]?|controvers(?:y|ial))\b",
    re.I,
)
"""Words that talk about a disagreement rather than about the world."""
SETTLED = re.compile(
    r"\b(?:resolved|resolution|settled|decided|closed|concluded|withdrawn|retracted|overruled|overturned|"
    r"out[- ]of[- ]date|outdated|obsolete|no longer|in favou?r of|prevails?|takes? precedence|"
    r"final (?:decision|ruling|word|answer)|ruled|ruling|binding|agreed|confirmed|upheld)\b", re.I,
)
"""Words that say a question has been decided."""
PRECEDENCE = re.compile(
    r"\b(?:only|sole) (?:current|valid|applicable|binding|relevant) "
    r"(?:rule|source|document|guidance|position)"
    r"|\bno longer (?:applies|apply|in force|valid|current|relevant)|\b(?:takes?|has|have) precedence"
    r"|\bprevails?\b|\boverrides?\b|\bsupersedes?\b|\b(?:is|are) (?:the )?(?:authoritative|binding)\b"
    r"|\bhas been (?:replaced|superseded|withdrawn|retired)", re.I,
)
"""Words that settle a disagreement by ranking its sources ("CHG-04 is the only current rule")."""
SETTLED_WHAT = re.compile(
    r"\b(?:matter|question|issue|point|debate|dispute|disagreement|positions?|register|committee|board)\b"
    r"|^\W*(?:it|this|that|these|they|which)\b", re.I,
)
"""What a sentence says was settled when it is the disagreement ("The matter has been settled").
A claim that was "settled 2 May 2025" (paid) is not."""


def about_entry(sentence: str, entry: Contradiction, names: Sequence[str]) -> tuple[str, bool] | None:
    """Why a sentence is about the entry itself, and whether saying so takes a side.

    Naming the entry takes a side (only the gate speaks of register entries), as does
    saying the dispute over its subject is settled; naming its subject while speaking of
    "the dispute" only mentions it. ``None`` when the sentence is not about the entry.
    """
    if entry.id and re.search(rf"(?<![\w-]){re.escape(entry.id)}(?![\w-])", sentence, re.I):
        return f"it names {entry.id}", True
    if names_in(names, sentence) and DISPUTE_TALK.search(sentence):
        if SETTLED.search(sentence):
            return "it says the disagreement is settled, which the register does not", True
        return "it speaks of the disagreement", False
    return None


def restates(sentence: str, entry: Contradiction) -> str | None:
    """Why a sentence restates the entry's topic or one of its positions; ``None`` when it does not."""
    topic = content_terms(entry.topic)
    if topic and coverage(topic, sentence) >= TOPIC_OVERLAP:
        return "it restates the disputed topic"
    for number, position in enumerate(entry.positions, start=1):
        terms = content_terms(position.statement)
        if terms and coverage(terms, sentence) >= POSITION_OVERLAP:
            return f"it restates position {number}"
    return None

"""Per-question metrics: pure functions over a finished answer, its trace and the labels.

- correctness: keyword-group coverage. Every group must appear in the answer text (case-
  insensitive); any alternative in a group counts. A blunt proxy: an answer that dumps
  evidence text can score well, and a right answer in other words scores zero.
- citation precision / recall against the expected sources.
- refusal outcome on contested questions: ``presented_both``, ``chose_side`` (answered
  without presenting the disagreement) or ``declined``; on the others ``refused_wrongly``
  when the answer presented a register disagreement that the labels say is not there.
- insufficient outcome: on unanswerable questions ``said_insufficient`` or
  ``answered_anyway``; on answerable ones ``wrongly_insufficient`` when it gave up.
- trace shape: the longest common subsequence of the actual and the expected tool
  sequences over the longer of the two (1.0 = the same calls in the same order).

What a reader of the answer notices:

- leaks: internal strings in the answer text (a tool name used as one, an error string of
  a tool, the ``INSUFFICIENT`` mark, a Python repr, an entity id written where a name
  belongs);
- lead: for a yes/no question a source answers, whether the answer starts with the
  expected "Yes" or "No";
- off subject: for an answerable question, the cited sources that are not among the
  expected ones (a sentence from a document about something else).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from groundgate.eval.dataset import GoldQuestion
from groundgate.knowledge.model import Contradiction
from groundgate.nodes.compose import INSUFFICIENT_MARK
from groundgate.tools.registry import ALL_TOOLS

__all__ = [
    "citation_scores",
    "cited_sources",
    "keyword_coverage",
    "lcs",
    "refusal_outcome",
    "relevant_entries",
    "shape_score",
    "said_insufficient",
    "insufficient_outcome",
    "lead_ok",
    "leaks",
    "off_subject",
]


def keyword_coverage(text: str, groups: Sequence[Sequence[str]]) -> float | None:
    """Share of keyword groups with an alternative in ``text``; ``None`` without groups."""
    if not groups:
        return None
    lowered = text.lower()
    hits = sum(any(k.lower() in lowered for k in group) for group in groups)
    return hits / len(groups)


def cited_sources(answer: dict[str, Any]) -> list[str]:
    """The source ids the answer cites, in order."""
    return [c["source_id"] for c in answer.get("citations") or ()]


def citation_scores(answer: dict[str, Any], expected: Sequence[str]) -> tuple[float | None, float | None]:
    """(precision, recall) of the cited sources against ``expected``.

    ``None`` where undefined: precision when nothing is cited, recall when nothing is expected.
    """
    cited = set(cited_sources(answer))
    wanted = set(expected)
    hit = len(cited & wanted)
    precision = hit / len(cited) if cited else None
    recall = hit / len(wanted) if wanted else None
    return precision, recall


def said_insufficient(answer: dict[str, Any]) -> bool:
    """Whether the answer says the sources do not answer (or its draft began so)."""
    draft = str((answer.get("extras") or {}).get("draft_text") or "")
    return not answer.get("answered", True) or draft.strip().upper().startswith(INSUFFICIENT_MARK)


def insufficient_outcome(answer: dict[str, Any], answerable: bool) -> str:
    """``said_insufficient``/``answered_anyway`` (unanswerable); ``wrongly_insufficient``/``answered``."""
    gave_up = said_insufficient(answer)
    if not answerable:
        return "said_insufficient" if gave_up else "answered_anyway"
    return "wrongly_insufficient" if not answer.get("answered", True) else "answered"


def relevant_entries(question: GoldQuestion, entries: Sequence[Contradiction]) -> list[Contradiction]:
    """Open register entries a contested question is about.

    Those with two or more positions citing an expected source, else those with one.
    """

    def sides(entry: Contradiction) -> int:
        return sum(bool(set(p.source_ids) & set(question.expected_source_ids)) for p in entry.positions)

    strong = [e for e in entries if sides(e) >= 2]
    return strong or [e for e in entries if sides(e) >= 1]


def refusal_outcome(
    answer: dict[str, Any], question: GoldQuestion, entries: Sequence[Contradiction]
) -> tuple[str, str]:
    """(outcome, detail) of the refusal test; see the module docstring."""
    contested = list(answer.get("contested") or ())
    if not question.contested:
        registered = [p["contradiction_id"] for p in contested if p.get("contradiction_id")]
        if registered:
            return "refused_wrongly", f"presented {', '.join(registered)} on an uncontested question"
        if contested:
            return "disagreement_shown", "presented a disagreement found in the evidence"
        return "none", ""
    if contested:
        shown = ", ".join(p.get("contradiction_id") or "unrecorded" for p in contested)
        return "presented_both", f"gate presented {shown}"
    cited = set(cited_sources(answer))
    relevant = relevant_entries(question, entries)
    for entry in relevant:
        sides = [i for i, p in enumerate(entry.positions, start=1) if set(p.source_ids) & cited]
        if len(sides) >= 2:
            return "presented_both", f"the answer itself cites every side of {entry.id}"
    if not answer.get("answered", True):
        return "declined", "no answer and no disagreement presented"
    details = []
    for entry in relevant:
        cited_sides = [str(i) for i, p in enumerate(entry.positions, start=1) if set(p.source_ids) & cited]
        details.append(
            f"{entry.id}: cites position {', '.join(cited_sides)} only" if cited_sides
            else f"{entry.id}: answered without presenting it (cites neither side)"
        )
    return "chose_side", "; ".join(details) or "answered without presenting the disagreement"


def lcs(a: Sequence[str], b: Sequence[str]) -> int:
    """Length of the longest common subsequence."""
    row = [0] * (len(b) + 1)
    for x in a:
        diagonal = 0
        for j, y in enumerate(b, start=1):
            above = row[j]
            row[j] = diagonal + 1 if x == y else max(row[j], row[j - 1])
            diagonal = above
    return row[-1]


def shape_score(actual: Sequence[str], expected: Sequence[str]) -> float | None:
    """LCS over the longer sequence; ``None`` when no shape is expected."""
    if not expected:
        return None
    return lcs(actual, expected) / max(len(actual), len(expected))


# A tool whose name is an English word ("traverse", "timeline", "diff") leaks only when it
# is used as a tool's label ("traverse: no relationships ..."); one with an underscore
# leaks wherever it is written.
_TOOL_NAMES = re.compile(
    r"\b(?:" + "|".join(re.escape(t) for t in ALL_TOOLS if "_" in t) + r")\b"
    r"|\b(?:" + "|".join(re.escape(t) for t in ALL_TOOLS if "_" not in t) + r")\s*[:(]"
)
_TOOL_ERRORS = re.compile(r"no entity matches|no relationships from", re.IGNORECASE)
_MARK = re.compile(r"\bINSUFFICIENT\b")
_REPRS = re.compile(
    r"<[A-Za-z_][\w.]* object at 0x[0-9a-fA-F]+>"  # <groundgate.x.Y object at 0x7f...>
    r"|\b[A-Z]\w*\(\w+="  # Citation(source_id=...
    r"|\{\s*['\"][^'\"]*['\"]\s*:"  # {'id': ...
    r"|\[\s*'[^'\]]*'\s*(?:,\s*'[^'\]]*'\s*)*\]"  # ['a', 'b']
    r"|\[\s*\]|\{\s*\}"  # [] {}
    r"|(?:=|:\s?)None\b"  # field=None, 'x': None
)
_CITATION = re.compile(r"\[[^\[\]]*\]")
_ENTITY_ID = re.compile(r"(?<![\w/.:-])(?!(?:https?|mailto|ftp):)[a-z]{3,}:[a-z0-9][a-z0-9._-]*[a-z0-9]")


def leaks(text: str) -> list[str]:
    """Internal strings in ``text``, each once, in order of appearance.

    A tool name (``resolve_entity``, or ``traverse:`` written as a label), a tool's error
    string ("no entity matches", "no relationships from"), the ``INSUFFICIENT`` mark, a
    Python repr (``Citation(source_id=``, ``{'id':``, ``['a', 'b']``, ``[]``, ``=None``,
    ``<... object at 0x...>``), or an entity id (``concept:annual-leave``) outside the
    ``[source-id]`` citations.
    """
    found: list[tuple[int, str]] = []
    for pattern in (_TOOL_NAMES, _TOOL_ERRORS, _MARK, _REPRS):
        found += [(m.start(), m.group(0).strip()) for m in pattern.finditer(text)]
    prose = _CITATION.sub(lambda m: " " * len(m.group(0)), text)
    found += [(m.start(), m.group(0)) for m in _ENTITY_ID.finditer(prose)]
    return list(dict.fromkeys(s for _, s in sorted(found)))


_LEAD = re.compile(r"^[\s*_#>\"'“‘(\-–—]*(yes|no)\b", re.IGNORECASE)


def lead_ok(text: str, expected: str | None) -> bool | None:
    """Whether ``text`` starts with the ``expected`` "Yes" or "No"; ``None`` when none is expected.

    Leading whitespace, quotes and Markdown markers are skipped; the word must stand alone
    ("No." and "No, ..." count, "Nothing" does not).
    """
    if expected is None:
        return None
    match = _LEAD.match(text)
    return match is not None and match.group(1).lower() == expected.lower()


def off_subject(answer: dict[str, Any], expected: Sequence[str], answerable: bool) -> list[str] | None:
    """The cited sources outside ``expected``, in citation order; ``None`` when not judged.

    Judged on answerable questions with expected sources only: an unanswerable question has
    none to compare with.
    """
    if not answerable or not expected:
        return None
    wanted = set(expected)
    return list(dict.fromkeys(s for s in cited_sources(answer) if s not in wanted))

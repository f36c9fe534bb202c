"""Dated and disputed statements for the offline planner's answer.

Two kinds of sentence the answer adds beside its extracts: what was in force on the
question's date and what only starts later (from timelines), and the positions of a
register entry that bears on the question (from list_contradictions), none chosen.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from groundgate.knowledge.model import Validity
from groundgate.knowledge.text import content_terms, coverage
from groundgate.reading.text import norm_stems
from groundgate.reading.transcript import Transcript

__all__ = ["Window", "contradiction_lines", "temporal_lines", "window_of", "windows"]

_SUFFIXES = {"effective": " takes effect", "superseded": " stops applying"}


@dataclass
class Window:
    """When a described rule or relationship applies, from a timeline."""

    description: str
    sources: tuple[str, ...]
    start: date | None = None
    end: date | None = None
    document: bool = False
    """Whether it is a document's effective period (a rule's own window says more)."""

    def contains(self, day: date) -> bool:
        """Whether ``day`` is inside the window (``end`` is exclusive)."""
        return (self.start is None or self.start <= day) and (self.end is None or day < self.end)

    def label(self) -> str:
        """``2025-06-01 → open`` form."""
        left = self.start.isoformat() if self.start else "open"
        return f"{left} → {self.end.isoformat() if self.end else 'open'}"


def window_of(label: str | None) -> Validity | None:
    """Parse a result's validity label (``2025-06-01 → open``); ``None`` if absent or odd."""
    if not label or "→" not in label:
        return None
    left, _, right = (p.strip() for p in label.partition("→"))
    try:
        return Validity(
            valid_from=None if left == "open" else date.fromisoformat(left),
            valid_to=None if right == "open" else date.fromisoformat(right),
        )
    except ValueError:
        return None


def windows(t: Transcript) -> list[Window]:
    """Validity windows rebuilt from every timeline the planner read."""
    found: dict[str, Window] = {}
    for step in t.of("timeline"):
        for item in step.results:
            day_text, _, kind = str(item.get("title", "")).partition(" ")
            try:
                day = date.fromisoformat(day_text)
            except ValueError:
                continue
            text = str(item.get("text", ""))
            suffix = _SUFFIXES.get(kind, "")
            if suffix and text.endswith(suffix):
                text = text[: -len(suffix)]
            if kind not in ("starts", "ends", "effective", "superseded"):
                continue
            window = found.setdefault(text, Window(
                text, tuple(item.get("sources") or ()), document=kind in _SUFFIXES))
            if kind in ("starts", "effective"):
                window.start = day
            else:
                window.end = day
    return list(found.values())


def _relevance(t: Transcript, text: str) -> float:
    focus = [w for w in t.question.focus if not norm_stems(w) <= norm_stems(
        " ".join(a.mention for a in t.anchors()))]
    if not focus:
        return 0.0
    keys = norm_stems(text)
    return sum(norm_stems(w) <= keys for w in focus) / len(focus)


def temporal_lines(t: Transcript, day: date | None, limit: int = 2) -> list[str]:
    """What was in force on ``day`` and what starts after it, for relevant windows."""
    if day is None or not t.question.temporal:
        return []
    ranked = sorted(
        ((w, _relevance(t, w.description)) for w in windows(t) if w.sources),
        key=lambda pair: (-round(pair[1], 1), pair[0].document, pair[0].description),
    )
    ranked = [(w, r) for w, r in ranked if r >= 0.2]
    lines: list[str] = []
    current = [w for w, _ in ranked if w.start and w.contains(day)][:limit]
    later = [w for w, _ in ranked if w.start and w.start > day][:1]
    for window in current:
        lines.append(
            f"On {day.isoformat()} the rule in force was: {window.description} "
            f"(valid {window.label()}) [{', '.join(window.sources[:3])}]"
        )
    for window in later:
        start = window.start or day
        lines.append(
            f"From {start.isoformat()} (after {day.isoformat()}): {window.description}. "
            f"[{', '.join(window.sources[:3])}]"
        )
    return lines


def _bears(topic: str, question: str, context: str) -> bool:
    """Whether a register topic is what the question (or the drafted answer) is about."""
    terms = content_terms(topic)
    return bool(terms) and (coverage(terms, question) >= 0.34 or coverage(terms, context) >= 0.67)


def contradiction_lines(t: Transcript, context: str) -> list[str]:
    """Each register entry bearing on the question: the disagreement and every position.

    ``context`` is the question with the drafted sentences; an entry merely attached to an
    entity the run touched does not count (a definition is not a disputed rule).
    """
    lines: list[str] = []
    seen: set[str] = set()
    for step in t.of("list_contradictions"):
        for item in step.results:
            topic = str(item.get("title", ""))
            if item["id"] in seen or not _bears(topic, t.question.text, context):
                continue
            seen.add(str(item["id"]))
            status = str(item.get("kind", "")).partition(":")[2] or "open"
            sources = ", ".join(item.get("sources") or [])
            lines.append(
                f"The sources disagree on this ({topic}; register entry {item['id']}, "
                f"{status}), so no position is chosen here. [{sources}]"
            )
            for index, position in enumerate(item.get("positions") or []):
                cited = ", ".join(position.get("source_ids") or [])
                opener = "One position" if index == 0 else "Another position"
                statement = str(position.get("statement", "")).rstrip(".")
                lines.append(f"{opener}: {statement}. [{cited}]")
    return lines

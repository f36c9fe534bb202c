"""The reader protocol and what a reader returns (``groundgate.reading`` re-exports them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from groundgate.reading.transcript import Transcript

__all__ = ["INSUFFICIENT_MARK", "Outcome", "Reader", "Reading"]

Outcome = Literal["answered", "partial", "insufficient"]

INSUFFICIENT_MARK = "INSUFFICIENT:"
"""How a draft that does not answer begins; ``draft_answer`` turns it into a note."""


@dataclass(frozen=True)
class Reading:
    """What a reader made of a transcript.

    Attributes:
        outcome: ``answered``; ``partial`` (some of what was asked is stated, ``missing``
            says what is not); ``insufficient`` (nothing retrieved states the answer).
        lines: The answer's sentences, each ending with the ids it came from. For an
            insufficient reading, what the sources do say about the subject.
        missing: What the sources do not state, in a person's words.
        score: How well one sentence answers what was asked, 0 to 1: the best sentence's
            weighted share of the question's words (one that states the kind of value asked
            for, when a value is asked).
    """

    outcome: Outcome
    lines: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    score: float = 0.0

    def text(self) -> str:
        """The draft text, in the form ``draft_answer`` reads."""
        if self.outcome == "insufficient":
            reason = "; ".join(self.missing) or "nothing retrieved bears on the question"
            found = list(self.lines) or ["Nothing relevant was retrieved."]
            return "\n".join([f"{INSUFFICIENT_MARK} {reason}.", "What the sources do say:", *found])
        lines = list(self.lines)
        if self.outcome == "partial" and self.missing:
            lines.append(f"Not stated in the sources: {'; '.join(self.missing)}.")
        return "\n".join(lines)


@runtime_checkable
class Reader(Protocol):
    """Reads a run's transcript (the question and every tool result) into a :class:`Reading`."""

    def read(self, transcript: Transcript) -> Reading:
        """The answer the evidence supports, and what it does not say."""
        ...

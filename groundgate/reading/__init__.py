"""Reading the evidence a run gathered: what is asked, which sentences answer it, and whether.

One package, one small protocol. Lane A's extractive draft, the agent's extractive
compose and the offline planner's final answer all come from a :class:`Reader`, taken
from the run's context; :class:`ExtractiveReader` is the default and needs no model. A
model-based reader can replace it::

    from groundgate.graph.build import build_agent
    agent = build_agent(store, model, reader=MyReader())

A reader returns a :class:`Reading`: the outcome (answered, partly answered or
insufficient), the answer's lines with their citations, and, in a person's words, what
the sources do not say. The answer text is built from the reading, so an answer that says
"the sources do not answer" and then gives the answer cannot be written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from groundgate.reading.transcript import Transcript

__all__ = ["ExtractiveReader", "INSUFFICIENT_MARK", "Outcome", "Reader", "Reading", "default_reader"]

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


class ExtractiveReader:
    """The default reader: source sentences chosen by score, no model, deterministic."""

    def read(self, transcript: Transcript) -> Reading:
        """The sentences that best answer the question, or why none does."""
        from groundgate.reading.answer import read

        return read(transcript)

    def __repr__(self) -> str:
        return "ExtractiveReader()"


def default_reader() -> Reader:
    """The reader a run uses unless it is given another."""
    return ExtractiveReader()

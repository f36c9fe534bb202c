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

from groundgate.reading.answer import read
from groundgate.reading.protocol import INSUFFICIENT_MARK, Outcome, Reader, Reading
from groundgate.reading.transcript import Transcript

__all__ = ["ExtractiveReader", "INSUFFICIENT_MARK", "Outcome", "Reader", "Reading", "default_reader"]


class ExtractiveReader:
    """The default reader: source sentences chosen by score, no model, deterministic."""

    def read(self, transcript: Transcript) -> Reading:
        """The sentences that best answer the question, or why none does."""
        return read(transcript)

    def __repr__(self) -> str:
        return "ExtractiveReader()"


def default_reader() -> Reader:
    """The reader a run uses unless it is given another."""
    return ExtractiveReader()

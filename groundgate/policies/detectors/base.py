"""The detector protocol: the two fuzzy questions the gate asks, behind one interface.

The gate's decisions are stated in ids; three of the questions it needs answered are not:

- ``bearing``: does an open register entry bear on this answer?
- ``sides``: which of the answer's sentences state one position of an entry that bears,
  in whatever words (G2's meaning signal; the gate's own word rules are ``sides.py``)?
- ``disagreements``: do these passages disagree on what was asked (a yes or a no, who or
  which, how much, when, whether something is present or absent)?

Both key on the passages the answer rests on (``Passage``), not on the question's
wording alone: the question says what was asked, the passages say what the sources
state. A detector only reads; it never changes the register or the answer, and its
findings are data for the gate (``Finding``), not text for the reader.

Implementations: ``LexicalDetector`` (numbers, dates and named parties read from the
words), ``SemanticDetector`` (sentence similarity from the bundled MiniLM) and
``JudgeDetector`` (one bounded call to a chat model). ``PolicySet.detector`` chooses.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol, runtime_checkable

from groundgate.knowledge.model import Contradiction, Validity
from groundgate.knowledge.port import KnowledgeStore

__all__ = [
    "Bearing",
    "BearingQuestion",
    "Detection",
    "Detector",
    "Finding",
    "FindingPosition",
    "Kind",
    "Passage",
    "SideTaken",
    "Sides",
    "SidesQuestion",
]

Kind = Literal["polarity", "entity", "quantity", "period", "presence", "value"]
"""What a disagreement is about: yes or no, who or which, how much, when, present or absent."""


@dataclass(frozen=True)
class Passage:
    """A passage of one source, as the answer or the ingest saw it.

    Attributes:
        source_id: The document it comes from.
        text: The passage (a chunk, with its heading).
        title: The document's title.
        validity: When the document is in force.
        role: ``rests``: the chunk a claim of the answer rests on (its heading, then its
            text); ``retrieved``: a passage as a tool returned it.
    """

    source_id: str
    text: str
    title: str = ""
    validity: Validity = field(default_factory=Validity)
    role: Literal["rests", "retrieved"] = "retrieved"


@dataclass(frozen=True)
class FindingPosition:
    """One side: a sentence a source states, and the sources that state it."""

    statement: str
    source_ids: tuple[str, ...]


@dataclass(frozen=True)
class Finding:
    """Passages that disagree: at least two positions from different sources.

    Attributes:
        topic: What they disagree on, in words a reader can follow.
        positions: The sides, each a sentence taken from its sources (never a model's words).
        kind: What the disagreement is about.
        detector: Which detector found it.
    """

    topic: str
    positions: tuple[FindingPosition, ...]
    kind: Kind = "value"
    detector: str = ""

    @property
    def source_ids(self) -> frozenset[str]:
        """Every source of every position."""
        return frozenset(s for p in self.positions for s in p.source_ids)


@dataclass(frozen=True)
class Detection:
    """What ``Detector.disagreements`` found, and what it wants on the answer's record."""

    findings: tuple[Finding, ...] = ()
    notes: tuple[str, ...] = ()
    """A fallback taken, a model call made (tokens, time) or failed."""


@dataclass(frozen=True)
class Bearing:
    """Which of the entries asked about bear on the answer, and the record of asking."""

    entry_ids: frozenset[str] = frozenset()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class BearingQuestion:
    """What ``Detector.bearing`` is asked: which of these open entries bear on this answer.

    Attributes:
        entries: The open register entries to consider.
        question: The question asked.
        passages: The passages the answer rests on, then those retrieved (``evidence.py``).
        store: The store, read for the entries' entities (never written).
        threshold: ``PolicySet.topic_relevance``: the share of an entry's topic words a
            question must hold for the topic alone to make it bear.
    """

    entries: tuple[Contradiction, ...]
    question: str
    passages: tuple[Passage, ...]
    store: KnowledgeStore
    threshold: float = 0.5


@dataclass(frozen=True)
class SidesQuestion:
    """What ``Detector.sides`` is asked: which of these sentences state one position of an entry.

    Attributes:
        entries: The open register entries the question turns on (G1 says they apply).
        question: The question asked.
        sentences: The answer's own sentences (what grounding kept, before the gate withheld any).
        passages: The passages the answer rests on, then those retrieved (``evidence.py``).
        store: The store, read for the positions' source documents (never written).
    """

    entries: tuple[Contradiction, ...]
    question: str
    sentences: tuple[str, ...]
    passages: tuple[Passage, ...]
    store: KnowledgeStore


@dataclass(frozen=True)
class SideTaken:
    """A sentence that states one position of an entry, as a detector reads it."""

    sentence: str
    entry_id: str
    position: int
    """The position it states, counted from 1 as the register lists them."""
    why: str
    """What the detector saw, for the record ("nearest the wording's clause ...")."""


@dataclass(frozen=True)
class Sides:
    """Which sentences take a side, and the record of asking."""

    taken: tuple[SideTaken, ...] = ()
    notes: tuple[str, ...] = ()


@runtime_checkable
class Detector(Protocol):
    """The three questions; every implementation answers them all, and only ever reads."""

    @property
    def name(self) -> str:
        """``lexical``, ``semantic``, ``judge``: for notes and reports."""
        ...

    def bearing(self, request: BearingQuestion) -> Bearing:
        """Which of ``request.entries`` bear on the answer to its question that rests on its passages."""
        ...

    def sides(self, request: SidesQuestion) -> Sides:
        """Which of ``request.sentences`` state one position of one of ``request.entries``.

        Asked once per answer, after G1 and before G2 is checked; what it finds is withheld
        (G2) on top of what the gate's word rules (``policies/sides.py``) withhold.
        """
        ...

    def disagreements(
        self, passages: Sequence[Passage], *, question: str | None, store: KnowledgeStore | None = None
    ) -> Detection:
        """Where passages of different sources disagree on what ``question`` asks.

        With ``question=None`` (at ingest): on anything both state. ``store``, when given,
        is read for what the register already holds (a detector may leave that to the gate).
        """
        ...

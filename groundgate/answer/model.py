"""The answer object: text, claims with citations, contested positions, honest notes."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from groundgate.graph.bounds import TrippedBound

__all__ = ["Answer", "Citation", "Claim", "ContestedPoint", "GroundingReport", "StatedPosition"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Citation(_Model):
    """A source the answer relies on."""

    source_id: str
    title: str = ""
    kind: str = ""
    supplied_by: str | None = None
    """The register entry that supplied this source when the run did not retrieve it."""
    superseded_by: tuple[str, ...] = ()
    """Documents that declare they supersede this source (``supersedes:`` in their front matter)."""


class Claim(_Model):
    """One sentence of the answer and what grounds it."""

    text: str
    citations: tuple[str, ...] = ()
    status: Literal["grounded", "flagged", "removed"] = "grounded"
    grounded_by: Literal["citation", "path", "passage", "none"] = "none"
    note: str | None = None


class StatedPosition(_Model):
    """One side of a disagreement, with its sources."""

    statement: str
    source_ids: tuple[str, ...]


class ContestedPoint(_Model):
    """A disagreement the answer must present without choosing a side."""

    topic: str
    positions: tuple[StatedPosition, ...]
    contradiction_id: str | None = None
    """The register entry, or ``None`` for a disagreement found in the evidence only."""
    owner: str | None = None
    status: Literal["open", "unrecorded"] = "open"


class GroundingReport(_Model):
    """How the grounding check treated the draft's claims."""

    grounded: int = 0
    flagged: int = 0
    removed: int = 0
    removed_citations: tuple[str, ...] = ()
    revised: bool = False
    model_revised: int = 0
    """Unsupported claims the model rewrote or dropped in the revision pass."""


class Answer(_Model):
    """What a user reads, plus everything needed to check it."""

    text: str
    claims: tuple[Claim, ...] = ()
    citations: tuple[Citation, ...] = ()
    contested: tuple[ContestedPoint, ...] = ()
    asides: tuple[ContestedPoint, ...] = ()
    """Open entries the answer speaks to that the question does not turn on: shown as a note."""
    insufficient: tuple[str, ...] = ()
    """Everything the answer cannot say, and why."""
    bound_tripped: TrippedBound | None = None
    """The bound that stopped the run, if one did (the answer says so in its notes)."""
    grounding: GroundingReport = GroundingReport()
    policy_notes: tuple[str, ...] = ()
    """What the policy layer imposed and why."""
    answered: bool = True
    """False when the answer is an explicit "the sources do not say"."""
    lane: str = "agent"
    extras: dict[str, Any] = Field(default_factory=dict)

"""The trace's two kinds of step: a tool call and a model call, one builder each.

Both lanes build their tool steps with ``ToolStep.of`` and every model call's step comes
from ``ModelStep`` (through ``models.call.call_model``). State keeps steps as plain data
(``to_json()``: the shape the trace and run files have always had); nodes read them back
through ``read_steps``, never by string keys.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from groundgate.tools.envelope import Envelope

__all__ = ["Capped", "Hit", "ModelStep", "Step", "ToolStep", "cut_notes", "read_steps"]


class _Step(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    _omitted_when_none: ClassVar[frozenset[str]] = frozenset()
    """Fields left out of the plain form when unset, as the trace has always shown them."""

    def to_json(self) -> dict[str, Any]:
        """The step as state, the trace and run files hold it (plain data, keys in trace order)."""
        empty = {name for name in self._omitted_when_none if getattr(self, name) is None}
        return self.model_dump(exclude=empty)


class Hit(BaseModel):
    """One result of a tool call as the trace shows it: its id and score."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    score: float


class Capped(BaseModel):
    """A round that asked for more calls than a round may run."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    asked: int
    """Calls the model asked for."""
    ran: int
    """Calls that ran (``Bounds.max_calls_per_round``)."""


class ToolStep(_Step):
    """One tool call: what was asked, what came back (ids, scores, sources), flags and cost."""

    _omitted_when_none = frozenset({"capped", "omitted", "lane"})

    kind: Literal["tool"] = "tool"
    round: int
    """The run's tool round, from 1."""
    call_id: str
    tool: str
    args: dict[str, Any] = Field(default_factory=dict)
    digest: str
    """``Envelope.digest()``: a fingerprint of what the tool returned."""
    results: int
    """How many results came back."""
    hits: tuple[Hit, ...] = ()
    source_ids: tuple[str, ...] = ()
    insufficient: bool = False
    error: str | None = None
    tokens: int
    """Tokens of what the model is (or would be) shown: ``for_model()`` at four characters a token."""
    ms: float
    capped: Capped | None = None
    """Set on a round's first step when the round's calls were cut to the bound."""
    omitted: int | None = None
    """Results left out of what the model was sent, past what one result may send it."""
    lane: str | None = None
    """``pipeline`` or ``agent``, in a router's merged trace."""

    @classmethod
    def of(cls, envelope: Envelope, round_no: int, *, shown: str | None = None) -> ToolStep:
        """The step of one call, from its envelope (both lanes build theirs here).

        ``shown`` is ``envelope.for_model()`` when the caller has it already (it is not cheap).
        """
        text = envelope.for_model() if shown is None else shown
        return cls(
            round=round_no,
            call_id=envelope.call_id,
            tool=envelope.tool,
            args=envelope.args,
            digest=envelope.digest(),
            results=len(envelope.results),
            hits=tuple(Hit(id=r.id, score=round(r.score, 4)) for r in envelope.results),
            source_ids=envelope.source_ids,
            insufficient=envelope.insufficient,
            error=envelope.error,
            tokens=len(text) // 4,
            ms=envelope.ms,
            omitted=_omitted(text),
        )

    def to_json(self) -> dict[str, Any]:
        """The plain form, with ``hits`` and ``source_ids`` as lists (as the trace has them)."""
        data = super().to_json()
        data["source_ids"] = list(self.source_ids)
        data["hits"] = [dict(h) for h in data["hits"]]
        return data


def cut_notes(steps: Iterable[ToolStep | ModelStep]) -> tuple[str, ...]:
    """What a bound cut from the run's rounds, in a person's words (for "What I cannot say")."""
    notes: list[str] = []
    for step in steps:
        if isinstance(step, ToolStep) and step.capped:
            notes.append(f"only the first {step.capped.ran} of {step.capped.asked} tool calls of round "
                         f"{step.round} were run (a round runs at most {step.capped.ran})")
        if isinstance(step, ToolStep) and step.omitted:
            notes.append(f"{step.omitted} of {step.results} results of {step.tool} (round {step.round}) "
                         "were not read: more than one result may send")
    return tuple(notes)


def _omitted(shown: str) -> int | None:
    """How many results ``shown`` (a ``for_model()`` text) says it left out for size."""
    if '"omitted"' not in shown:
        return None
    try:
        count = json.loads(shown).get("omitted")
    except ValueError:
        return None
    return count if isinstance(count, int) and count > 0 else None


class ModelStep(_Step):
    """One model call: its purpose, the tool calls it asked for, tokens, time and any error."""

    _omitted_when_none = frozenset({
        "tool_choice_rejected", "calls_from_text", "error", "fallback", "discarded_text_chars", "lane",
    })

    kind: Literal["model"] = "model"
    round: int
    """The tool round it planned from (``-1`` for the revision pass)."""
    model: str
    purpose: str
    """``plan``, ``answer`` or ``revision``."""
    tool_calls: tuple[str, ...] = ()
    """The names of the tools it called."""
    tool_choice_rejected: tuple[str, ...] | None = None
    """Errors of the forced tool choices the provider refused, in order."""
    calls_from_text: bool | None = None
    """Set when the tool calls were read from the reply's text."""
    tokens: int = 0
    error: str | None = None
    ms: float = 0.0
    fallback: str | None = None
    """``first_round`` when the fixed first round ran instead of the model's reply;
    ``second_round`` when the planner's second round ran instead of a refusal after one round."""
    discarded_text_chars: int | None = None
    """Characters of the reply's text that the fixed first round replaced."""
    lane: str | None = None
    """``pipeline`` or ``agent``, in a router's merged trace."""

    def to_json(self) -> dict[str, Any]:
        """The plain form, with the sequences as lists (as the trace has them)."""
        data = super().to_json()
        data["tool_calls"] = list(self.tool_calls)
        if self.tool_choice_rejected is not None:
            data["tool_choice_rejected"] = list(self.tool_choice_rejected)
        return data


Step = Annotated[ToolStep | ModelStep, Field(discriminator="kind")]
"""A step of the trace: a tool call or a model call."""

_STEPS: TypeAdapter[list[ToolStep | ModelStep]] = TypeAdapter(list[Step])


def read_steps(steps: Iterable[Mapping[str, Any] | ToolStep | ModelStep]) -> list[ToolStep | ModelStep]:
    """Steps from state or a trace (plain data) as their models."""
    return _STEPS.validate_python([s.to_json() if isinstance(s, _Step) else s for s in steps])

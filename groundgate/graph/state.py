"""The agent's state (serialisable) and its input/output schemas for subgraph use."""

from __future__ import annotations

import operator
from typing import Annotated, Any, NotRequired, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages

from groundgate.graph.bounds import TrippedBound

__all__ = ["AgentInput", "AgentOutput", "AgentState"]


class AgentInput(TypedDict):
    """What a caller gives the agent."""

    question: str
    """The question, in plain words."""
    as_of: NotRequired[str | None]
    """Answer as of this date (YYYY-MM-DD); omitted means today / undated."""


class AgentOutput(TypedDict):
    """What the agent returns."""

    answer: dict[str, Any]
    """The ``Answer`` object, as JSON-ready data."""
    trace: dict[str, Any]
    """Every step (tool calls and model calls) with totals and the model name."""


class AgentState(TypedDict, total=False):
    """The run's state; only plain data, so any checkpointer can hold it."""

    question: str
    """The question."""
    as_of: str | None
    """The question's date, if any."""
    messages: Annotated[list[AnyMessage], add_messages]
    """The conversation with the planner model."""
    envelopes: Annotated[list[dict[str, Any]], operator.add]
    """Every tool envelope, in call order (full data, not the model's view); read with ``read_envelopes``."""
    steps: Annotated[list[dict[str, Any]], operator.add]
    """The trace steps (``ToolStep``/``ModelStep`` as plain data), in order; read with ``read_steps``."""
    rounds: int
    """Tool rounds executed so far."""
    tokens: int
    """Model tokens used so far (input + output)."""
    started_at: float
    """Wall-clock start of the run (epoch seconds)."""
    bound_tripped: TrippedBound | None
    """The bound that stopped the run, if one did."""
    model_error: dict[str, Any] | None
    """The model call that failed (model, purpose, error), if one did: the run then composes."""
    draft: dict[str, Any] | None
    """The composed draft answer, before grounding and the gate."""
    answer: dict[str, Any]
    """The final answer."""
    trace: dict[str, Any]
    """The final trace."""

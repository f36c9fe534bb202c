"""bound_check: rounds, tokens and wall clock, enforced in code after every tool round."""

from __future__ import annotations

import time
from typing import Any

from langgraph.runtime import Runtime

from groundgate.graph.context import Context
from groundgate.graph.state import AgentState

__all__ = ["bound_check", "route_after_bound_check"]


def bound_check(state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Record the first bound the run has reached, if any; it routes the run to compose."""
    tripped = runtime.context.bounds.first_reached(
        rounds=state.get("rounds") or 0, tokens=state.get("tokens") or 0,
        elapsed_s=round(time.time() - (state.get("started_at") or time.time()), 3),
    )
    return {"bound_tripped": tripped} if tripped else {}


def route_after_bound_check(state: AgentState) -> str:
    """A tripped bound or a failed model composes; otherwise the model plans again."""
    return "compose" if state.get("bound_tripped") or state.get("model_error") else "plan"

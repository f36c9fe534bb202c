"""gate: hand the grounded draft to the policy layer; build the final answer and trace."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from groundgate.answer.model import Answer
from groundgate.graph.context import Context
from groundgate.graph.state import AgentState
from groundgate.policies.apply import apply_policies
from groundgate.tools.steps import ModelStep, ToolStep, read_steps

__all__ = ["build_trace", "gate"]


def build_trace(state: AgentState, model_name: str, started_at: float | None) -> dict[str, Any]:
    """The run's trace: steps plus totals."""
    steps = list(state.get("steps") or [])
    read = read_steps(steps)
    tool_steps = [s for s in read if isinstance(s, ToolStep)]
    model_steps = [s for s in read if isinstance(s, ModelStep)]
    return {
        "model": model_name,
        "steps": steps,
        "totals": {
            "rounds": state.get("rounds") or 0,
            "tool_calls": len(tool_steps),
            "model_calls": len(steps) - len(tool_steps),
            "tokens": state.get("tokens") or 0,
            "tool_ms": round(sum(s.ms for s in tool_steps), 3),
            "model_ms": round(sum(s.ms for s in model_steps), 3),
            "errors": sum(1 for s in tool_steps if s.error),
            "model_errors": sum(1 for s in model_steps if s.error),
        },
        "bound_tripped": state.get("bound_tripped"),
    }


def gate(state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Apply the policies; the draft cannot opt out of them. The trace records the gate's verdict."""
    ctx = runtime.context
    draft = Answer.model_validate(state["draft"])
    final = apply_policies(
        draft, question=state["question"], envelopes=state.get("envelopes") or [], store=ctx.store,
        policies=ctx.policies,
    )
    trace = build_trace(state, ctx.model_name, state.get("started_at"))
    trace["invariants"] = final.extras.get("invariants")
    return {"answer": final.model_dump(mode="json"), "trace": trace}

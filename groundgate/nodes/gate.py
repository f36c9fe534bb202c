"""gate: hand the grounded draft to the policy layer; build the final answer and trace."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from groundgate.answer.model import Answer, Citation
from groundgate.errors import StoreError
from groundgate.graph.context import Context
from groundgate.graph.state import AgentState
from groundgate.policies.apply import apply_policies
from groundgate.policies.grounding import evidence_from

__all__ = ["build_trace", "gate"]


def build_trace(state: AgentState, model_name: str, started_at: float | None) -> dict[str, Any]:
    """The run's trace: steps plus totals."""
    steps = list(state.get("steps") or [])
    tool_steps = [s for s in steps if s["kind"] == "tool"]
    return {
        "model": model_name,
        "steps": steps,
        "totals": {
            "rounds": state.get("rounds") or 0,
            "tool_calls": len(tool_steps),
            "model_calls": len(steps) - len(tool_steps),
            "tokens": state.get("tokens") or 0,
            "tool_ms": round(sum(s["ms"] for s in tool_steps), 3),
            "model_ms": round(sum(s["ms"] for s in steps if s["kind"] == "model"), 3),
            "errors": sum(1 for s in tool_steps if s.get("error")),
            "model_errors": sum(1 for s in steps if s["kind"] == "model" and s.get("error")),
        },
        "bound_tripped": state.get("bound_tripped"),
    }


def gate(state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Apply the policies; the draft cannot opt out of them."""
    ctx = runtime.context
    envelopes = state.get("envelopes") or []
    draft = Answer.model_validate(state["draft"])
    final = apply_policies(
        draft, question=state["question"], envelopes=envelopes, store=ctx.store,
        policies=ctx.policies,
    )
    evidence = evidence_from(envelopes)
    cited = dict.fromkeys(
        [s for c in final.claims if c.status != "removed" for s in c.citations]
        + [s for p in final.contested for pos in p.positions for s in pos.source_ids]
    )
    citations = []
    for sid in cited:
        try:
            doc = ctx.store.get_document(sid)
        except StoreError:
            doc = None  # titles are a courtesy; an unreachable store must not end the run
        title = evidence.titles.get(sid) or (doc.title if doc else "")
        citations.append(Citation(source_id=sid, title=title, kind=doc.kind if doc else ""))
    final = final.model_copy(update={"citations": tuple(citations)})
    return {
        "answer": final.model_dump(mode="json"),
        "trace": build_trace(state, ctx.model_name, state.get("started_at")),
    }

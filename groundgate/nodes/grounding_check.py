"""grounding_check: every claim maps to a source or walked path in the trace."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from groundgate.answer.model import Answer
from groundgate.graph.context import Context
from groundgate.graph.state import AgentState
from groundgate.policies.grounding import evidence_from, ground_claims

__all__ = ["grounding_check"]


def grounding_check(state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Ground the draft's claims (one revision pass at most)."""
    draft = Answer.model_validate(state["draft"])
    verdict = ground_claims(
        draft.claims, evidence_from(state.get("envelopes") or []),
        mode=runtime.context.policies.grounding,
    )
    grounded = draft.model_copy(update={"claims": verdict.claims, "grounding": verdict.report})
    return {"draft": grounded.model_dump(mode="json")}

"""compose: the model's draft, or an extractive one from the trace, as claims."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage
from langgraph.runtime import Runtime

from groundgate.answer.claims import split_claims
from groundgate.answer.model import Answer
from groundgate.graph.context import Context
from groundgate.graph.state import AgentState
from groundgate.models.offline_answer import compose as extractive_answer
from groundgate.models.offline_trace import read_transcript

__all__ = ["compose", "draft_answer"]

INSUFFICIENT_MARK = "INSUFFICIENT:"


def _model_text(state: AgentState) -> str | None:
    messages = state.get("messages") or []
    last = messages[-1] if messages else None
    if isinstance(last, AIMessage) and not last.tool_calls:
        text = last.content if isinstance(last.content, str) else " ".join(
            part.get("text", "") for part in last.content if isinstance(part, dict)
        )
        return text.strip() or None
    return None


def draft_answer(text: str, *, bound_tripped: dict[str, Any] | None, lane: str) -> Answer:
    """Split a draft into claims; an ``INSUFFICIENT:`` lead becomes an honest note."""
    insufficient: list[str] = []
    answered = True
    body = text.strip()
    if body.upper().startswith(INSUFFICIENT_MARK):
        answered = False
        first, _, rest = body[len(INSUFFICIENT_MARK):].partition("\n")
        insufficient.append(first.strip())
        body = rest.strip()
    return Answer(
        text=text,
        claims=tuple(split_claims(body)),
        insufficient=tuple(insufficient),
        bound_tripped=bound_tripped,
        answered=answered,
        lane=lane,
    )


def compose(state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Draft the answer from the model's text, or extractively when it gave none."""
    text = _model_text(state)
    source = "model"
    if text is None:
        # The offline planner's answer selection works for any model's trace.
        text = extractive_answer(read_transcript(state.get("messages") or []))
        source = "extractive"
    draft = draft_answer(text, bound_tripped=state.get("bound_tripped"), lane="agent")
    draft = draft.model_copy(update={"extras": {"draft_source": source, "draft_text": text}})
    return {"draft": draft.model_dump(mode="json")}

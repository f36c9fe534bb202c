"""compose: the model's draft, or an extractive one from the trace, as claims."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage
from langgraph.runtime import Runtime

from groundgate.answer.claims import split_claims
from groundgate.answer.model import Answer, Claim
from groundgate.graph.context import Context
from groundgate.graph.state import AgentState
from groundgate.reading import INSUFFICIENT_MARK
from groundgate.reading.transcript import read_transcript

__all__ = ["INSUFFICIENT_MARK", "compose", "draft_answer", "model_failed_note", "with_trace_reason"]

def _model_text(state: AgentState) -> str | None:
    messages = state.get("messages") or []
    last = messages[-1] if messages else None
    if isinstance(last, AIMessage) and not last.tool_calls:
        text = last.content if isinstance(last.content, str) else " ".join(
            part.get("text", "") for part in last.content if isinstance(part, dict)
        )
        return text.strip() or None
    return None


MAX_ANSWER_CHARS = 8000
"""Characters of claims a draft may hold; a longer draft keeps its first claims and says so."""


def draft_answer(text: str, *, bound_tripped: dict[str, Any] | None, lane: str) -> Answer:
    """Split a draft into claims; an ``INSUFFICIENT:`` lead becomes an honest note."""
    insufficient: list[str] = []
    answered = True
    body = text.strip()
    if body.upper().startswith(INSUFFICIENT_MARK):
        answered = False
        first, _, rest = body[len(INSUFFICIENT_MARK):].partition("\n")
        insufficient.append(first.strip().rstrip("."))
        body = rest.strip()
    claims = split_claims(body)
    kept: list[Claim] = []
    size = 0
    for claim in claims:
        size += len(claim.text)
        if size > MAX_ANSWER_CHARS:
            insufficient.append(
                f"the draft was cut to its first {len(kept)} of {len(claims)} claims "
                f"(an answer holds at most {MAX_ANSWER_CHARS:,} characters)"
            )
            break
        kept.append(claim)
    return Answer(
        text=text[: MAX_ANSWER_CHARS * 2],
        claims=tuple(kept),
        insufficient=tuple(insufficient),
        bound_tripped=bound_tripped,
        answered=answered,
        lane=lane,
    )


MODEL_FOUND_NOTHING = "the model found no answer in what the tools returned"
"""The insufficient note of a model's INSUFFICIENT draft when the trace's reading gives no reason."""


def with_trace_reason(draft: Answer, extractive: str) -> Answer:
    """A model's INSUFFICIENT draft with the reason read from the trace instead of the model's words."""
    if draft.answered:
        return draft
    reason = draft_answer(extractive, bound_tripped=None, lane=draft.lane).insufficient
    return draft.model_copy(update={"insufficient": reason or (MODEL_FOUND_NOTHING,)})


def model_failed_note(error: dict[str, Any]) -> str:
    """The sentence that says the model failed, and what the answer rests on instead."""
    return (
        f"The model {error.get('model') or ''!r} failed ({error.get('error')}); this answer is "
        "composed from what the tools had returned before that."
    )


def compose(state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Draft the answer from the model's text, or extractively when it gave none.

    A model's text counts only when the run retrieved something: an answer drafted
    without any tool result is never shown. The reason a model gives for INSUFFICIENT is
    its own words, not a source's: the answer says why from the trace instead.
    """
    model_text = _model_text(state)
    retrieved = any(e.get("results") for e in state.get("envelopes") or [])
    model_error = state.get("model_error")


    def extractive() -> str:  # the run's reader reads any model's trace
        return runtime.context.reader.read(read_transcript(state.get("messages") or [])).text()

    if model_text is not None and retrieved and not model_error:
        text, source = model_text, "model"
    else:
        text, source = extractive(), "extractive"
    draft = draft_answer(text, bound_tripped=state.get("bound_tripped"), lane="agent")
    if source == "model" and not draft.answered:
        draft = with_trace_reason(draft, extractive())
    if model_error:
        notes = (model_failed_note(model_error), *draft.insufficient)
        draft = draft.model_copy(update={"insufficient": notes})
    for step in state.get("steps") or []:
        if step.get("capped"):
            capped = step["capped"]
            note = (f"only the first {capped['ran']} of {capped['asked']} tool calls of round "
                    f"{step['round']} were run (a round runs at most {capped['ran']})")
            draft = draft.model_copy(update={"insufficient": (*draft.insufficient, note)})
    extras: dict[str, Any] = {
        "draft_source": source, "draft_text": (model_text or text)[: MAX_ANSWER_CHARS * 2],
    }
    if model_error:
        extras["model_error"] = model_error
    draft = draft.model_copy(update={"extras": extras})
    return {"draft": draft.model_dump(mode="json")}

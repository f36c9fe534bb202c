"""compose: the model's draft, or an extractive one from the trace, as claims."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage
from langgraph.runtime import Runtime

from groundgate.answer.claims import split_claims
from groundgate.answer.model import Answer, Claim
from groundgate.graph.bounds import TrippedBound
from groundgate.graph.context import Context
from groundgate.graph.state import AgentState
from groundgate.reading import INSUFFICIENT_MARK, Reading
from groundgate.reading.transcript import read_transcript
from groundgate.tools.envelope import read_envelopes
from groundgate.tools.steps import cut_notes, read_steps

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


def draft_answer(text: str, *, bound_tripped: TrippedBound | None, lane: str) -> Answer:
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


MODEL_REFUSED_NOTE = ("compose: the model found no answer, but the retrieved passages state one; "
                      "the answer is read from them")
"""The policy note of a model's INSUFFICIENT draft that the run's reader answered instead."""


SETTLES_REFUSAL = 0.8
"""A reading must cover this weighted share of the question's words to overrule a model's refusal."""


def with_trace_reason(draft: Answer, reading: Reading) -> Answer:
    """A model's INSUFFICIENT draft, settled by the run's reader of the same trace.

    When the reader reads a close answer in the retrieved passages (its sentences cover at
    least ``SETTLES_REFUSAL`` of the question's weighted words), that answer replaces the
    refusal: a weak model refuses what it was handed. Otherwise the refusal stands, with the
    reader's reason instead of the model's own words.
    """
    if draft.answered:
        return draft
    read = draft_answer(reading.text(), bound_tripped=draft.bound_tripped, lane=draft.lane)
    if read.answered and read.claims and reading.score >= SETTLES_REFUSAL:
        return read.model_copy(update={
            "insufficient": (*read.insufficient, *draft.insufficient[1:]),
            "policy_notes": (*draft.policy_notes, MODEL_REFUSED_NOTE),
            "extras": {**draft.extras, "model_said_insufficient": True},
        })
    return draft.model_copy(update={"insufficient": read.insufficient or (MODEL_FOUND_NOTHING,)})


def model_failed_note(error: dict[str, Any]) -> str:
    """The sentence that says the model failed, and what the answer rests on instead."""
    return (
        f"The model {error.get('model') or ''!r} failed ({error.get('error')}); this answer is "
        "composed from what the tools had returned before that."
    )


def compose(state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Draft the answer from the model's text, or extractively when it gave none.

    A model's text counts only when the run retrieved something: an answer drafted
    without any tool result is never shown. A model's INSUFFICIENT is settled by the run's
    reader of the same trace: its answer, or its reason (never the model's own words).
    """
    model_text = _model_text(state)
    retrieved = any(e.results for e in read_envelopes(state.get("envelopes") or []))
    model_error = state.get("model_error")


    def reading() -> Reading:  # the run's reader reads any model's trace
        return runtime.context.reader.read(read_transcript(state.get("messages") or []))

    if model_text is not None and retrieved and not model_error:
        text, source = model_text, "model"
    else:
        text, source = reading().text(), "extractive"
    draft = draft_answer(text, bound_tripped=state.get("bound_tripped"), lane="agent")
    if source == "model" and not draft.answered:
        draft = with_trace_reason(draft, reading())
        if draft.extras.get("model_said_insufficient"):
            source = "extractive"
    if model_error:
        notes = (model_failed_note(model_error), *draft.insufficient)
        draft = draft.model_copy(update={"insufficient": notes})
    cuts = cut_notes(read_steps(state.get("steps") or []))
    if cuts:
        draft = draft.model_copy(update={"insufficient": (*draft.insufficient, *cuts)})
    extras: dict[str, Any] = {
        **draft.extras,
        "draft_source": source, "draft_text": (model_text or text)[: MAX_ANSWER_CHARS * 2],
    }
    if model_error:
        extras["model_error"] = model_error
    draft = draft.model_copy(update={"extras": extras})
    return {"draft": draft.model_dump(mode="json")}

"""plan: the chat model sees the question, the tool contract and the trace so far.

The first round always retrieves, so no model can answer from memory: the first call
asks the provider to force a tool call (``tool_choice="required"``, else the first search
by name), and when the model answers while nothing has been found (it made no call, or
its calls found nothing), a fixed round runs once instead (``first_round_calls``) and the
model plans from its results. A refusal after one round (or a reply of nothing but ids,
such as a bare ``[DOC-1]``) is not accepted yet either: the offline planner's second round runs
once (``second_round_calls``: walk what was resolved, check the register, read the
deciding document, search for what is missing) and the model is asked again with what it
found. A failing model
call ends planning: the run composes from the rounds already finished and says the model
failed. The run's wall clock is enforced around the call itself.
"""

from __future__ import annotations

import re
import time
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langchain_core.messages.tool import ToolCall
from langgraph.runtime import Runtime

from groundgate.graph.context import Context
from groundgate.graph.state import AgentState
from groundgate.models.call import call_model, estimate_tokens
from groundgate.models.offline_plan import next_calls
from groundgate.nodes.prompt import question_message, system_prompt
from groundgate.reading import INSUFFICIENT_MARK
from groundgate.reading.transcript import read_transcript
from groundgate.tools.contract import needs_ids, tool_schemas
from groundgate.tools.envelope import read_envelopes
from groundgate.tools.steps import ModelStep, read_steps

__all__ = [
    "estimate_tokens", "first_round_calls", "offered_tools", "plan", "route_after_plan", "second_round_calls",
]

FIRST_ROUND_TOP_K = 6
"""Passages the fixed first round asks for."""


def first_round_calls(question: str, tools: tuple[str, ...], as_of: str | None) -> list[ToolCall]:
    """The fixed first round when the model made no call: search, and check the register."""
    calls: list[ToolCall] = []
    if "search_evidence" in tools:
        args: dict[str, Any] = {"query": question[:400], "top_k": FIRST_ROUND_TOP_K}
        if as_of:
            args["as_of"] = as_of
        calls.append(ToolCall(name="search_evidence", args=args, id="first_round_0", type="tool_call"))
    elif "search_knowledge" in tools:
        calls.append(ToolCall(name="search_knowledge", args={"query": question[:400]}, id="first_round_0",
                              type="tool_call"))
    if "list_contradictions" in tools:
        calls.append(ToolCall(name="list_contradictions", args={"topic": question[:400]},
                              id=f"first_round_{len(calls)}", type="tool_call"))
    return calls


def second_round_calls(messages: list[Any], tools: tuple[str, ...]) -> list[ToolCall]:
    """The offline planner's second round over the conversation so far (one round done)."""
    transcript = read_transcript(messages)
    if transcript.rounds != 1:
        return []
    return [ToolCall(name=name, args=args, id=f"second_round_{i}", type="tool_call")
            for i, (name, args) in enumerate(next_calls(transcript, frozenset(tools)))]


def _gives_up(text: str | None) -> bool:
    """A reply that is no answer: an ``INSUFFICIENT:`` lead, or nothing but bracketed ids."""
    body = str(text or "").strip()
    if body.upper().startswith(INSUFFICIENT_MARK):
        return True
    return not re.search(r"\w", re.sub(r"\[[^\]]*\]", " ", body))


def offered_tools(tools: tuple[str, ...], found: bool) -> tuple[str, ...]:
    """The tools whose schemas a plan call is sent: those that start from an id only once a result came back.

    Until a tool has returned something the model holds no entity or source id, so
    ``traverse``, ``timeline``, ``diff`` and ``get_source`` could not be called sensibly;
    their schemas (about 390 of the contract's ~840 tokens) are left out of that call.
    Later calls list them after the others, so the first call's tools stay the start of
    every later prompt (a server that reuses the cached prefix of the last prompt, as
    llama.cpp's does, still reuses them).
    """
    waiting = needs_ids(tools)
    first = tuple(t for t in tools if t not in waiting)
    if not first:
        return tools
    return (*first, *(t for t in tools if t in waiting)) if found else first


def _forced_choices(tools: tuple[str, ...]) -> tuple[str | dict[str, Any], ...]:
    """How the first call asks for a tool: any tool, else (where "required" is refused) the first search."""
    search = next((t for t in ("search_evidence", "search_knowledge") if t in tools), tools[0])
    return ("required", {"type": "function", "function": {"name": search}})


def plan(state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Ask the model for the next tool calls or the answer."""
    ctx = runtime.context
    update: dict[str, Any] = {}
    history = list(state.get("messages") or [])
    started_at = state.get("started_at") or time.time()
    if not history:
        history = [HumanMessage(question_message(state["question"], state.get("as_of")))]
        update.update(messages=list(history), started_at=started_at, rounds=0, tokens=0)
    rounds = state.get("rounds") or 0
    first = rounds == 0
    found = any(e.results for e in read_envelopes(state.get("envelopes") or []))
    offered = offered_tools(ctx.tools, found)
    call = call_model(
        ctx.model, [SystemMessage(system_prompt(ctx.tools)), *history],
        purpose="plan", model_name=ctx.model_name, round_no=rounds, tools=tool_schemas(offered),
        tool_choice=_forced_choices(offered) if first else (),
        deadline=started_at + ctx.bounds.wall_clock_s,
    )
    step = call.step
    update["tokens"] = (state.get("tokens") or 0) + call.tokens
    if call.timed_out:
        update["bound_tripped"] = ctx.bounds.tripped("wall_clock", round(time.time() - started_at, 3))
    elif call.error:
        update["model_error"] = {"model": ctx.model_name, "purpose": "plan", "error": call.error}
    reply = call.reply
    fallen_back = any(isinstance(s, ModelStep) and s.fallback for s in read_steps(state.get("steps") or []))
    if not call.tool_calls and not found and not fallen_back and not update.get("bound_tripped"):
        # Nothing retrieved yet (no call, or only calls that found nothing): whatever the
        # model said, or failed to say, is not an answer.
        calls = first_round_calls(state["question"], ctx.tools, state.get("as_of"))
        if calls:
            step = step.model_copy(update={
                "fallback": "first_round", "discarded_text_chars": len(call.text) if call.text else None,
            })
            names = ", ".join(c["name"] for c in calls)
            reply = AIMessage(content=f"Retrieving first: {names}.", tool_calls=calls)
    elif (not call.tool_calls and found and _gives_up(call.text) and rounds == 1
          and not fallen_back and not update.get("bound_tripped") and not call.error):
        # "Not in the sources" (or no answer at all) after one round: look where the question
        # points before accepting it.
        calls = second_round_calls(history, ctx.tools)
        if calls:
            step = step.model_copy(update={"fallback": "second_round"})
            names = ", ".join(c["name"] for c in calls)
            reply = AIMessage(content=f"Looking further before answering: {names}.", tool_calls=calls)
    if reply is not None:
        update["messages"] = [*update.get("messages", []), reply]
    update["steps"] = [step.to_json()]
    return update


def route_after_plan(state: AgentState) -> str:
    """Tool calls go to tool_call; an answer, a failed model or a tripped bound go to compose."""
    if state.get("bound_tripped"):
        return "compose"
    messages = state.get("messages") or []
    last = messages[-1] if messages else None
    if isinstance(last, AIMessage) and last.tool_calls:
        return "tool_call"
    return "compose"

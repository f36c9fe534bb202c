"""plan: the chat model sees the question, the tool contract and the trace so far."""

from __future__ import annotations

import functools
import time
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langgraph.runtime import Runtime

from groundgate.errors import ModelUnavailable
from groundgate.graph.context import Context
from groundgate.graph.state import AgentState
from groundgate.nodes.prompt import question_message, system_prompt
from groundgate.tools.registry import select

__all__ = ["estimate_tokens", "plan", "route_after_plan"]


def estimate_tokens(messages: list[BaseMessage]) -> int:
    """A rough token count (4 characters a token) for models that report no usage."""
    return sum(len(str(m.content)) + len(str(getattr(m, "tool_calls", "") or "")) for m in messages) // 4


@functools.lru_cache(maxsize=32)
def _tool_schemas(names: tuple[str, ...]) -> tuple[dict[str, Any], ...]:
    """OpenAI-style function schemas; built once per tool set (pydantic schema generation is slow)."""
    return tuple(
        {
            "type": "function",
            "function": {
                "name": spec.name,
                "description": spec.description,
                "parameters": spec.args_model.model_json_schema(),
            },
        }
        for spec in select(names)
    )


_system_prompt = functools.lru_cache(maxsize=32)(system_prompt)


def plan(state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Ask the model for the next tool calls or the answer."""
    ctx = runtime.context
    update: dict[str, Any] = {}
    history = list(state.get("messages") or [])
    if not history:
        history = [HumanMessage(question_message(state["question"], state.get("as_of")))]
        update["messages"] = list(history)
        update["started_at"] = time.time()
        update["rounds"] = 0
        update["tokens"] = 0
    prompt = [SystemMessage(_system_prompt(ctx.tools)), *history]
    model = ctx.model.bind_tools(list(_tool_schemas(ctx.tools)))
    started = time.perf_counter()
    try:
        reply = model.invoke(prompt)
    except Exception as exc:  # the endpoint is down or refused: a clear error, not a traceback
        raise ModelUnavailable(
            f"the chat model {ctx.model_name!r} failed: {type(exc).__name__}: {exc}"
        ) from exc
    if not isinstance(reply, AIMessage):
        reply = AIMessage(content=str(getattr(reply, "content", reply)))
    usage: dict[str, Any] = dict(reply.usage_metadata or {})
    tokens = int(usage.get("total_tokens") or 0) or estimate_tokens([*prompt, reply])
    update["messages"] = [*update.get("messages", []), reply]
    update["tokens"] = (state.get("tokens") or 0) + tokens
    update["steps"] = [
        {
            "kind": "model",
            "round": state.get("rounds") or 0,
            "model": ctx.model_name,
            "tool_calls": [c["name"] for c in reply.tool_calls],
            "tokens": tokens,
            "ms": round((time.perf_counter() - started) * 1000, 3),
        }
    ]
    return update


def route_after_plan(state: AgentState) -> str:
    """Tool calls go to tool_call; an answer (or nothing) goes to compose."""
    messages = state.get("messages") or []
    last = messages[-1] if messages else None
    if isinstance(last, AIMessage) and last.tool_calls:
        return "tool_call"
    return "compose"

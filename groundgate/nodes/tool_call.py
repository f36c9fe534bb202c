"""tool_call: run the requested calls concurrently; every outcome becomes an envelope."""

from __future__ import annotations

import contextvars
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from datetime import date
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, ToolMessage
from langgraph.runtime import Runtime

from groundgate.graph.context import Context
from groundgate.graph.state import AgentState
from groundgate.tools.base import ToolDeps
from groundgate.tools.envelope import Envelope, error_envelope

__all__ = ["tool_call"]

_POOL_SIZE = 8
_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _shared_pool() -> ThreadPoolExecutor:
    """One pool for every run: starting threads per round was most of this node's cost.

    A call that outlives its timeout keeps its worker until it returns; its result is
    dropped and the run has already moved on with an error envelope.
    """
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=_POOL_SIZE, thread_name_prefix="gg-tool")
        return _pool


def _deps(state: AgentState, ctx: Context) -> ToolDeps:
    as_of = state.get("as_of")
    return ToolDeps(
        store=ctx.store,
        embedder=ctx.embedder,
        default_as_of=date.fromisoformat(as_of) if as_of else None,
    )


def _sent_before(state: AgentState) -> frozenset[str]:
    """Passages earlier rounds sent the model in full: a later result lists them by id."""
    sent: frozenset[str] = frozenset()
    for data in state.get("envelopes") or []:
        sent |= Envelope.model_validate(data).sent_ids(sent)
    return sent


def tool_call(state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Execute the last model message's tool calls, siblings independent of each other."""
    ctx = runtime.context
    last = state["messages"][-1]
    asked = last.tool_calls if isinstance(last, AIMessage) else []
    cap = ctx.bounds.max_calls_per_round
    calls = asked[:cap]
    deps = _deps(state, ctx)
    round_no = (state.get("rounds") or 0) + 1
    pool = _shared_pool()
    futures: list[tuple[dict[str, Any], Future[Envelope]]] = []
    for index, tool_call_ in enumerate(calls):
        call_id: str = tool_call_.get("id") or f"call_{round_no}_{index}"
        call: dict[str, Any] = {**tool_call_, "id": call_id}
        # Each call runs in a copy of this node's context: tracing (OpenTelemetry, LangSmith) nests under it.
        futures.append((call, pool.submit(
            contextvars.copy_context().run, ctx.run_tool, call["name"], dict(call.get("args") or {}), deps,
            allowed=ctx.tools, call_id=call_id,
        )))
    deadline = time.perf_counter() + ctx.bounds.tool_timeout_s
    envelopes: list[Envelope] = []
    for call, future in futures:
        try:
            envelope = future.result(timeout=max(0.0, deadline - time.perf_counter()))
        except FutureTimeout:
            envelope = error_envelope(
                call["name"], f"timed out after {ctx.bounds.tool_timeout_s}s",
                args=call.get("args"), call_id=call["id"],
            ).model_copy(update={"ms": ctx.bounds.tool_timeout_s * 1000})
        envelopes.append(envelope)
    messages: list[AnyMessage] = []
    steps = []
    sent = _sent_before(state)
    for envelope in envelopes:
        content = envelope.for_model(sent)
        messages.append(
            ToolMessage(content=content, tool_call_id=envelope.call_id, name=envelope.tool,
                        status="error" if envelope.error else "success")
        )
        steps.append({
            "kind": "tool",
            "round": round_no,
            "call_id": envelope.call_id,
            "tool": envelope.tool,
            "args": envelope.args,
            "digest": envelope.digest(),
            "results": len(envelope.results),
            "hits": [{"id": r.id, "score": round(r.score, 4)} for r in envelope.results],
            "source_ids": list(envelope.source_ids),
            "insufficient": envelope.insufficient,
            "error": envelope.error,
            "tokens": len(content) // 4,
            "ms": envelope.ms,
        })
    if len(asked) > cap:
        # The model's message keeps only the calls that ran (same id: the reducer replaces
        # it), so the next prompt does not carry hundreds of unanswered calls.
        messages.insert(0, last.model_copy(update={"tool_calls": calls}))
        steps[0]["capped"] = {"asked": len(asked), "ran": cap}
    return {
        "messages": messages,
        "envelopes": [e.model_dump(mode="json") for e in envelopes],
        "steps": steps,
        "rounds": round_no,
    }

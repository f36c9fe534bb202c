"""tool_call: run the requested calls concurrently; every outcome becomes an envelope."""

from __future__ import annotations

import contextvars
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from datetime import date
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, ToolMessage
from langgraph.runtime import Runtime

from groundgate.graph.context import Context
from groundgate.graph.state import AgentState
from groundgate.tools.base import ToolDeps
from groundgate.tools.envelope import Envelope, described, error_envelope, read_envelopes
from groundgate.tools.steps import Capped, ToolStep

__all__ = ["run_round", "tool_call"]

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


def _shown_before(state: AgentState) -> tuple[frozenset[str], frozenset[str]]:
    """Passages and walked nodes earlier rounds described to the model: later results list them by id."""
    sent: frozenset[str] = frozenset()
    walked: frozenset[str] = frozenset()
    for envelope in read_envelopes(state.get("envelopes") or []):
        passages, nodes = described(envelope.for_model(sent, walked))
        sent, walked = sent | passages, walked | nodes
    return sent, walked


def run_round(
    calls: Sequence[tuple[str, dict[str, Any], str]], deps: ToolDeps, ctx: Context,
) -> list[Envelope]:
    """Run one round's ``(name, args, call_id)`` calls concurrently, each an envelope, in order.

    The round as a whole is held to ``Bounds.tool_timeout_s``: a call still running then
    becomes an error envelope saying it timed out. Both lanes run their tool calls here.
    """
    pool = _shared_pool()
    # Each call runs in a copy of the caller's context: tracing (OpenTelemetry, LangSmith) nests under it.
    futures = [
        (name, args, call_id, pool.submit(
            contextvars.copy_context().run, ctx.run_tool, name, dict(args), deps,
            allowed=ctx.tools, call_id=call_id,
        ))
        for name, args, call_id in calls
    ]
    timeout = ctx.bounds.tool_timeout_s
    deadline = time.perf_counter() + timeout
    envelopes: list[Envelope] = []
    for name, args, call_id, future in futures:
        try:
            envelope = future.result(timeout=max(0.0, deadline - time.perf_counter()))
        except FutureTimeout:
            envelope = error_envelope(
                name, f"timed out after {timeout}s", args=args, call_id=call_id,
            ).model_copy(update={"ms": timeout * 1000})
        envelopes.append(envelope)
    return envelopes


def tool_call(state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Execute the last model message's tool calls, siblings independent of each other."""
    ctx = runtime.context
    last = state["messages"][-1]
    asked = last.tool_calls if isinstance(last, AIMessage) else []
    cap = ctx.bounds.max_calls_per_round
    calls = asked[:cap]
    round_no = (state.get("rounds") or 0) + 1
    envelopes = run_round(
        [(call["name"], call.get("args") or {}, call.get("id") or f"call_{round_no}_{index}")
         for index, call in enumerate(calls)],
        _deps(state, ctx), ctx,
    )
    sent, walked = _shown_before(state)
    shown: list[str] = []
    for envelope in envelopes:
        # Siblings of one round read in order: a node the first walk described, the second lists by id.
        shown.append(envelope.for_model(sent, walked))
        walked = walked | described(shown[-1])[1]
    messages: list[AnyMessage] = [
        ToolMessage(content=content, tool_call_id=envelope.call_id, name=envelope.tool,
                    status="error" if envelope.error else "success")
        for envelope, content in zip(envelopes, shown, strict=True)
    ]
    steps = [ToolStep.of(envelope, round_no, shown=content)
             for envelope, content in zip(envelopes, shown, strict=True)]
    if len(asked) > cap:
        # The model's message keeps only the calls that ran (same id: the reducer replaces
        # it), so the next prompt does not carry hundreds of unanswered calls.
        messages.insert(0, last.model_copy(update={"tool_calls": calls}))
        steps[0] = steps[0].model_copy(update={"capped": Capped(asked=len(asked), ran=cap)})
    return {
        "messages": messages,
        "envelopes": [e.model_dump(mode="json") for e in envelopes],
        "steps": [step.to_json() for step in steps],
        "rounds": round_no,
    }

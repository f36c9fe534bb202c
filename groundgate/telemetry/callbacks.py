"""Spans for the run, its nodes and its chat calls, from LangChain callback events.

A LangChain callback handler sees every run LangGraph starts (the graph, each node, each
chat-model call) with its run id and its parent's, in whichever thread runs it. Spans are
parented through those ids, not through thread-local state, so they nest correctly when
LangGraph runs nodes on worker threads or the agent runs as a subgraph. A node's span and
a chat call's span are also made *current* while they run, so spans opened inside them
(tool calls on the tool pool, HTTP client spans of a real model) nest under them.
"""

from __future__ import annotations

import threading
from contextvars import Token
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.outputs import LLMResult
from opentelemetry import context as otel_context
from opentelemetry import trace
from opentelemetry.trace import Span, SpanKind, Status, StatusCode, Tracer

from groundgate.telemetry import attributes as a

__all__ = ["AgentSpans"]


@dataclass
class _Open:
    span: Span
    token: Token[otel_context.Context] | None
    """The context token to detach when the span ends (``None``: the span was never made current)."""


def _is_node(name: str | None, tags: list[str] | None, metadata: dict[str, Any] | None) -> bool:
    # A node's own run is named after the node and tagged with its graph step; routers and
    # channel writes run under the node's metadata too, but with other names or tags.
    return bool(
        name
        and (metadata or {}).get("langgraph_node") == name
        and any(t.startswith("graph:step:") for t in tags or ())
    )


class AgentSpans(BaseCallbackHandler):
    """``invoke_agent`` for the run, one span per node, ``chat {model}`` per model call.

    Attach it to the compiled agent (``build_agent(..., telemetry=...)`` does) or pass it in
    ``config["callbacks"]``. The first run it sees whose parent it does not know is the
    agent's run; its span's parent is whatever span is current in the caller, so a run
    inside a caller's span (or inside a parent graph's node) joins the caller's trace.
    """

    run_inline = True  # called in the run's own context, never on an executor thread

    def __init__(
        self, tracer: Tracer, *, agent_name: str, model_name: str, record_content: bool = True
    ) -> None:
        self._tracer = tracer
        self._agent_name = agent_name
        self._model_name = model_name
        self._record_content = record_content
        self._lock = threading.Lock()
        self._parents: dict[UUID, UUID | None] = {}
        self._open: dict[UUID, _Open] = {}
        self._roots: set[UUID] = set()

    # -- bookkeeping -----------------------------------------------------------------

    def _parent_context(self, parent_run_id: UUID | None) -> otel_context.Context | None:
        """The context of the nearest ancestor run that has a span (``None``: the caller's)."""
        with self._lock:
            run = parent_run_id
            while run is not None:
                if run in self._open:
                    return trace.set_span_in_context(self._open[run].span)
                run = self._parents.get(run)
        return None

    def _start(self, run_id: UUID, name: str, parent: otel_context.Context | None, *, kind: SpanKind,
               attributes: dict[str, Any], current: bool) -> None:
        span = self._tracer.start_span(name, context=parent, kind=kind, attributes=attributes)
        token = otel_context.attach(trace.set_span_in_context(span)) if current else None
        with self._lock:
            self._open[run_id] = _Open(span, token)

    def _end(self, run_id: UUID, error: BaseException | None = None) -> Span | None:
        with self._lock:
            opened = self._open.pop(run_id, None)
            self._parents.pop(run_id, None)
            self._roots.discard(run_id)
        if opened is None:
            return None
        if error is not None and not _is_control_flow(error):
            opened.span.record_exception(error)
            opened.span.set_attribute(a.ERROR_TYPE, type(error).__qualname__)
            opened.span.set_status(Status(StatusCode.ERROR, str(error)[:500]))
        opened.span.end()
        if opened.token is not None:
            otel_context.detach(opened.token)
        return opened.span

    # -- chains: the agent run and its nodes ----------------------------------------

    def on_chain_start(self, serialized: dict[str, Any] | None, inputs: Any, *, run_id: UUID,
                       parent_run_id: UUID | None = None, tags: list[str] | None = None,
                       metadata: dict[str, Any] | None = None, **kwargs: Any) -> None:
        """Open the agent span (first unknown parent) or a node span."""
        name = kwargs.get("name")
        with self._lock:
            known_parent = parent_run_id is not None and parent_run_id in self._parents
            self._parents[run_id] = parent_run_id
            if not known_parent:
                self._roots.add(run_id)
        if not known_parent:
            attributes: dict[str, Any] = {
                a.OPERATION_NAME: "invoke_agent",
                a.AGENT_NAME: self._agent_name,
                a.REQUEST_MODEL: self._model_name,
            }
            if isinstance(inputs, dict):
                if self._record_content and isinstance(inputs.get("question"), str):
                    attributes[a.GG_QUESTION] = inputs["question"]
                if inputs.get("as_of"):
                    attributes[a.GG_AS_OF] = str(inputs["as_of"])
            # Not made current: a streaming caller's code runs between the graph's yields.
            self._start(run_id, f"invoke_agent {self._agent_name}", None, kind=SpanKind.INTERNAL,
                        attributes=attributes, current=False)
        elif _is_node(name, tags, metadata):
            step = (metadata or {}).get("langgraph_step")
            attributes = {a.GG_NODE: str(name)}
            if isinstance(step, int):
                attributes[a.GG_STEP] = step
            self._start(run_id, str(name), self._parent_context(parent_run_id), kind=SpanKind.INTERNAL,
                        attributes=attributes, current=True)

    def on_chain_end(self, outputs: Any, *, run_id: UUID, **kwargs: Any) -> None:
        """Record what the run or node produced and close its span."""
        with self._lock:
            opened = self._open.get(run_id)
            is_root = run_id in self._roots
        if opened is not None and isinstance(outputs, dict):
            if is_root:
                _record_run(opened.span, outputs)
            else:
                _record_node(opened.span, outputs)
        self._end(run_id)

    def on_chain_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        """Close the span as failed."""
        self._end(run_id, error)

    # -- chat model calls ------------------------------------------------------------

    def on_chat_model_start(self, serialized: dict[str, Any] | None, messages: Any, *, run_id: UUID,
                            parent_run_id: UUID | None = None, metadata: dict[str, Any] | None = None,
                            **kwargs: Any) -> None:
        """Open ``chat {model}`` under the node that called the model."""
        meta = metadata or {}
        model = str(meta.get("ls_model_name") or self._model_name)
        attributes: dict[str, Any] = {a.OPERATION_NAME: "chat", a.REQUEST_MODEL: model}
        if meta.get("ls_provider"):
            attributes[a.PROVIDER_NAME] = str(meta["ls_provider"])
        with self._lock:
            self._parents[run_id] = parent_run_id
        self._start(run_id, f"chat {model}", self._parent_context(parent_run_id), kind=SpanKind.CLIENT,
                    attributes=attributes, current=True)

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        """Record token usage, the response model and the requested tool calls."""
        with self._lock:
            opened = self._open.get(run_id)
        if opened is not None:
            _record_chat(opened.span, response)
        self._end(run_id)

    def on_llm_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        """Close the chat span as failed."""
        self._end(run_id, error)


def _is_control_flow(error: BaseException) -> bool:
    # LangGraph's interrupts and parent commands travel as exceptions; they are not failures.
    try:
        from langgraph.errors import GraphBubbleUp
    except ImportError:  # pragma: no cover
        return False
    return isinstance(error, GraphBubbleUp)


def _record_run(span: Span, outputs: dict[str, Any]) -> None:
    answer = outputs.get("answer") if isinstance(outputs.get("answer"), dict) else {}
    totals = (outputs.get("trace") or {}).get("totals") or {}
    if answer:
        span.set_attribute(a.GG_ANSWERED, bool(answer.get("answered")))
        span.set_attribute(a.GG_CONTESTED, len(answer.get("contested") or ()))
        span.set_attribute(a.GG_INSUFFICIENT_FLAGS, len(answer.get("insufficient") or ()))
        bound = answer.get("bound_tripped")
        if bound:
            span.set_attribute(a.GG_BOUND_TRIPPED, str(bound.get("bound")))
    if totals:
        span.set_attribute(a.GG_ROUNDS, int(totals.get("rounds") or 0))
        span.set_attribute(a.GG_TOOL_CALLS, int(totals.get("tool_calls") or 0))
        span.set_attribute(a.GG_TOKENS, int(totals.get("tokens") or 0))


def _record_node(span: Span, outputs: dict[str, Any]) -> None:
    if isinstance(outputs.get("rounds"), int):
        span.set_attribute(a.GG_ROUND, outputs["rounds"])
    tool_steps = [s for s in outputs.get("steps") or () if isinstance(s, dict) and s.get("kind") == "tool"]
    if tool_steps:
        span.set_attribute(a.GG_TOOL_CALLS, len(tool_steps))
    bound = outputs.get("bound_tripped")
    if isinstance(bound, dict):
        span.set_attribute(a.GG_BOUND_TRIPPED, str(bound.get("bound")))


def _record_chat(span: Span, response: LLMResult) -> None:
    generations = [g for batch in response.generations for g in batch]
    message = getattr(generations[0], "message", None) if generations else None
    usage = getattr(message, "usage_metadata", None) or {}
    if usage:
        span.set_attribute(a.USAGE_INPUT_TOKENS, int(usage.get("input_tokens") or 0))
        span.set_attribute(a.USAGE_OUTPUT_TOKENS, int(usage.get("output_tokens") or 0))
    llm_output = response.llm_output or {}
    metadata = getattr(message, "response_metadata", None) or {}
    model = llm_output.get("model_name") or metadata.get("model_name")
    if model:
        span.set_attribute(a.RESPONSE_MODEL, str(model))
    reasons = [
        str((g.generation_info or {}).get("finish_reason"))
        for g in generations
        if (g.generation_info or {}).get("finish_reason")
    ]
    if reasons:
        span.set_attribute(a.RESPONSE_FINISH_REASONS, reasons)
    calls = getattr(message, "tool_calls", None) or []
    span.set_attribute(a.GG_REQUESTED_TOOLS, [str(c.get("name")) for c in calls])

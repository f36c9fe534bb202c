"""``execute_tool {name}`` spans around tool calls, whichever runner executes them."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from opentelemetry.trace import SpanKind, Status, StatusCode, Tracer

from groundgate.graph.context import ToolRunner
from groundgate.telemetry import attributes as a
from groundgate.tools.base import ToolDeps
from groundgate.tools.envelope import Envelope
from groundgate.tools.registry import TOOLS

__all__ = ["TracedToolRunner"]


@dataclass(frozen=True)
class TracedToolRunner:
    """A ``ToolRunner`` that wraps each call of ``inner`` in an ``execute_tool`` span.

    The span is current while the call runs, so a retrieval span (or an MCP client's
    HTTP span) opened inside it nests under it; the caller must run it in a copy of the
    node's context (``tool_call`` does) for it to nest under the node across threads.
    """

    inner: ToolRunner
    tracer: Tracer
    record_content: bool = True

    def __call__(
        self, name: str, args: dict[str, Any], deps: ToolDeps, *, allowed: Iterable[str], call_id: str
    ) -> Envelope:
        """Run the call inside its span and record what came back."""
        spec = TOOLS.get(name)
        attributes: dict[str, Any] = {
            a.OPERATION_NAME: "execute_tool",
            a.TOOL_NAME: name,
            a.TOOL_TYPE: "function",
            a.TOOL_CALL_ID: call_id,
        }
        if spec is not None:
            attributes[a.TOOL_DESCRIPTION] = spec.description
        if self.record_content:
            attributes[a.TOOL_CALL_ARGUMENTS] = json.dumps(args, default=str, sort_keys=True)
        with self.tracer.start_as_current_span(
            f"execute_tool {name}", kind=SpanKind.INTERNAL, attributes=attributes
        ) as span:
            envelope = self.inner(name, args, deps, allowed=allowed, call_id=call_id)
            span.set_attributes({
                a.GG_DIGEST: envelope.digest(),
                a.GG_RESULT_COUNT: len(envelope.results),
                a.GG_SOURCE_IDS: list(envelope.source_ids),
                a.GG_INSUFFICIENT: envelope.insufficient,
            })
            if envelope.reason:
                span.set_attribute(a.GG_REASON, envelope.reason)
            if self.record_content:
                span.set_attribute(a.TOOL_CALL_RESULT, envelope.for_model())
            if envelope.error:
                # A failed call is an envelope the model sees, not an exception: mark the span failed.
                span.set_attribute(a.GG_ERROR, envelope.error)
                span.set_attribute(a.ERROR_TYPE, "tool_error")
                span.set_status(Status(StatusCode.ERROR, envelope.error))
        return envelope

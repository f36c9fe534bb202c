"""``Telemetry``: where groundgate's spans go, and ``make_telemetry`` to build one by setting.

Exporters by setting (``GROUNDGATE_TELEMETRY`` for the CLI):

- ``none`` (default): no telemetry object at all; the agent runs without any hook.
- ``console``: spans printed as JSON to stderr as they end.
- ``otlp``: OTLP over HTTP/protobuf to ``endpoint`` or ``OTEL_EXPORTER_OTLP_ENDPOINT``
  (``groundgate[otel]``).
- ``azure``: Azure Monitor / Application Insights via ``APPLICATIONINSIGHTS_CONNECTION_STRING``
  (``groundgate[otel-azure]``).

Bring your own: ``Telemetry(tracer_provider)`` uses any provider you have configured (or the
global one when given none).
"""

from __future__ import annotations

import sys
from importlib import metadata
from typing import TYPE_CHECKING, Any, Literal

from groundgate.errors import ConfigError

if TYPE_CHECKING:
    from opentelemetry.trace import Tracer, TracerProvider

    from groundgate.graph.context import ToolRunner
    from groundgate.knowledge.port import KnowledgeStore
    from groundgate.telemetry.callbacks import AgentSpans

__all__ = ["EXPORTERS", "Exporter", "Telemetry", "make_telemetry"]

_NEEDS_OTEL = "telemetry needs the OpenTelemetry SDK: pip install 'groundgate[otel]'"

Exporter = Literal["none", "console", "otlp", "azure"]
EXPORTERS: tuple[str, ...] = ("none", "console", "otlp", "azure")


def _version() -> str:
    try:
        return metadata.version("groundgate")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "0"


class Telemetry:
    """A tracer for groundgate's spans and the hooks that emit them.

    Args:
        tracer_provider: Where spans go; ``None`` uses the global provider.
        record_content: Record tool arguments, what the model saw of results, the question
            and the search query on spans. The GenAI conventions treat these as opt-in
            content; turn it off where questions or documents are sensitive.
    """

    def __init__(self, tracer_provider: TracerProvider | None = None, *, record_content: bool = True) -> None:
        try:  # imported here: a base install (no otel extra) can import this module and be told why
            from opentelemetry import trace
        except ImportError as exc:
            raise ConfigError(_NEEDS_OTEL) from exc
        self.provider = tracer_provider
        self.record_content = record_content
        self.tracer: Tracer = (tracer_provider or trace.get_tracer_provider()).get_tracer(
            "groundgate", _version()
        )

    def callbacks(self, agent_name: str = "groundgate", model_name: str = "") -> AgentSpans:
        """A LangChain callback handler emitting the run, node and chat spans."""
        from groundgate.telemetry.callbacks import AgentSpans

        return AgentSpans(self.tracer, agent_name=agent_name, model_name=model_name,
                          record_content=self.record_content)

    def trace_tools(self, run_tool: ToolRunner) -> ToolRunner:
        """``run_tool`` with an ``execute_tool {name}`` span around every call."""
        from groundgate.telemetry.tools import TracedToolRunner

        return TracedToolRunner(run_tool, self.tracer, self.record_content)

    def trace_store(self, store: KnowledgeStore) -> KnowledgeStore:
        """``store`` with a ``retrieval evidence`` span around every evidence search."""
        from groundgate.telemetry.store import TracedStore

        return TracedStore(store, self.tracer, record_content=self.record_content)

    def flush(self, timeout_ms: int = 5000) -> None:
        """Export what is buffered now (a CLI run ends before a batch would)."""
        flush = getattr(self.provider, "force_flush", None)
        if flush is not None:
            flush(timeout_ms)


def make_telemetry(
    exporter: str = "none",
    *,
    endpoint: str | None = None,
    connection_string: str | None = None,
    record_content: bool = True,
    service_name: str = "groundgate",
) -> Telemetry | None:
    """A ``Telemetry`` exporting to ``exporter``; ``None`` for ``"none"`` (no hooks, no cost)."""
    if exporter not in EXPORTERS:
        raise ConfigError(f"unknown telemetry exporter {exporter!r}; choose one of {', '.join(EXPORTERS)}")
    if exporter == "none":
        return None
    try:
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider as SdkTracerProvider
        from opentelemetry.sdk.trace.export import (
            BatchSpanProcessor,
            ConsoleSpanExporter,
            SimpleSpanProcessor,
        )
    except ImportError as exc:
        raise ConfigError(_NEEDS_OTEL) from exc
    provider = SdkTracerProvider(resource=Resource.create({"service.name": service_name}))
    processor: Any
    if exporter == "console":
        processor = SimpleSpanProcessor(ConsoleSpanExporter(out=sys.stderr))
    elif exporter == "otlp":
        try:
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        except ImportError as exc:
            raise ConfigError("the otlp exporter needs: pip install 'groundgate[otel]'") from exc
        traces = endpoint
        if endpoint and not endpoint.rstrip("/").endswith("/v1/traces"):
            traces = endpoint.rstrip("/") + "/v1/traces"  # the base URL, as OTEL_EXPORTER_OTLP_ENDPOINT is
        processor = BatchSpanProcessor(OTLPSpanExporter(endpoint=traces))
    else:
        try:
            from azure.monitor.opentelemetry.exporter import AzureMonitorTraceExporter
        except ImportError as exc:
            raise ConfigError("the azure exporter needs: pip install 'groundgate[otel-azure]'") from exc
        try:
            azure = AzureMonitorTraceExporter(connection_string=connection_string)
        except ValueError as exc:
            raise ConfigError(
                f"Azure Monitor needs a connection string (APPLICATIONINSIGHTS_CONNECTION_STRING): {exc}"
            ) from exc
        processor = BatchSpanProcessor(azure)
    provider.add_span_processor(processor)
    return Telemetry(provider, record_content=record_content)

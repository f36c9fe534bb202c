"""Exporters by setting: none costs nothing, console prints, OTLP reaches a collector."""

import http.server
import threading

import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from test_spans import QUESTION, _script

from groundgate.errors import ConfigError
from groundgate.graph.build import build_agent
from groundgate.telemetry import make_telemetry


def test_none_is_no_telemetry_at_all_and_unknown_names_are_refused():
    assert make_telemetry("none") is None
    with pytest.raises(ConfigError, match="otlp"):
        make_telemetry("jaeger")


def test_console_prints_each_span_as_json(bundled_store, capsys):
    telemetry = make_telemetry("console")
    build_agent(bundled_store, _script(), telemetry=telemetry).invoke({"question": QUESTION})
    printed = capsys.readouterr().err
    assert '"name": "invoke_agent groundgate"' in printed
    assert '"name": "execute_tool search_evidence"' in printed


class _Collector(http.server.BaseHTTPRequestHandler):
    received: list[tuple[str, bytes]] = []

    def do_POST(self):  # noqa: N802 - http.server's naming
        body = self.rfile.read(int(self.headers["Content-Length"]))
        type(self).received.append((self.path, body))
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.end_headers()

    def log_message(self, *args):
        pass


def test_otlp_export_reaches_a_local_collector(bundled_store):
    _Collector.received = []
    server = http.server.HTTPServer(("127.0.0.1", 0), _Collector)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        telemetry = make_telemetry("otlp", endpoint=f"http://127.0.0.1:{server.server_port}")
        build_agent(bundled_store, _script(), telemetry=telemetry).invoke({"question": QUESTION})
        telemetry.flush()
        telemetry.provider.shutdown()
    finally:
        server.shutdown()
        server.server_close()
    assert _Collector.received and all(path == "/v1/traces" for path, _ in _Collector.received)
    names = set()
    for _, body in _Collector.received:
        request = ExportTraceServiceRequest.FromString(body)
        for resource in request.resource_spans:
            service = {kv.key: kv.value.string_value for kv in resource.resource.attributes}["service.name"]
            assert service == "groundgate"
            for scope in resource.scope_spans:
                names |= {span.name for span in scope.spans}
    assert {"invoke_agent groundgate", "tool_call", "execute_tool search_evidence", "chat scripted"} <= names


def test_azure_without_its_extra_or_connection_string_is_a_clear_config_error():
    with pytest.raises(ConfigError, match="otel-azure|connection string"):
        make_telemetry("azure")


def test_groundgate_ask_exports_over_otlp_when_asked(bundled_store, monkeypatch):
    from typer.testing import CliRunner

    from groundgate.cli import app

    _Collector.received = []
    server = http.server.HTTPServer(("127.0.0.1", 0), _Collector)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", f"http://127.0.0.1:{server.server_port}")
        monkeypatch.setenv("GROUNDGATE_TELEMETRY", "otlp")
        result = CliRunner().invoke(
            app,
            ["ask", "What is the subsidence excess?", "--mode", "agent", "--store", str(bundled_store.path)],
        )
    finally:
        server.shutdown()
        server.server_close()
    assert result.exit_code == 0, result.output
    assert "1,000" in result.output
    names = {
        span.name
        for _, body in _Collector.received
        for resource in ExportTraceServiceRequest.FromString(body).resource_spans
        for scope in resource.scope_spans
        for span in scope.spans
    }
    assert {"invoke_agent groundgate", "execute_tool search_evidence", "retrieval evidence"} <= names

"""A backend that is down, slow or throttling yields error envelopes and an honest answer,
never a crashed run. No server is needed: every address here is a closed port on 127.0.0.1
or a transport that answers slowly or with 429s."""

from __future__ import annotations

import socket
import time
from datetime import UTC, datetime

import pytest
from conftest import FAST_RETRY

from groundgate.graph.build import build_agent
from groundgate.graph.context import Bounds
from groundgate.knowledge.azure import AzureSettings, AzureStore
from groundgate.knowledge.port import IngestBatch
from groundgate.models.offline import OfflinePlanner
from groundgate.testing.azure.transports import HandlerTransport
from groundgate.tools.base import ToolDeps
from groundgate.tools.registry import execute

QUESTION = "What is the late fee for printed books?"


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # closed again when the block ends: nothing listens


def down_settings() -> AzureSettings:
    port = closed_port()
    return AzureSettings(
        search_endpoint=f"http://127.0.0.1:{port}",
        search_key="k",
        cosmos_endpoint=f"https://127.0.0.1:{port}",
        cosmos_key="a2V5",
        gremlin_url=f"ws://127.0.0.1:{port}/gremlin",
        timeout_s=2.0,
        retry=FAST_RETRY,
    )


def run(store: AzureStore, bounds: Bounds | None = None) -> dict:
    agent = build_agent(store.read_only_view(), OfflinePlanner(), bounds=bounds)
    return agent.invoke({"question": QUESTION, "as_of": None})


def tool_steps(out: dict) -> list[dict]:
    return [s for s in out["trace"]["steps"] if s["kind"] == "tool"]


def test_an_agent_run_against_a_backend_that_is_down_ends_with_errors_and_no_claims():
    store = AzureStore.from_settings(down_settings())
    started = time.perf_counter()
    out = run(store)
    store.close()
    steps = tool_steps(out)
    assert steps and all(step["error"] for step in steps)
    assert any(
        "Cosmos DB" in s["error"] or "AI Search" in s["error"] or "Gremlin" in s["error"] for s in steps
    )
    assert out["answer"]["citations"] == []
    assert out["answer"]["answered"] is False
    assert time.perf_counter() - started < 60


def test_each_tool_returns_an_error_envelope_when_its_service_is_down():
    store = AzureStore.from_settings(down_settings()).read_only_view()
    deps = ToolDeps(store=store)
    for name, args in [
        ("search_evidence", {"query": "late fee"}),
        ("search_knowledge", {"query": "late fee"}),
        ("traverse", {"entity_id": "rule:late-fee"}),
        ("resolve_entity", {"mention": "late fee"}),
        ("list_contradictions", {"entity_ids": ["rule:late-fee"]}),
        ("get_source", {"source_id": "LIB-004"}),
        ("timeline", {"entity_id": "rule:late-fee"}),
    ]:
        envelope = execute(name, args, deps)
        assert envelope.error, name
        assert not envelope.results
    store.close()


def test_a_slow_search_service_becomes_a_timeout_envelope_and_the_run_completes(azure_store):
    """Cosmos and Gremlin up (local servers), AI Search answering after the tool bound."""
    from groundgate.knowledge.azure.search import SearchAdapter
    from groundgate.knowledge.ingest.pipeline import ingest
    from groundgate.testing.conformance import conformance_corpus

    ingest(azure_store, conformance_corpus(), now=datetime(2026, 1, 1, tzinfo=UTC))

    def slow(seen, request):
        time.sleep(1.5)
        return 200, {"value": []}, {}

    slowed = AzureStore(
        SearchAdapter(azure_store.search.settings, transport=HandlerTransport(slow)),
        azure_store.records,
        azure_store.graph,
    )
    started = time.perf_counter()
    out = run(slowed, Bounds(tool_timeout_s=0.5, wall_clock_s=30))
    searches = [s for s in tool_steps(out) if s["tool"] in ("search_evidence", "search_knowledge")]
    assert searches and all(s["error"] for s in searches)
    assert all(not s["error"] for s in tool_steps(out) if s["tool"] in ("traverse", "list_contradictions"))
    assert out["answer"]["text"]
    assert time.perf_counter() - started < 30


def test_a_throttled_search_service_is_retried_then_reported():
    calls = []

    def throttled(seen, request):
        calls.append(seen)
        return 429, {"error": {"message": "Too many requests"}}, {"Retry-After": "0"}

    store = AzureStore.from_settings(down_settings(), search_transport=HandlerTransport(throttled))
    envelope = execute("search_evidence", {"query": "late fee"}, ToolDeps(store=store.read_only_view()))
    store.close()
    assert envelope.error and "AI Search" in envelope.error
    assert len(calls) == FAST_RETRY.attempts


@pytest.mark.parametrize("method", ["apply"])
def test_the_read_only_view_refuses_writes(method):
    from datetime import UTC, datetime

    from groundgate.errors import StoreError

    store = AzureStore.from_settings(down_settings()).read_only_view()
    with pytest.raises(StoreError, match="read-only"):
        store.apply(IngestBatch(), now=datetime(2026, 1, 1, tzinfo=UTC))

"""`groundgate mcp` as a subprocess, driven by the official MCP client (mcp 2.x)."""

import socket
import subprocess
import sys
import time

import anyio
import pytest
from mcp.client import Client

from groundgate.tools.envelope import Envelope
from groundgate.tools.registry import ALL_TOOLS, TOOLS

CALLS = {
    "search_evidence": {"query": "subsidence excess"},
    "search_knowledge": {"query": "roof inspection"},
    "traverse": {"entity_id": "claim:CLM-1108", "hops": 1},
    "timeline": {"entity_id": "concept:roof-inspection-threshold"},
    "diff": {"new_id": "INS-SYN-003"},
    "resolve_entity": {"mention": "CLM-1108"},
    "list_contradictions": {"status": "open"},
    "get_source": {"source_id": "INS-SYN-003"},
}


def test_lists_the_eight_tools_with_schemas_and_calls_every_one(mcp_runner):
    # mcp_runner holds the official client's session with a `groundgate mcp` subprocess over stdio.
    tools = mcp_runner.list_tools()
    results = {name: mcp_runner.call_tool(name, args) for name, args in CALLS.items()}
    nothing = mcp_runner.call_tool("search_evidence", {"query": "qqzx vvbn wwxk"})
    failed = mcp_runner.call_tool("traverse", {"entity_id": "claim:CLM-1108", "hops": 99})

    assert [t.name for t in tools] == list(ALL_TOOLS)
    for tool in tools:
        spec = TOOLS[tool.name]
        assert tool.description == spec.description
        assert tool.input_schema == spec.args_model.model_json_schema()
        assert tool.output_schema["properties"].keys() >= {"results", "source_ids", "insufficient", "error"}
        assert tool.annotations.read_only_hint is True
        assert tool.annotations.destructive_hint is False

    assert set(CALLS) == set(ALL_TOOLS)
    for name, result in results.items():
        assert not result.is_error, (name, result.content)
        envelope = Envelope.model_validate(result.structured_content)
        assert envelope.tool == name and envelope.results and not envelope.insufficient
        assert result.content[0].text == envelope.for_model()  # the model's view travels beside it
    assert "INS-SYN-003" in results["search_evidence"].structured_content["source_ids"]
    assert results["resolve_entity"].structured_content["results"][0]["id"] == "claim:CLM-1108"
    contradiction = results["list_contradictions"].structured_content["results"][0]
    assert len(contradiction["data"]["positions"]) >= 2  # both positions, structured
    assert all(p["source_ids"] for p in contradiction["data"]["positions"])

    assert not nothing.is_error
    assert nothing.structured_content["insufficient"] is True and nothing.structured_content["reason"]
    assert failed.is_error and "hops" in failed.structured_content["error"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_http_transport_serves_the_same_tools(bundled_store):
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "groundgate", "mcp", "--transport", "http", "--port", str(port),
         "--store", str(bundled_store.path)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"the HTTP server did not start: {proc.stderr.read().decode()[-2000:]}")
                time.sleep(0.1)

        async def session():
            async with Client(f"http://127.0.0.1:{port}/mcp", read_timeout_seconds=30) as client:
                names = [t.name for t in (await client.list_tools()).tools]
                return names, await client.call_tool("get_source", {"source_id": "INS-SYN-003"})

        names, result = anyio.run(session)
        assert names == list(ALL_TOOLS)
        assert result.structured_content["results"][0]["id"] == "INS-SYN-003"
    finally:
        proc.terminate()
        proc.wait(timeout=10)

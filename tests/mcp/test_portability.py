"""Portability proof: tools loaded over MCP give the agent the same trace and answer."""

import json
import sys

import pytest
from mcp.client.stdio import StdioServerParameters

from groundgate.graph.build import build_agent
from groundgate.knowledge.default import bundled_questions
from groundgate.mcp.client import McpToolRunner
from groundgate.models.factory import make_chat_model
from groundgate.tools.base import ToolDeps

QIDS = ["q02", "q11", "q12", "q20", "q25", "q30"]  # single-hop, multi-hop, dated, contested, unanswerable


def _golden():
    rows = [json.loads(line) for line in bundled_questions().read_text().splitlines() if line.strip()]
    by_id = {q["qid"]: q for q in rows}
    return [by_id[qid] for qid in QIDS]


def _shape(out):
    steps = [
        {k: v for k, v in step.items() if k != "ms"}
        for step in out["trace"]["steps"]
    ]
    return steps, out["answer"]


@pytest.mark.parametrize("question", _golden(), ids=lambda q: q["qid"])
def test_agent_over_mcp_matches_in_process(bundled_store, mcp_runner, question):
    local = build_agent(bundled_store, make_chat_model("offline"))
    remote = build_agent(bundled_store, make_chat_model("offline"), run_tool=mcp_runner)
    given = {"question": question["question"], "as_of": question["as_of"]}

    local_steps, local_answer = _shape(local.invoke(given))
    remote_steps, remote_answer = _shape(remote.invoke(given))

    assert [s for s in remote_steps if s["kind"] == "tool"], "the run made no tool calls"
    assert remote_steps == local_steps  # tool sequence, arguments, digests, counts, tokens
    assert remote_answer == local_answer


def test_no_connection_is_an_error_envelope_not_a_crash(bundled_store):
    runner = McpToolRunner(StdioServerParameters(command=sys.executable))  # never connected
    envelope = runner("search_evidence", {"query": "subsidence"}, ToolDeps(store=bundled_store),
                      allowed=["search_evidence"], call_id="c1")
    assert envelope.error and envelope.insufficient and envelope.call_id == "c1"
    refused = runner("diff", {"new_id": "x"}, ToolDeps(store=bundled_store), allowed=["search_evidence"],
                     call_id="c2")
    assert refused.error == "unknown tool 'diff'; available: search_evidence"

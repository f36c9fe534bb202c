"""The documented embedding example: a parent with a different state, streamed and drawn."""

import importlib.util
import sys
from pathlib import Path
from xml.etree import ElementTree

from langchain_core.messages import AIMessage
from typer.testing import CliRunner

from groundgate.cli import app
from groundgate.graph.build import build_agent
from groundgate.testing.fake import ScriptedChatModel, answer, call

EXAMPLE = Path(__file__).parents[2] / "examples" / "embed_subgraph.py"


def _example():
    spec = importlib.util.spec_from_file_location("embed_subgraph_example", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # LangGraph resolves the state's annotations through it
    spec.loader.exec_module(module)
    return module


def test_the_example_maps_in_and_out_and_streams_the_agents_updates(bundled_store):
    model = ScriptedChatModel(script=[
        AIMessage(content="", tool_calls=[call("search_evidence", {"query": "subsidence excess"})]),
        answer("The subsidence excess is GBP 1,000. [INS-SYN-003]"),
    ])
    desk = _example().build_parent(build_agent(bundled_store, model))

    seen = []
    final = {}
    for namespace, update in desk.stream({"subject": "What is the subsidence excess?"}, subgraphs=True):
        seen += [(namespace[0].split(":")[0] if namespace else "", node) for node in update]
        for value in update.values():
            final.update(value or {})
    assert ("groundgate", "plan") in seen and ("groundgate", "gate") in seen  # the agent's own steps
    assert ("", "triage") in seen and ("", "reply") in seen
    assert final["reply"].endswith("-- Claims desk") and "1,000" in final["reply"]
    assert final["question"] == "What is the subsidence excess?"  # mapped in by triage
    assert final["sources"] == ["INS-SYN-003"]  # mapped out by reply


def test_groundgate_graph_xray_draws_the_agent_inside_the_parent(tmp_path):
    runner = CliRunner()
    flat = runner.invoke(app, ["graph", "--graph", f"{EXAMPLE}:parent_wiring"])
    xray = runner.invoke(app, ["graph", "--graph", f"{EXAMPLE}:parent_wiring", "--xray"])
    assert flat.exit_code == 0 and xray.exit_code == 0, xray.output
    assert "groundgate\\3aplan" not in flat.output
    assert "subgraph groundgate" in xray.output and "groundgate\\3abound_check" in xray.output

    out = tmp_path / "desk.svg"
    args = ["graph", "--graph", f"{EXAMPLE}:parent_wiring", "--xray", "-f", "svg", "-o", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    svg = ElementTree.parse(out).getroot()
    ns = {"s": "http://www.w3.org/2000/svg"}
    nodes = {g.get("data-node") for g in svg.iterfind(".//s:g[@class='node']", ns)}
    assert {"triage", "reply", "groundgate:plan", "groundgate:gate"} <= nodes
    frames = [t.text for t in svg.iterfind(".//s:g[@class='subgraph']/s:text", ns)]
    assert frames == ["groundgate"]

from pathlib import Path

from groundgate.graph.build import build_graph

SNAPSHOT = Path(__file__).parent / "agent.mmd"


def test_wiring_matches_the_committed_mermaid_snapshot():
    drawn = build_graph().compile().get_graph().draw_mermaid()
    assert drawn == SNAPSHOT.read_text(), "graph wiring changed: review and update tests/graph/agent.mmd"


def test_every_node_of_the_design_is_present():
    nodes = set(build_graph().compile().get_graph().nodes)
    assert {"plan", "tool_call", "bound_check", "compose", "grounding_check", "gate"} <= nodes

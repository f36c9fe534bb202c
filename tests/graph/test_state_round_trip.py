"""State holds envelopes, steps and the tripped bound as plain data a checkpointer keeps as is."""

from langchain_core.messages import AIMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

from groundgate.graph.bounds import Bounds
from groundgate.graph.build import build_agent
from groundgate.testing.fake import ScriptedChatModel, call
from groundgate.tools.envelope import read_envelopes
from groundgate.tools.steps import ModelStep, ToolStep, read_steps


def test_a_checkpointed_run_reads_back_the_same_envelopes_steps_and_bound(bundled_store):
    search = AIMessage(content="", tool_calls=[call("search_evidence", {"query": "roof"})])
    model = ScriptedChatModel(script=[search])  # asks for tools until the round bound stops it
    agent = build_agent(bundled_store, model, bounds=Bounds(max_rounds=2), checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "one"}}
    out = agent.invoke({"question": "What is the general roof inspection threshold?"}, config)
    serde = JsonPlusSerializer()
    state = serde.loads_typed(serde.dumps_typed(agent.get_state(config).values))
    tripped = {"bound": "rounds", "limit": 2, "used": 2}
    assert state["bound_tripped"] == tripped == out["answer"]["bound_tripped"]
    steps = read_steps(state["steps"])
    assert [s.to_json() for s in steps] == state["steps"] == out["trace"]["steps"], "plain form round-trips"
    tools = [s for s in steps if isinstance(s, ToolStep)]
    assert [e.call_id for e in read_envelopes(state["envelopes"])] == [s.call_id for s in tools]
    assert all(s.hits for s in tools) and sum(isinstance(s, ModelStep) for s in steps) == 2

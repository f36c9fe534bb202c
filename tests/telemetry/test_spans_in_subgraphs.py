"""Run as a subgraph, the agent's spans join the caller's trace under the parent's span."""

from typing import TypedDict

from langgraph.graph import END, START, StateGraph
from test_spans import QUESTION, _script

from groundgate.graph.build import build_agent


class Shared(TypedDict, total=False):
    question: str
    answer: dict
    trace: dict
    signed: bool


def test_the_agent_as_a_subgraph_node_nests_under_the_callers_span(bundled_store, spans):
    parent = StateGraph(Shared)
    parent.add_node("groundgate", build_agent(bundled_store, _script(), telemetry=spans.telemetry))
    parent.add_node("sign", lambda s: {"signed": True})
    parent.add_edge(START, "groundgate")
    parent.add_edge("groundgate", "sign")
    parent.add_edge("sign", END)
    graph = parent.compile()

    with spans.tracer.start_as_current_span("handle ticket") as caller:
        updates = list(graph.stream({"question": QUESTION}, subgraphs=True))

    assert any(ns and ns[0].startswith("groundgate") for ns, _ in updates)
    run = spans.one("invoke_agent groundgate")
    assert spans.parent(run).name == "handle ticket"
    assert {s.context.trace_id for s in spans.all} == {caller.get_span_context().trace_id}
    assert spans.parent(spans.one("execute_tool search_evidence")).name == "tool_call"
    assert spans.parent(spans.one("tool_call")) is run


def test_the_agent_called_from_a_parent_node_on_a_worker_thread_nests_too(bundled_store, spans):
    agent = build_agent(bundled_store, _script(), telemetry=spans.telemetry)

    class Ticket(TypedDict, total=False):
        subject: str
        reply: str
        note: str

    def research(ticket: Ticket) -> Ticket:
        out = agent.invoke({"question": ticket["subject"]})
        return {"reply": out["answer"]["text"]}

    parent = StateGraph(Ticket)
    parent.add_node("research", research)
    parent.add_node("note", lambda t: {"note": "parallel branch"})  # two nodes in one step: worker threads
    parent.add_edge(START, "research")
    parent.add_edge(START, "note")
    parent.add_edge("research", END)
    parent.add_edge("note", END)

    with spans.tracer.start_as_current_span("desk"):
        result = parent.compile().invoke({"subject": QUESTION})

    assert "1,000" in result["reply"]
    run = spans.one("invoke_agent groundgate")
    assert spans.parent(run).name == "desk"
    assert len({s.context.trace_id for s in spans.all}) == 1

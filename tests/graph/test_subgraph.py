"""The compiled agent embeds in a parent graph whose state is different."""

from typing import TypedDict

from langchain_core.messages import AIMessage
from langgraph.graph import END, START, StateGraph

from groundgate.graph.build import build_agent
from groundgate.testing.fake import ScriptedChatModel, answer, call


class Ticket(TypedDict, total=False):
    subject: str
    reply: str
    sources: list[str]


def _agent(store):
    model = ScriptedChatModel(script=[
        AIMessage(content="", tool_calls=[call("search_evidence", {"query": "subsidence excess"})]),
        answer("The subsidence excess is GBP 1,000. [INS-SYN-003]"),
    ])
    return build_agent(store, model)


def test_agent_runs_inside_a_parent_with_its_own_state_and_context(bundled_store):
    agent = _agent(bundled_store)

    def research(ticket: Ticket) -> Ticket:
        out = agent.invoke({"question": ticket["subject"]})
        sources = [c["source_id"] for c in out["answer"]["citations"]]
        return {"reply": out["answer"]["text"], "sources": sources}

    def sign(ticket: Ticket) -> Ticket:
        return {"reply": ticket["reply"] + "\n-- Claims desk"}

    parent = StateGraph(Ticket)
    parent.add_node("research", research)
    parent.add_node("sign", sign)
    parent.add_edge(START, "research")
    parent.add_edge("research", "sign")
    parent.add_edge("sign", END)
    result = parent.compile().invoke({"subject": "What is the subsidence excess?"})
    assert "1,000" in result["reply"] and result["reply"].endswith("Claims desk")
    assert result["sources"] == ["INS-SYN-003"]


def test_agent_as_a_subgraph_node_streams_its_updates(bundled_store):
    class Shared(TypedDict, total=False):
        question: str
        answer: dict
        trace: dict

    parent = StateGraph(Shared)
    parent.add_node("groundgate", _agent(bundled_store))
    parent.add_edge(START, "groundgate")
    parent.add_edge("groundgate", END)
    graph = parent.compile()
    namespaces = set()
    for namespace, _update in graph.stream({"question": "What is the subsidence excess?"}, subgraphs=True):
        namespaces.add(namespace[0].split(":")[0] if namespace else "")
    assert "groundgate" in namespaces
    drawn = graph.get_graph(xray=True).draw_mermaid()
    assert "bound_check" in drawn

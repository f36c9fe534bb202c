"""groundgate.testing as a user meets it: fixtures, the scripted model, cassettes around a graph."""

from typing import TypedDict

import pytest
from langchain_core.messages import AIMessage
from langgraph.graph import END, START, StateGraph

from groundgate.models.factory import make_chat_model
from groundgate.serve import ModelServer
from groundgate.testing.agent import agent_over_corpus
from groundgate.testing.cassettes import find_secrets, invoke_with_cassette
from groundgate.testing.fake import ScriptedChatModel, answer, call

# The groundgate_* fixtures come from groundgate.testing.fixtures (imported by this folder's conftest;
# a user writes `pytest_plugins = ["groundgate.testing.fixtures"]` in their root conftest).


def test_the_agent_fixture_answers_over_the_small_corpus(groundgate_agent):
    out = groundgate_agent.invoke({"question": "What is the standard loan period?"})
    assert "21 days" in out["answer"]["text"]
    assert {c["source_id"] for c in out["answer"]["citations"]} >= {"LIB-002"}


class TestWithAScriptedModel:
    @pytest.fixture
    def groundgate_model(self):
        return ScriptedChatModel(script=[
            AIMessage(content="", tool_calls=[call("search_evidence", {"query": "late fee printed books"})]),
            answer("Printed books cost EUR 0.50 a day late. [LIB-003]"),
        ])

    def test_the_scripted_calls_run_against_the_in_memory_store(self, groundgate_agent, groundgate_model):
        out = groundgate_agent.invoke({"question": "What is the late fee?"})
        step = next(s for s in out["trace"]["steps"] if s["kind"] == "tool")
        assert step["tool"] == "search_evidence" and "LIB-003" in step["source_ids"]
        assert len(groundgate_model.calls) == 2
        assert "LIB-003" in {c["source_id"] for c in out["answer"]["citations"]}


class Ticket(TypedDict, total=False):
    subject: str
    reply: str


def _helpdesk(model):
    """A user's own graph with the groundgate agent inside one of its nodes."""
    agent = agent_over_corpus(model=model, tools=["search_evidence"])

    def research(ticket: Ticket) -> Ticket:
        return {"reply": agent.invoke({"question": ticket["subject"]})["answer"]["text"]}

    graph = StateGraph(Ticket)
    graph.add_node("research", research)
    graph.add_edge(START, "research")
    graph.add_edge("research", END)
    return graph.compile()


def test_a_users_graph_recorded_once_replays_with_the_server_gone(tmp_path):
    tape = tmp_path / "cassettes" / "offline" / "helpdesk.yaml"
    ticket = {"subject": "What is the late fee for printed books?"}
    with ModelServer(port=0) as server:
        live = invoke_with_cassette(_helpdesk(make_chat_model(f"compatible:{server.base_url}#offline")),
                                    ticket, tape, record_mode="once")
        url = server.base_url
    # The server is stopped: the replay can only come from the cassette.
    replayed = invoke_with_cassette(_helpdesk(make_chat_model(f"compatible:{url}#offline", max_retries=0)),
                                    ticket, tape)
    assert replayed == live and "EUR" in replayed["reply"]
    assert find_secrets(tape) == []

"""The spans a run emits: names, nesting and attributes, including parallel tool calls."""

import asyncio
import json

from langchain_core.messages import AIMessage, ToolMessage
from opentelemetry.trace import StatusCode

from groundgate.graph.build import build_agent
from groundgate.testing.fake import ScriptedChatModel, answer, call

QUESTION = "What is the subsidence excess?"


def _step(messages):
    """Three parallel calls (one invalid) first, then the answer; stateless, so runs can share it."""
    if not any(isinstance(m, ToolMessage) for m in messages):
        return AIMessage(content="", tool_calls=[
            call("search_evidence", {"query": "subsidence excess"}, id="ev"),
            call("resolve_entity", {"mention": "Harbourline Home Plus"}, id="re"),
            call("traverse", {"entity_id": "x", "hops": 99}, id="bad"),
        ])
    return answer("The subsidence excess is GBP 1,000. [INS-SYN-003]")


def _script():
    return ScriptedChatModel(script=[_step])


def test_a_run_is_one_agent_span_with_node_chat_tool_and_retrieval_spans_nested(bundled_store, spans):
    agent = build_agent(bundled_store, _script(), telemetry=spans.telemetry)
    out = agent.invoke({"question": QUESTION})

    run = spans.one("invoke_agent groundgate")
    assert run.attributes["gen_ai.operation.name"] == "invoke_agent"
    assert run.attributes["gen_ai.agent.name"] == "groundgate"
    assert run.attributes["groundgate.question"] == QUESTION
    assert run.attributes["groundgate.tool_calls"] == 3
    assert run.attributes["groundgate.answered"] is out["answer"]["answered"]
    assert [s.name for s in spans.children(run)] == [
        "plan", "tool_call", "bound_check", "plan", "compose", "grounding_check", "gate"
    ]
    assert all(s.context.trace_id == run.context.trace_id for s in spans.all)

    chats = spans.named("chat scripted")
    assert len(chats) == 2 and all(spans.parent(c).name == "plan" for c in chats)
    assert chats[0].attributes["gen_ai.operation.name"] == "chat"
    assert chats[0].attributes["gen_ai.usage.input_tokens"] == 50
    assert chats[0].attributes["gen_ai.usage.output_tokens"] == 50
    requested = chats[0].attributes["groundgate.requested_tools"]
    assert requested == ("search_evidence", "resolve_entity", "traverse")


def test_parallel_tool_calls_are_sibling_spans_under_the_tool_call_node(bundled_store, spans):
    agent = build_agent(bundled_store, _script(), telemetry=spans.telemetry)
    out = agent.invoke({"question": QUESTION})
    steps = {s["tool"]: s for s in out["trace"]["steps"] if s["kind"] == "tool"}

    node = spans.one("tool_call")
    tools = [s for s in spans.children(node)]
    assert sorted(s.name for s in tools) == [
        "execute_tool resolve_entity", "execute_tool search_evidence", "execute_tool traverse"
    ]
    assert {s.parent.span_id for s in tools} == {node.context.span_id}

    search = spans.one("execute_tool search_evidence")
    attrs = search.attributes
    assert attrs["gen_ai.operation.name"] == "execute_tool"
    assert attrs["gen_ai.tool.name"] == "search_evidence"
    assert attrs["gen_ai.tool.call.id"].startswith("ev")
    assert json.loads(attrs["gen_ai.tool.call.arguments"])["query"] == "subsidence excess"
    assert attrs["groundgate.tool.result.digest"] == steps["search_evidence"]["digest"]
    assert attrs["groundgate.tool.result.count"] == steps["search_evidence"]["results"]
    assert attrs["groundgate.tool.insufficient"] is False
    assert "INS-SYN-003" in attrs["groundgate.tool.source_ids"]

    retrieval = spans.one("retrieval evidence")
    assert spans.parent(retrieval).name == "execute_tool search_evidence"
    docs = json.loads(retrieval.attributes["gen_ai.retrieval.documents"])
    assert "INS-SYN-003" in [d["document_id"] for d in docs]
    assert list(retrieval.attributes["groundgate.retrieval.document_ids"]) == [d["document_id"] for d in docs]
    assert list(retrieval.attributes["groundgate.retrieval.scores"]) == sorted(
        retrieval.attributes["groundgate.retrieval.scores"], reverse=True
    )
    assert retrieval.attributes["gen_ai.retrieval.query.text"] == "subsidence excess"

    bad = spans.one("execute_tool traverse")
    assert bad.status.status_code is StatusCode.ERROR
    assert bad.attributes["error.type"] == "tool_error"
    assert "hops" in bad.attributes["groundgate.tool.error"]
    assert bad.attributes["groundgate.tool.insufficient"] is True


def test_the_run_joins_the_callers_trace(bundled_store, spans):
    agent = build_agent(bundled_store, _script(), telemetry=spans.telemetry)
    with spans.tracer.start_as_current_span("caller request") as caller:
        agent.invoke({"question": QUESTION})
    run = spans.one("invoke_agent groundgate")
    assert spans.parent(run).name == "caller request"
    assert run.context.trace_id == caller.get_span_context().trace_id


def test_async_runs_nest_the_same_way(bundled_store, spans):
    agent = build_agent(bundled_store, _script(), telemetry=spans.telemetry)

    async def main():
        with spans.tracer.start_as_current_span("async caller"):
            await agent.ainvoke({"question": QUESTION})

    asyncio.run(main())
    run = spans.one("invoke_agent groundgate")
    assert spans.parent(run).name == "async caller"
    assert spans.parent(spans.one("execute_tool search_evidence")).name == "tool_call"
    assert all(spans.parent(c).name == "plan" for c in spans.named("chat scripted"))


def test_concurrent_runs_keep_their_spans_apart(bundled_store, spans):
    agent = build_agent(bundled_store, _script(), telemetry=spans.telemetry)
    agent.batch([{"question": QUESTION}, {"question": "What is the escape of water excess?"}])
    runs = spans.named("invoke_agent groundgate")
    assert len(runs) == 2 and runs[0].context.trace_id != runs[1].context.trace_id
    for run in runs:
        in_run = [s for s in spans.all if s.context.trace_id == run.context.trace_id]
        assert len([s for s in in_run if s.name.startswith("execute_tool")]) == 3


def test_without_telemetry_the_run_is_the_same(bundled_store, spans):
    plain = build_agent(bundled_store, _script()).invoke({"question": QUESTION})
    traced = build_agent(bundled_store, _script(), telemetry=spans.telemetry).invoke({"question": QUESTION})

    def shape(out):
        return out["answer"], [{k: v for k, v in s.items() if k != "ms"} for s in out["trace"]["steps"]]

    assert shape(plain) == shape(traced)


def test_routed_runs_through_ask_emit_tool_and_retrieval_spans(bundled_store, spans):
    from groundgate.ask import ask
    from groundgate.settings import Settings

    settings = Settings(store_path=bundled_store.path, model="offline")
    for mode in ("auto", "pipeline"):
        spans.exporter.clear()
        ask("What is the subsidence excess?", settings=settings, mode=mode, telemetry=spans.telemetry)
        names = {s.name for s in spans.all}
        assert "retrieval evidence" in names, mode
        assert any(n.startswith("execute_tool ") for n in names), mode

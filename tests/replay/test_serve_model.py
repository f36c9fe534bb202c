"""`groundgate serve-model`: the offline planner behind a real OpenAI client, live on localhost."""

import json
import threading
import time

import httpx
import openai
import pytest
from langchain_core.messages import HumanMessage, SystemMessage, ToolMessage
from langchain_openai import ChatOpenAI

from groundgate.models.offline import OfflinePlanner
from groundgate.nodes.prompt import question_message, system_prompt
from groundgate.serve import ModelServer
from groundgate.testing.agent import agent_over_corpus, memory_store
from groundgate.tools.contract import tool_schemas
from groundgate.tools.registry import ALL_TOOLS

TOOLS = list(tool_schemas(ALL_TOOLS))
FIRST_TURN = [SystemMessage(system_prompt(ALL_TOOLS)),
              HumanMessage(question_message("What is the late fee for printed books?", None))]


@pytest.fixture(scope="module")
def server():
    with ModelServer(port=0) as running:
        yield running


def _client_model(server, **kwargs):
    return ChatOpenAI(model="offline", base_url=server.base_url, api_key="x", max_retries=0, **kwargs)


def _in_process(messages):
    return OfflinePlanner().bind_tools(TOOLS).invoke(messages)


def _calls(message):
    return [(c["name"], c["args"], c["id"]) for c in message.tool_calls]


def test_models_are_listed(server):
    listed = httpx.get(f"{server.base_url}/models").json()
    assert [m["id"] for m in listed["data"]] == ["offline"]
    assert httpx.get(f"{server.base_url}/models/offline").json()["id"] == "offline"
    assert httpx.get(f"{server.base_url}/models/gpt-4o").status_code == 404


def test_chat_openai_receives_parsed_tool_calls(server):
    reply = _client_model(server).bind_tools(TOOLS).invoke(FIRST_TURN)
    expected = _in_process(FIRST_TURN)
    assert reply.tool_calls and _calls(reply) == _calls(expected)
    assert all(isinstance(c["args"], dict) for c in reply.tool_calls)
    assert reply.content == expected.content
    assert reply.response_metadata["finish_reason"] == "tool_calls"
    assert reply.usage_metadata["total_tokens"] == expected.usage_metadata["total_tokens"]


def test_chat_openai_streams_the_same_tool_calls(server):
    model = _client_model(server, streaming=True, stream_usage=True).bind_tools(TOOLS)
    pieces = list(model.stream(FIRST_TURN))
    assert len(pieces) > 3, "the reply arrives in several chunks"
    reply = pieces[0]
    for piece in pieces[1:]:
        reply = reply + piece
    expected = _in_process(FIRST_TURN)
    assert _calls(reply) == _calls(expected)
    assert reply.content == expected.content
    assert reply.usage_metadata["total_tokens"] == expected.usage_metadata["total_tokens"]


def test_a_conversation_with_tool_results_gets_the_planners_next_turn(server):
    first = _in_process(FIRST_TURN)
    results = [ToolMessage(content=json.dumps({"tool": c["name"], "insufficient": True, "reason": "nothing"}),
                           tool_call_id=c["id"]) for c in first.tool_calls]
    conversation = [*FIRST_TURN, first, *results]
    for streaming in (False, True):
        reply = _client_model(server, streaming=streaming).bind_tools(TOOLS).invoke(conversation)
        expected = _in_process(conversation)
        assert (reply.content, _calls(reply)) == (expected.content, _calls(expected))


def test_tool_choice_none_and_no_tools_get_an_answer_not_calls(server):
    raw = openai.OpenAI(base_url=server.base_url, api_key="x", max_retries=0)
    messages = [{"role": "user", "content": FIRST_TURN[1].content}]
    plain = raw.chat.completions.create(model="offline", messages=messages)
    assert plain.choices[0].finish_reason == "stop" and not plain.choices[0].message.tool_calls
    refused = raw.chat.completions.create(model="offline", messages=messages, tools=TOOLS, tool_choice="none")
    assert not refused.choices[0].message.tool_calls


@pytest.mark.parametrize("streaming", [False, True])
def test_the_whole_agent_over_http_matches_the_planner_in_process(server, streaming):
    store = memory_store()
    question = {"question": "What is the late fee for printed books?"}
    model = _client_model(server, streaming=streaming, stream_usage=True)
    remote = agent_over_corpus(store, model).invoke(question)
    local = agent_over_corpus(store, OfflinePlanner()).invoke(question)

    def strip(out):
        return [{k: v for k, v in s.items() if k not in ("ms", "model")} for s in out["trace"]["steps"]
                if s.get("purpose") != "revision"]

    assert remote["answer"] == local["answer"]
    assert strip(remote) == strip(local)
    # Over HTTP the graph sees a chat model, so it may ask it once to revise what grounding
    # could not support (the in-process planner is never asked); the served planner's
    # reply changes nothing, as the equal answers show.
    assert len(remote["trace"]["steps"]) - len(strip(remote)) <= 1
    assert remote["trace"]["totals"]["tool_calls"] >= 3


def test_errors_come_back_as_openai_errors(server):
    raw = openai.OpenAI(base_url=server.base_url, api_key="x", max_retries=0)
    with pytest.raises(openai.NotFoundError, match="serves 'offline'"):
        raw.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "hi"}])
    with pytest.raises(openai.BadRequestError, match="not valid JSON"):
        raw.chat.completions.create(model="offline", messages=[
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "x", "arguments": "{oops"}}]},
        ])
    broken = httpx.post(f"{server.base_url}/chat/completions", content=b"{not json",
                        headers={"Content-Type": "application/json"})
    assert broken.status_code == 400 and broken.json()["error"]["type"] == "invalid_request_error"
    assert httpx.post(f"{server.base_url}/embeddings", json={}).status_code == 404


def test_the_cli_command_serves_until_stopped(monkeypatch, capsys):
    import groundgate.serve
    from groundgate.cli.serve_model import serve_model

    started = []

    class Recorded(ModelServer):
        def serve_forever(self):
            started.append(self)
            super().serve_forever()

    monkeypatch.setattr(groundgate.serve, "ModelServer", Recorded)
    thread = threading.Thread(target=serve_model, kwargs={"port": 0, "host": "127.0.0.1",
                                                          "model_id": "offline", "quiet": True})
    thread.start()
    try:
        for _ in range(200):
            if started:
                break
            time.sleep(0.01)
        base_url = started[0].base_url
        assert httpx.get(f"{base_url}/models").json()["data"][0]["id"] == "offline"
        reply = _client_model(started[0]).bind_tools(TOOLS).invoke(FIRST_TURN)
        assert reply.tool_calls
    finally:
        if started:
            started[0]._httpd.shutdown()
        thread.join(timeout=10)
    assert not thread.is_alive()
    printed = capsys.readouterr().out
    assert f"serving the offline planner at {base_url}" in printed
    assert f"--model compatible:{base_url}#offline" in printed

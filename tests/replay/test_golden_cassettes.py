"""Golden-set runs over HTTP, replayed from cassettes with the model server stopped.

Each case is one cassette, cassettes/<model>/test_golden_run[<mode>-<qid>].yaml, recorded
against `groundgate serve-model` (or a real model) and replayed here with the network
blocked: every model call must match a recorded request exactly (method, path, JSON body)
and every recorded interaction must be used. Offline runs must also equal the planner run
in process; a real model's runs must replay and stay within their tools.
"""

import json

import pytest

from groundgate.ask import MODES
from groundgate.graph.build import build_agent
from groundgate.knowledge.default import bundled_questions
from groundgate.models.offline import OfflinePlanner
from groundgate.replay import comparable
from groundgate.testing.cassettes import assert_all_played

QUESTIONS = {q["qid"]: q for q in map(json.loads, bundled_questions().read_text().splitlines())}
CASES = [
    ("agent", "q01"), ("agent", "q11"), ("agent", "q21"), ("agent", "q25"), ("agent", "q30"),
    ("search-agent", "q01"), ("search-agent", "q11"), ("search-agent", "q25"), ("search-agent", "q30"),
]


def _run(store, model, mode, qid, name):
    q = QUESTIONS[qid]
    agent = build_agent(store, model, tools=MODES[mode], model_name=name)
    return agent.invoke({"question": q["question"], "as_of": q["as_of"]})


@pytest.mark.vcr
@pytest.mark.block_network
@pytest.mark.parametrize(("mode", "qid"), CASES, ids=[f"{m}-{q}" for m, q in CASES])
def test_golden_run(mode, qid, recorded_or_skip, bundled_store, chat_model, cassette_model, vcr, record_mode):
    out = _run(bundled_store, chat_model(), mode, qid, cassette_model)
    if record_mode == "none":
        assert_all_played(vcr)
    assert out["trace"]["totals"]["model_calls"] >= 1
    assert out["trace"]["totals"]["model_errors"] == 0, "every model call replayed from the cassette"
    assert {s["tool"] for s in out["trace"]["steps"] if s["kind"] == "tool"} <= set(MODES[mode])
    if cassette_model == "offline":
        # Over HTTP (request building, tool-call parsing) the planner decides exactly as in process.
        local = _run(bundled_store, OfflinePlanner(), mode, qid, cassette_model)
        assert comparable(out) == comparable(local)
        assert out["answer"]["answered"] is QUESTIONS[qid]["answerable"]


@pytest.mark.vcr
@pytest.mark.block_network
def test_golden_run_streaming(recorded_or_skip, bundled_store, chat_model, cassette_model, vcr, record_mode):
    """The same run with server-sent events: chunks reassembled into the same tool calls."""
    out = _run(bundled_store, chat_model(streaming=True, stream_usage=True), "agent", "q11", cassette_model)
    if record_mode == "none":
        assert_all_played(vcr)
    if cassette_model == "offline":
        local = _run(bundled_store, OfflinePlanner(), "agent", "q11", cassette_model)
        assert comparable(out) == comparable(local)

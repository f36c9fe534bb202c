"""The cassettes are strict: a changed prompt or question, a missing or repeated call fails.

These tests replay the committed offline cassettes through groundgate.testing.cassettes
(record_mode "none", network blocked). The file sorts after test_golden_cassettes.py, so a
re-recording session checks the freshly written cassettes.
"""

import shutil
from pathlib import Path

import pytest
import yaml
from vcr.errors import CannotOverwriteExistingCassetteException

from groundgate.graph.build import build_agent
from groundgate.graph.context import Bounds
from groundgate.models.factory import make_chat_model
from groundgate.nodes import plan
from groundgate.testing.cassettes import UnplayedInteractions, cassette, invoke_with_cassette

CASSETTES = Path(__file__).resolve().parents[2] / "cassettes"
SEARCH_Q01 = CASSETTES / "offline" / "test_golden_run[search-agent-q01].yaml"
AGENT_Q01 = CASSETTES / "offline" / "test_golden_run[agent-q01].yaml"
Q01 = "What is the escape of water excess on a Harbourline Home Plus policy?"

pytestmark = pytest.mark.block_network


def _model():
    return make_chat_model("compatible:http://127.0.0.1:18765/v1#offline", max_retries=0)


def _model_failure(out):
    """The error of the run's failed model call: a mismatch ends planning, the run still answers."""
    failed = [s for s in out["trace"]["steps"] if s["kind"] == "model" and s.get("error")]
    assert failed, "the model call must fail on the cassette"
    assert out["answer"]["extras"]["model_error"]["error"] == failed[0]["error"]
    assert any("failed" in note for note in out["answer"]["insufficient"]), "the answer says the model failed"
    return failed[0]["error"]


def test_the_committed_cassette_replays(bundled_store):
    agent = build_agent(bundled_store, _model(), tools=["search_evidence"])
    out = invoke_with_cassette(agent, {"question": Q01}, SEARCH_Q01)
    assert "500" in out["answer"]["text"]


def test_a_changed_system_prompt_fails_loudly_instead_of_replaying_a_stale_answer(bundled_store, monkeypatch):
    original = plan.system_prompt
    monkeypatch.setattr(plan, "system_prompt", lambda tools: original(tools) + "\n- Be brief.")
    agent = build_agent(bundled_store, _model(), tools=["search_evidence"])
    with pytest.raises(UnplayedInteractions), cassette(SEARCH_Q01):  # the recording is never used
        out = agent.invoke({"question": Q01})
    error = _model_failure(out)
    refused = CannotOverwriteExistingCassetteException.__name__
    assert refused in error, "the cassette refused, no network reached"
    assert "$.messages[0].content" in error, "the failure names the field that changed"


def test_a_changed_question_fails(bundled_store):
    agent = build_agent(bundled_store, _model(), tools=["search_evidence"])
    with pytest.raises(UnplayedInteractions), cassette(SEARCH_Q01):
        out = agent.invoke({"question": Q01.replace("Home Plus", "Home Standard")})
    assert CannotOverwriteExistingCassetteException.__name__ in _model_failure(out)


def test_a_run_that_makes_fewer_model_calls_than_recorded_fails(bundled_store):
    agent = build_agent(bundled_store, _model(), bounds=Bounds(max_rounds=1))
    with pytest.raises(UnplayedInteractions) as caught:
        invoke_with_cassette(agent, {"question": Q01}, AGENT_Q01)
    assert caught.value.unplayed and all("POST /v1/chat/completions" in u for u in caught.value.unplayed)


def test_a_recorded_interaction_plays_only_once(bundled_store):
    agent = build_agent(bundled_store, _model(), tools=["search_evidence"])
    with cassette(SEARCH_Q01):
        first = agent.invoke({"question": Q01})
        second = agent.invoke({"question": Q01})
    assert first["trace"]["totals"]["model_errors"] == 0
    assert CannotOverwriteExistingCassetteException.__name__ in _model_failure(second)


def test_an_extra_recorded_interaction_fails(bundled_store, tmp_path):
    padded = tmp_path / "padded.yaml"
    shutil.copy(SEARCH_Q01, padded)
    data = yaml.safe_load(padded.read_text())
    data["interactions"].append(data["interactions"][0])
    padded.write_text(yaml.safe_dump(data))
    agent = build_agent(bundled_store, _model(), tools=["search_evidence"])
    with pytest.raises(UnplayedInteractions):
        invoke_with_cassette(agent, {"question": Q01}, padded)

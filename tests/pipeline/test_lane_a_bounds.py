"""Lane A obeys the run's ``Bounds`` as the agent does, and the answer says which bound tripped."""


import time

import pytest

from groundgate.ask import RunResult
from groundgate.errors import BoundTripped, ConfigError, ModelUnavailable, RunError
from groundgate.graph.bounds import Bounds
from groundgate.pipeline.build import build_pipeline
from groundgate.testing.fake import ScriptedChatModel, answer
from groundgate.testing.slow import SlowStore

WALKED = (
    "Did the roof inspection threshold in force on the date of loss for claim CLM-1108 "
    "require an inspection?"
)
"""A question lane A answers in two rounds: search and resolve, then a walk from the claim."""


def _tools(out):
    return [s["tool"] for s in out["trace"]["steps"] if s["kind"] == "tool"]


def _result(out):
    return RunResult(question=WALKED, as_of=None, mode="pipeline", model="m", answer=out["answer"],
                     trace=out["trace"], latency_ms=0.0, lane="pipeline")


def test_within_its_bounds_lane_a_walks_and_trips_nothing(bundled_store):
    out = build_pipeline(bundled_store).invoke({"question": WALKED})
    assert _tools(out) == ["search_evidence", "resolve_entity", "traverse"]
    assert out["answer"]["bound_tripped"] is None and _result(out).run_error() is None


def test_a_tiny_token_budget_keeps_the_answer_model_from_being_called_and_the_answer_says_so(bundled_store):
    model = ScriptedChatModel(script=[answer("Anything at all. [INS-SYN-026]")])
    out = build_pipeline(bundled_store, model, bounds=Bounds(token_budget=50)).invoke({"question": WALKED})
    tripped = out["answer"]["bound_tripped"]
    assert tripped["bound"] == "tokens" and tripped["limit"] == 50 and tripped["used"] >= 50
    assert model.calls == [], "the prompt alone is over the budget: no call"
    assert "tokens bound" in out["answer"]["text"]
    assert out["answer"]["extras"]["draft_source"] == "extractive" and out["answer"]["claims"]
    with pytest.raises(BoundTripped) as raised:
        _result(out).raise_for_run_error()
    assert (raised.value.bound, raised.value.limit) == ("tokens", 50)


def test_a_wall_clock_spent_on_the_first_round_skips_the_walks_and_the_answer_says_so(bundled_store):
    lane = build_pipeline(SlowStore(bundled_store, 0.3), bounds=Bounds(wall_clock_s=0.2))
    out = lane.invoke({"question": WALKED})
    assert out["answer"]["bound_tripped"]["bound"] == "wall_clock"
    assert "traverse" not in _tools(out)
    assert "wall_clock bound" in out["answer"]["text"]
    assert out["answer"]["claims"], "the answer is composed from the first round"


def test_a_round_bound_of_one_skips_the_walks(bundled_store):
    out = build_pipeline(bundled_store, bounds=Bounds(max_rounds=1)).invoke({"question": WALKED})
    assert out["answer"]["bound_tripped"] == {"bound": "rounds", "limit": 1, "used": 1}
    assert "traverse" not in _tools(out) and "rounds bound" in out["answer"]["text"]


def test_a_search_over_the_tool_timeout_becomes_an_error_the_answer_reports(bundled_store):
    lane = build_pipeline(SlowStore(bundled_store, 0.5), bounds=Bounds(tool_timeout_s=0.05))
    out = lane.invoke({"question": WALKED})
    searches = [s for s in out["trace"]["steps"] if s["kind"] == "tool" and s["tool"] == "search_evidence"]
    assert searches and all("timed out" in s["error"] for s in searches)
    assert any("timed out" in note for note in out["answer"]["insufficient"])


def test_a_model_that_fails_is_a_run_error_not_misuse(bundled_store):
    model = ScriptedChatModel(script=[ConnectionError("connection refused")])
    out = build_pipeline(bundled_store, model).invoke({"question": WALKED})
    error = _result(out).run_error()
    assert isinstance(error, ModelUnavailable) and isinstance(error, RunError)
    assert not isinstance(error, ConfigError), "an outage does not read as a configuration mistake"
    assert error.purpose == "answer" and "connection refused" in error.error


def test_lane_a_holds_the_wall_clock_around_its_answer_model(bundled_store):
    # A model slower than the whole run's wall clock: lane A answers without waiting for it.
    def slow(messages):
        time.sleep(1.5)
        return answer("The subsidence excess is GBP 1,000. [INS-SYN-028]")

    started = time.perf_counter()
    graph = build_pipeline(bundled_store, ScriptedChatModel(script=[slow]), bounds=Bounds(wall_clock_s=0.3))
    out = graph.invoke({"question": "What is the subsidence excess?"})
    assert time.perf_counter() - started < 1.4, "the run waited for the slow call"
    assert out["answer"]["bound_tripped"]["bound"] == "wall_clock"
    assert "wall_clock bound" in out["answer"]["text"]

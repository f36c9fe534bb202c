"""The escalation router: lane A first, the agent on explicit signals, and it says why."""

import json

import pytest
from typer.testing import CliRunner

from groundgate.cli import app
from groundgate.models.factory import make_chat_model
from groundgate.pipeline.router import build_router
from groundgate.pipeline.signals import sequential_dependency, window_comparison

SIMPLE = "What wind gust speed does the storm claims guidance use to treat an event as a storm?"
SEQUENTIAL = (
    "Which edition of the Home Plus policy wording governs claim CLM-1108, and what does that edition "
    "require before recoverable depreciation is paid?"
)


@pytest.fixture(scope="module")
def router(bundled_store):
    return build_router(bundled_store, make_chat_model("offline"))


def test_a_simple_question_stays_in_lane_a(router):
    out = router.invoke({"question": SIMPLE})
    assert out["lane"] == "pipeline" and out["answer"]["lane"] == "pipeline"
    assert out["escalation"] == {"escalated": False, "signals": []}
    assert {s["lane"] for s in out["trace"]["steps"]} == {"pipeline"}
    assert "55 mph" in out["answer"]["text"]


def test_a_question_whose_second_part_depends_on_the_first_goes_to_the_agent(router):
    out = router.invoke({"question": SEQUENTIAL})
    assert out["lane"] == "agent" and out["escalation"]["escalated"]
    sequential = [s for s in out["escalation"]["signals"] if s["signal"] == "sequential"]
    assert sequential and "that edition" in sequential[0]["reason"]
    lanes = [s["lane"] for s in out["trace"]["steps"]]
    assert lanes[0] == "pipeline" and lanes[-1] == "agent"
    assert lanes == sorted(lanes, key=["pipeline", "agent"].index), "lane A's steps, then the agent's"
    totals, per_lane = out["trace"]["totals"], out["trace"]["lanes"]
    assert totals["tool_calls"] == per_lane["pipeline"]["tool_calls"] + per_lane["agent"]["tool_calls"]
    assert "180 days" in out["answer"]["text"]


def test_deep_escalates_whatever_lane_a_says(router):
    out = router.invoke({"question": SIMPLE, "deep": True})
    assert out["lane"] == "agent"
    assert [s["signal"] for s in out["escalation"]["signals"]] == ["deep"]


def test_an_insufficient_lane_a_answer_escalates(router):
    out = router.invoke({"question": "What was the final settlement amount on subsidence claim CLM-1175?"})
    assert "insufficient" in [s["signal"] for s in out["escalation"]["signals"]]
    assert out["lane"] == "agent" and not out["answer"]["answered"]


def test_a_surfaced_contradiction_escalates(router):
    out = router.invoke({"question": "Are trace-and-access costs automatically included?"})
    signal = next(s for s in out["escalation"]["signals"] if s["signal"] == "contradiction")
    assert "CTR-001" in signal["reason"]
    assert out["answer"]["contested"], "the agent's answer goes through the same gate"


@pytest.mark.parametrize(("question", "fires"), [
    ("Which team maintains the catalogue that Ada Lovelace founded?", True),
    ("Who wrote the report, and what did that report recommend?", True),
    ("Which author wrote the handbook?", False),
    ("What is the standard loan period, and who owns the policy?", False),
])
def test_sequential_signal_reads_structure_not_domain_words(question, fires):
    assert (sequential_dependency(question) is not None) is fires


@pytest.mark.parametrize(("question", "fires"), [
    ("Was the new fee already in force when the book was borrowed?", True),
    ("Did the loan period change between 2023 and 2025?", True),
    ("What fee applies to printed books?", False),
    ("What must be checked before lending a rare book?", False),
])
def test_validity_window_signal(question, fires):
    assert (window_comparison(question) is not None) is fires


runner = CliRunner()


@pytest.fixture
def isolated_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GROUNDGATE_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("GROUNDGATE_STORE", raising=False)
    monkeypatch.delenv("GROUNDGATE_MODEL", raising=False)


@pytest.fixture
def library_store(tmp_path, mini_corpus, isolated_cache):
    path = tmp_path / "library.sqlite"
    assert runner.invoke(app, ["ingest", str(mini_corpus), "--store", str(path)]).exit_code == 0
    return path


def test_ask_defaults_to_auto_and_says_which_lane_answered(library_store):
    question = "What is the standard loan period?"
    result = runner.invoke(app, ["ask", question, "--store", str(library_store), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["mode"] == "auto" and data["lane"] == "pipeline"
    assert data["escalation"] == {"escalated": False, "signals": []}
    assert "21 days" in data["answer"]
    kept = ("answer", "claims", "citations", "contested", "insufficient", "bound_tripped", "trace", "usage")
    assert all(key in data for key in kept)

    deep = runner.invoke(app, ["ask", question, "--store", str(library_store), "--deep"])
    assert deep.exit_code == 0, deep.output
    assert "answered by the agent; escalated: deep" in deep.output


def test_ask_rejects_deep_with_the_pipeline_and_save_run_with_auto(library_store, tmp_path):
    deep = runner.invoke(app, ["ask", "q?", "--store", str(library_store), "--mode", "pipeline", "--deep"])
    assert deep.exit_code == 2 and "--deep" in deep.output
    saved = runner.invoke(app, ["ask", "q?", "--store", str(library_store), "--mode", "auto",
                                "--save-run", str(tmp_path / "run.json")])
    assert saved.exit_code == 2 and "--mode agent" in saved.output

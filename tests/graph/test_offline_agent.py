"""The offline planner through the whole graph on the bundled corpus."""

from groundgate.graph.build import build_agent
from groundgate.models.factory import make_chat_model

ROOF_Q = (
    "Did the roof inspection threshold in force on the date of loss for claim CLM-1108 require "
    "an inspection, and does the March 2026 H3 rule apply to it?"
)


def _ask(store, question, **kw):
    return build_agent(store, make_chat_model("offline"), **kw).invoke({"question": question})


def test_roof_threshold_question_resolves_the_claim_and_finds_both_rules(bundled_store):
    out = _ask(bundled_store, ROOF_Q)
    tools = [s["tool"] for s in out["trace"]["steps"] if s["kind"] == "tool"]
    assert tools[0] == "resolve_entity"
    first = next(s for s in out["trace"]["steps"] if s["kind"] == "tool")
    assert first["args"]["mention"] == "CLM-1108"
    text = out["answer"]["text"].lower()
    assert "20 years" in text and "2025-06-01" in text, "the 20-year rule and its window"
    assert "15 years" in text and "2026-03-01" in text, "the H3 rule and its later window"
    assert "new business" in text
    assert out["answer"]["answered"]


def test_same_question_same_trace(bundled_store):
    first, second = _ask(bundled_store, ROOF_Q), _ask(bundled_store, ROOF_Q)
    strip = lambda out: [{k: v for k, v in s.items() if k != "ms"} for s in out["trace"]["steps"]]  # noqa: E731
    assert strip(first) == strip(second)
    assert first["answer"]["text"] == second["answer"]["text"]


def test_contested_question_presents_both_positions(bundled_store):
    out = _ask(bundled_store, "Are trace-and-access costs automatically included?")
    assert out["answer"]["contested"] and "does not choose" in out["answer"]["text"]


def test_search_agent_only_searches(bundled_store):
    out = _ask(bundled_store, "What is the subsidence excess?", tools=["search_evidence"])
    assert {s["tool"] for s in out["trace"]["steps"] if s["kind"] == "tool"} == {"search_evidence"}
    assert "1,000" in out["answer"]["text"]

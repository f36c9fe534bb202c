"""What a person reads: no tool names or error strings, lookups said in plain words."""

from groundgate.graph.build import build_agent
from groundgate.models.offline import OfflinePlanner
from groundgate.pipeline.router import build_router
from groundgate.policies.honesty import lookup_note
from groundgate.tools.registry import ALL_TOOLS

INTERNAL = ("no entity matches", "no relationships from", "INSUFFICIENT", *ALL_TOOLS)


def _internal(text: str) -> list[str]:
    return [s for s in INTERNAL if s in text]


def test_lookups_are_said_in_a_persons_words():
    empty = {"tool": "resolve_entity", "args": {"mention": "Victoria"}, "insufficient": True}
    assert lookup_note(empty) == "the sources have no entry named 'Victoria'"
    error = {"tool": "search_evidence", "args": {"query": "x"}, "error": "search_evidence failed: boom"}
    failed = lookup_note(error)
    assert failed and "search_evidence" not in failed and "boom" not in failed
    assert lookup_note({"tool": "list_contradictions", "args": {}, "insufficient": True}) is None


def test_an_unanswerable_question_says_what_was_not_found_without_internal_strings(bundled_store):
    question = "Who is Victoria Pembleton-Haig and which claim did she approve?"
    planner = OfflinePlanner()
    for graph in (build_agent(bundled_store, planner), build_router(bundled_store, planner)):
        answer = graph.invoke({"question": question, "as_of": None})["answer"]
        assert not answer["answered"]
        assert _internal(answer["text"]) == [], answer["text"]
        assert "The sources available do not answer this question." in answer["text"]


def test_an_answered_question_keeps_empty_lookups_in_the_record_not_in_the_text(bundled_store):
    question = "What wind gust speed does the storm claims guidance use to treat an event as a storm?"
    answer = build_agent(bundled_store, OfflinePlanner()).invoke({"question": question})["answer"]
    assert answer["answered"] and "55 mph" in answer["text"]
    assert _internal(answer["text"]) == [] and "What I cannot say" not in answer["text"]

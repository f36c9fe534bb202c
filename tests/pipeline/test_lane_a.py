"""Lane A, the fixed fused pipeline, on the bundled corpus."""

from langchain_core.messages import AIMessage

from groundgate.pipeline.build import build_pipeline
from groundgate.pipeline.context import PIPELINE_TOOLS
from groundgate.policies.policyset import PolicySet
from groundgate.testing.fake import ScriptedChatModel

SINGLE_HOP = "What wind gust speed does the storm claims guidance use to treat an event as a storm?"
CONTESTED = (
    "Could you tell me whether trace-and-access costs are automatically included when I claim for a leak?"
)


def _tools(out):
    return [s["tool"] for s in out["trace"]["steps"] if s["kind"] == "tool"]


def test_a_single_hop_question_is_answered_in_one_pass_with_the_right_citation(bundled_store):
    out = build_pipeline(bundled_store).invoke({"question": SINGLE_HOP, "as_of": None})
    answer = out["answer"]
    assert answer["lane"] == "pipeline" and answer["answered"]
    assert "55 mph" in answer["text"]
    grounded = [c for c in answer["claims"] if "55 mph" in c["text"]]
    assert grounded and grounded[0]["status"] == "grounded" and grounded[0]["citations"] == ["INS-SYN-026"]
    assert [c["source_id"] for c in answer["citations"]] == ["INS-SYN-026"]
    assert set(_tools(out)) <= set(PIPELINE_TOOLS) and _tools(out)[0] == "search_evidence"
    assert out["trace"]["totals"]["model_calls"] == 0 and out["trace"]["totals"]["tokens"] == 0


def test_mentions_are_resolved_and_walked_two_hops_as_of_the_event_date(bundled_store):
    question = (
        "Did the roof inspection threshold in force on the date of loss for claim CLM-1108 "
        "require an inspection?"
    )
    out = build_pipeline(bundled_store).invoke({"question": question})
    steps = [s for s in out["trace"]["steps"] if s["kind"] == "tool"]
    assert [s["tool"] for s in steps] == ["search_evidence", "resolve_entity", "traverse"]
    assert steps[1]["args"]["mention"] == "CLM-1108"
    walk = steps[2]["args"]
    assert walk["entity_id"] == "claim:CLM-1108" and walk["hops"] == 2
    assert walk["as_of"] == "2026-02-20", "the date of loss, read from the resolved claim"
    paths = [r["path"] for r in out["answer"]["extras"]["rerank"] if r.get("path")]
    assert paths and all(p.startswith("claim:CLM-1108 ") and "[" in p for p in paths), "typed paths, visible"
    scores = [r["score"] for r in out["answer"]["extras"]["rerank"]]
    assert scores == sorted(scores, reverse=True), "one rerank of passages and paths together, best first"
    assert "20 years" in out["answer"]["text"]


def test_the_same_question_gives_the_same_answer_and_trace(bundled_store):
    lane = build_pipeline(bundled_store)
    first, second = (lane.invoke({"question": CONTESTED}) for _ in range(2))
    strip = lambda out: [{k: v for k, v in s.items() if k != "ms"} for s in out["trace"]["steps"]]  # noqa: E731
    assert strip(first) == strip(second) and first["answer"] == second["answer"]


def test_lane_a_goes_through_the_same_gate_as_the_agent(bundled_store):
    gated = build_pipeline(bundled_store).invoke({"question": CONTESTED})["answer"]
    assert [p["contradiction_id"] for p in gated["contested"]] == ["CTR-001"]
    assert "does not choose between these positions" in gated["text"]
    ungated = build_pipeline(bundled_store, policies=PolicySet.off()).invoke({"question": CONTESTED})
    assert ungated["answer"]["contested"] == []


def test_with_a_real_model_it_writes_the_answer_from_the_reranked_bundle_in_one_call(bundled_store):
    reply = AIMessage(content="A storm needs wind gusts of at least 55 mph. [INS-SYN-026]")
    model = ScriptedChatModel(script=[reply])
    out = build_pipeline(bundled_store, model, keep=5).invoke({"question": SINGLE_HOP})
    assert len(model.calls) == 1
    prompt = model.calls[0][-1].content
    assert SINGLE_HOP in prompt and prompt.count("\n5. [") == 1 and "\n6. [" not in prompt
    assert out["answer"]["extras"]["draft_source"] == "model"
    assert out["answer"]["claims"][0]["status"] == "grounded"
    assert out["trace"]["totals"]["model_calls"] == 1 and out["trace"]["totals"]["tokens"] == 100


def test_an_invented_citation_from_the_model_is_caught_by_grounding(bundled_store):
    model = ScriptedChatModel(script=[AIMessage(content="Storm claims are paid in gold bars. [INS-SYN-999]")])
    answer = build_pipeline(bundled_store, model).invoke({"question": SINGLE_HOP})["answer"]
    assert answer["claims"][0]["status"] == "removed" and not answer["answered"]
    assert "INS-SYN-999" in answer["grounding"]["removed_citations"]


def test_a_question_about_an_event_is_also_searched_by_its_subject():
    from groundgate.pipeline.retrieve import subject_query
    from groundgate.reading.question import analyse

    assert subject_query(analyse("When did the new parking rule take effect?", None)) == "new parking rule"
    assert subject_query(analyse("What does the parking rule say?", None)) is None  # asks for no value
    assert subject_query(analyse("How much is the parking fee?", None)) is None  # names no event

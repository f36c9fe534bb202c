"""The grounding check's one revision pass with a chat model configured, through the graph.

Rules re-cite first; what is still unsupported goes to the model once; its rewrites are
checked again by the rules and never revised a second time; the call is in the trace.
"""

from langchain_core.messages import AIMessage

from groundgate.answer.claims import split_claims
from groundgate.graph.build import build_agent
from groundgate.models.factory import make_chat_model
from groundgate.testing.fake import ScriptedChatModel, answer, call

QUESTION = "What is the subsidence excess?"
DRAFT = "The subsidence excess is GBP 1,000. [INS-SYN-003] Harbourline pays every claim twice."


def _run(store, revision):
    model = ScriptedChatModel(script=[
        AIMessage(content="", tool_calls=[call("search_evidence", {"query": "subsidence excess"})]),
        answer(DRAFT),
        revision,
    ])
    out = build_agent(store, model).invoke({"question": QUESTION})
    return out["answer"], out["trace"], model


def _revision_prompt(model):
    return model.calls[2][-1].content


def test_the_model_rewrites_an_unsupported_claim_from_the_passages(bundled_store):
    ans, trace, model = _run(bundled_store, answer(
        "1: The subsidence excess is GBP 1,000 for each claim. [INS-SYN-003]"))
    assert "Harbourline pays every claim twice" in _revision_prompt(model)
    assert "twice" not in ans["text"]
    assert ans["grounding"]["model_revised"] == 1 and ans["grounding"]["revised"]
    rewritten = [c for c in ans["claims"] if c["note"] == "rewritten in the model's revision pass"]
    assert [c["status"] for c in rewritten] == ["grounded"]
    steps = [s for s in trace["steps"] if s.get("purpose") == "revision"]
    assert len(steps) == 1 and steps[0]["tokens"] > 0


def test_a_rewrite_the_passages_do_not_support_is_removed_not_revised_again(bundled_store):
    ans, trace, model = _run(bundled_store, answer(
        "1: Harbourline pays every subsidence claim up to GBP 9,999,999. [INS-SYN-003]"))
    assert "9,999,999" not in ans["text"] and "twice" not in ans["text"]
    assert ans["grounding"]["removed"] >= 1
    assert len(model.calls) == 3  # plan, plan, one revision: never a second one


def test_the_model_may_drop_a_claim(bundled_store):
    ans, _, _ = _run(bundled_store, answer("1: DROP"))
    dropped = [c for c in ans["claims"] if c["note"] == "dropped in the model's revision pass"]
    assert len(dropped) == 1 and dropped[0]["status"] == "removed"
    assert "twice" not in ans["text"] and "1,000" in ans["text"]


def test_a_failing_revision_leaves_the_rules_verdict(bundled_store):
    def broken(messages):
        raise ConnectionError("endpoint down")

    ans, trace, _ = _run(bundled_store, broken)
    assert "twice" not in ans["text"] and "1,000" in ans["text"]
    [step] = [s for s in trace["steps"] if s.get("purpose") == "revision"]
    assert "endpoint down" in step["error"]


def test_the_offline_planner_is_not_asked_to_revise(bundled_store):
    out = build_agent(bundled_store, make_chat_model("offline")).invoke(
        {"question": "Harbourline pays every claim twice, is that right?"})
    assert not [s for s in out["trace"]["steps"] if s.get("purpose") == "revision"]


def test_a_lead_in_line_is_not_a_claim():
    claims = split_claims("What the sources do say:\nThe excess is GBP 500. [DOC-1]")
    assert [c.text for c in claims] == ["The excess is GBP 500."]

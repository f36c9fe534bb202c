"""G1's third way in: a detector says an open entry bears on the answer.

"Does the handler have to get sign-off before calling in a leak detection firm?" holds
none of CTR-001's topic words nor "approval", what its positions argue over; the answer
rests on CHG-04, one of the entry's own sources, which says no approval is needed. The
lexical rules answer with that one side. The semantic detector reads that the passage the
answer rests on states the entry's point and answers the question, and the gate presents
both positions. The gate asks the detector once per answer; the judge answers from its
lexical rules there, so its recorded calls replay unchanged.
"""

import json

import pytest
from langchain_core.messages import AIMessage

from groundgate.models.offline import OfflinePlanner
from groundgate.pipeline.build import build_pipeline
from groundgate.policies.detectors import (
    Bearing,
    BearingQuestion,
    Detection,
    LexicalDetector,
    Passage,
    Sides,
)
from groundgate.policies.detectors.judge import JudgeDetector
from groundgate.policies.detectors.semantic import SemanticDetector
from groundgate.policies.policyset import PolicySet
from groundgate.testing.fake import ScriptedChatModel

SIGN_OFF = "Does the handler have to get sign-off before calling in a leak detection firm?"
WHICH_LIST = "Which list should a handler pick a leak detection contractor from?"


def _ask(store, detector, question):
    graph = build_pipeline(store, OfflinePlanner(), policies=PolicySet(detector=detector))
    return graph.invoke({"question": question, "as_of": None})["answer"]


def _presented(answer, entry_id="CTR-001"):
    return [p for p in answer["contested"] if p.get("contradiction_id") == entry_id]


class Links:
    """A detector that says the given entries bear, and finds no disagreement itself."""

    name = "links"

    def __init__(self, *entry_ids):
        self.entry_ids, self.asked = frozenset(entry_ids), []

    def bearing(self, request):
        entries = [e.id for e in request.entries]
        self.asked.append((entries, [p.source_id for p in request.passages if p.role == "rests"]))
        return Bearing(self.entry_ids & set(entries), ("links read the register",))

    def sides(self, request):
        return Sides()

    def disagreements(self, passages, *, question, store=None):
        return Detection()


def test_the_lexical_rules_answer_the_sign_off_question_with_one_side(bundled_store):
    answer = _ask(bundled_store, LexicalDetector(), SIGN_OFF)
    assert _presented(answer) == []
    assert [c["source_id"] for c in answer["citations"]] == ["INS-SYN-012"], "CHG-04's side alone"


def test_an_entry_only_the_detector_links_is_presented_with_every_position(bundled_store):
    links = Links("CTR-001")
    answer = _ask(bundled_store, links, SIGN_OFF)
    ((entries, resting),) = links.asked
    assert "CTR-001" in entries and "INS-SYN-012" in resting, "asked once, with the passages it rests on"
    (point,) = _presented(answer)
    assert [p["source_ids"] for p in point["positions"]] == [["INS-SYN-012"], ["INS-SYN-003", "INS-SYN-002"]]
    assert "open disagreement CTR-001" in answer["text"]
    assert "does not choose between these positions" in answer["text"]
    withheld = [c for c in answer["claims"] if c["status"] == "removed"]
    assert any("separate approval" in c["text"] for c in withheld), "CHG-04's side is not the answer"
    assert "detector (links): links read the register" in answer["policy_notes"]
    assert answer["extras"]["invariants"]["holds"] is True


def test_the_semantic_detector_links_the_sign_off_question_to_ctr_001(bundled_store, minilm):
    answer = _ask(bundled_store, SemanticDetector(minilm), SIGN_OFF)
    (point,) = _presented(answer)
    sources = {s for p in point["positions"] for s in p["source_ids"]}
    assert sources == {"INS-SYN-012", "INS-SYN-003", "INS-SYN-002"}
    assert answer["extras"]["invariants"]["applies"]["question"] == ["CTR-001"]


def test_a_fact_question_over_the_same_passage_is_still_answered(bundled_store, minilm):
    answer = _ask(bundled_store, SemanticDetector(minilm), WHICH_LIST)
    assert answer["contested"] == [] and answer["answered"]
    assert "leak detection list" in answer["text"]


def test_the_judge_answers_the_register_question_without_a_model_call(bundled_store):
    reply = {"1": "not stated", "2": "not stated", "conflict": False}
    model = ScriptedChatModel(script=[AIMessage(content=json.dumps(reply))])
    answer = _ask(bundled_store, JudgeDetector(model, model_name="scripted"), SIGN_OFF)
    purposes = [m[0].content.split("\n")[0][:40] for m in model.calls]
    assert len(model.calls) <= 1, f"at most the one disagreement call its recordings hold: {purposes}"
    assert _presented(answer) == [], "the judge's register reading is the lexical one"


@pytest.mark.parametrize("ask_register", [False, True])
def test_the_judges_register_call_is_made_only_when_asked_for(bundled_store, ask_register):
    chg04 = bundled_store.get_document("INS-SYN-012")
    rests = (Passage("INS-SYN-012", chg04.body, title=chg04.title, role="rests"),)
    model = ScriptedChatModel(script=[AIMessage(content='{"depends": ["A"]}')])
    judge = JudgeDetector(model, model_name="scripted", ask_register=ask_register)
    entries = tuple(bundled_store.contradictions())
    bearing = judge.bearing(BearingQuestion(entries, SIGN_OFF, rests, bundled_store))
    assert len(model.calls) == (1 if ask_register else 0)
    assert ("CTR-001" in bearing.entry_ids) is ask_register

"""The gate on the bundled golden set with the offline planner: no wrong refusals, and the
contested questions it recognises are presented with every position."""

import json

import pytest

from groundgate.graph.build import build_agent
from groundgate.knowledge.default import bundled_questions
from groundgate.models.factory import make_chat_model

QUESTIONS = [json.loads(line) for line in bundled_questions().read_text().splitlines() if line.strip()]


@pytest.fixture(scope="module")
def agent(bundled_store):
    return build_agent(bundled_store, make_chat_model("offline"))


@pytest.mark.parametrize("q", [q for q in QUESTIONS if not q["contested"]], ids=lambda q: q["qid"])
def test_uncontested_questions_are_not_gated(agent, q):
    answer = agent.invoke({"question": q["question"], "as_of": q["as_of"]})["answer"]
    assert not [c for c in answer["contested"] if c["contradiction_id"]], answer["text"]


@pytest.mark.parametrize("qid", ["q25", "q26", "q27", "q28"])
def test_contested_questions_present_every_position_and_choose_none(agent, qid):
    q = next(q for q in QUESTIONS if q["qid"] == qid)
    answer = agent.invoke({"question": q["question"], "as_of": q["as_of"]})["answer"]
    point = answer["contested"][0]
    assert len({tuple(p["source_ids"]) for p in point["positions"]}) >= 2
    assert "does not choose" in answer["text"]

"""The gate on the bundled golden set with the offline planner: no wrong refusals, and every
contested question is presented with every position, in each mode a user can ask in."""

import json

import pytest

from groundgate.ask import ask
from groundgate.knowledge.default import bundled_questions
from groundgate.settings import Settings

QUESTIONS = [json.loads(line) for line in bundled_questions().read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("mode", ["auto", "agent"])
@pytest.mark.parametrize("q", [q for q in QUESTIONS if not q["contested"]], ids=lambda q: q["qid"])
def test_uncontested_questions_are_not_gated(bundled_store, q, mode):
    answer = ask(q["question"], settings=Settings(), mode=mode, as_of=q["as_of"], store=bundled_store).answer
    assert not [c for c in answer["contested"] if c["contradiction_id"]], answer["text"]
    if q["category"] != "disagreement":
        assert not answer["contested"], answer["text"]


@pytest.mark.parametrize("mode", ["auto", "pipeline", "agent"])
@pytest.mark.parametrize("q", [q for q in QUESTIONS if q["contested"]], ids=lambda q: q["qid"])
def test_contested_questions_present_every_position_and_choose_none(bundled_store, q, mode):
    answer = ask(q["question"], settings=Settings(), mode=mode, as_of=q["as_of"], store=bundled_store).answer
    assert answer["contested"], answer["text"]
    for point in answer["contested"]:
        assert len({tuple(p["source_ids"]) for p in point["positions"]}) >= 2
    assert "has not decided" in answer["text"] and "does not choose" in answer["text"]


@pytest.mark.parametrize("mode", ["auto", "pipeline", "agent"])
@pytest.mark.parametrize(
    "q", [q for q in QUESTIONS if q["category"] == "disagreement"], ids=lambda q: q["qid"]
)
def test_unrecorded_disagreements_show_both_sources(bundled_store, q, mode):
    answer = ask(q["question"], settings=Settings(), mode=mode, as_of=q["as_of"], store=bundled_store).answer
    [point] = answer["contested"]
    assert point["status"] == "unrecorded"
    assert {s for p in point["positions"] for s in p["source_ids"]} == set(q["expected_source_ids"])
    assert "not yet recorded" in answer["text"] and "does not choose" in answer["text"]

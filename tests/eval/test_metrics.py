"""The per-question metrics on hand-made answers."""

from groundgate.eval.dataset import GoldQuestion
from groundgate.eval.metrics import (
    citation_scores,
    insufficient_outcome,
    keyword_coverage,
    refusal_outcome,
    shape_score,
)
from groundgate.knowledge.model import Contradiction, Position


def _answer(text="", cited=(), contested=(), answered=True):
    return {"text": text, "citations": [{"source_id": s} for s in cited], "contested": list(contested),
            "answered": answered, "extras": {"draft_text": text}}


def _question(**kw):
    base = {"qid": "q", "question": "Is it free?", "gold_keywords": [], "expected_source_ids": ["A", "B"],
            "contested": True, "answerable": True, "category": "contested", "split": "dev"}
    return GoldQuestion.model_validate({**base, **kw})


ENTRY = Contradiction(
    id="CTR-1", topic="Whether it is free", entity_ids=("concept:x",), status="open", owner="Board",
    positions=(
        Position(statement="It is free.", source_ids=("A",)),
        Position(statement="It costs 5.", source_ids=("B",)),
    ),
)


def test_every_keyword_group_must_appear_and_any_alternative_counts():
    groups = [["20-year", "20 years"], ["new business"]]
    assert keyword_coverage("A 20 YEARS rule for New Business.", groups) == 1.0
    assert keyword_coverage("A 20 years rule.", groups) == 0.5
    assert keyword_coverage("anything", []) is None


def test_citation_precision_and_recall():
    assert citation_scores(_answer(cited=["A", "C"]), ["A", "B"]) == (0.5, 0.5)
    assert citation_scores(_answer(), ["A"]) == (None, 0.0)
    assert citation_scores(_answer(cited=["A"]), []) == (0.0, None)


def test_refusal_outcomes():
    q = _question()
    gated = _answer(contested=[{"contradiction_id": "CTR-1", "topic": "t"}])
    assert refusal_outcome(gated, q, [ENTRY])[0] == "presented_both"
    one_side = _answer("It is free.", cited=["A"])
    assert refusal_outcome(one_side, q, [ENTRY]) == ("chose_side", "CTR-1: cites position 1 only")
    assert refusal_outcome(_answer("Both.", cited=["A", "B"]), q, [ENTRY])[0] == "presented_both"
    assert refusal_outcome(_answer(answered=False), q, [ENTRY])[0] == "declined"
    calm = _question(contested=False)
    assert refusal_outcome(gated, calm, [ENTRY])[0] == "refused_wrongly"
    assert refusal_outcome(_answer("It is free.", cited=["A"]), calm, [ENTRY])[0] == "none"


def test_insufficient_outcomes():
    gave_up = _answer("INSUFFICIENT: nothing.", answered=False)
    assert insufficient_outcome(gave_up, answerable=False) == "said_insufficient"
    assert insufficient_outcome(_answer("It is 5."), answerable=False) == "answered_anyway"
    assert insufficient_outcome(_answer(answered=False), answerable=True) == "wrongly_insufficient"


def test_shape_score_is_the_aligned_share_of_the_longer_sequence():
    expected = ["resolve_entity", "timeline", "get_source"]
    assert shape_score(expected, expected) == 1.0
    assert shape_score(["resolve_entity", "search_evidence", "get_source"], expected) == 2 / 3
    assert shape_score(["get_source", "resolve_entity"], expected) == 1 / 3
    assert shape_score(["search_evidence"] * 6, ["search_evidence"]) == 1 / 6
    assert shape_score(["search_evidence"], []) is None

"""Two sentences that do not answer the same thing are no disagreement, however alike they read.

"In 2014 he moved to Varnholm Athletic, where he succeeded ..." (a coach's biography) and
"It is home to the football club Varnholm Athletic ..." (the town's article) both read
near "Who is the head coach of Varnholm Athletic?"; "It was founded in 2004 ..." (the
authority) and "He directed the Riverbend Institute of Structures from 2011 to 2019"
(an engineer) both near "When was the Tessel Transport Authority founded?". One speaks of
a person and the other of a thing: the semantic detector shows no disagreement.

"Food may not be eaten anywhere in the library" denies eating, not a quiet reading room:
it answers "Can I eat a packed lunch in the study rooms ...?" against the leaflet that
welcomes a sandwich there, and is no rival to "We have a quiet reading room upstairs".
"""

from pathlib import Path

import pytest

from groundgate.eval.dataset import dataset_store
from groundgate.models.offline import OfflinePlanner
from groundgate.pipeline.build import build_pipeline
from groundgate.policies.detectors.semantic import SemanticDetector
from groundgate.policies.policyset import PolicySet

DATASETS = Path(__file__).parents[2] / "bench" / "datasets"


@pytest.mark.parametrize(
    "dataset, question, as_of",
    [
        ("careers", "Who is the head coach of Varnholm Athletic?", "2020-01-01"),
        ("riverbend", "When was the Tessel Transport Authority founded?", None),
    ],
)
def test_a_person_and_a_thing_near_the_question_are_not_two_answers(minilm, dataset, question, as_of):
    with dataset_store(DATASETS / dataset) as (store, _):
        detector = SemanticDetector(minilm)
        graph = build_pipeline(store, OfflinePlanner(), policies=PolicySet(detector=detector))
        answer = graph.invoke({"question": question, "as_of": as_of})["answer"]
    assert answer["contested"] == []
    assert answer["answered"]


def _ask_disputes(minilm, question):
    with dataset_store(DATASETS / "disputes") as (store, _):
        graph = build_pipeline(store, OfflinePlanner(), policies=PolicySet(detector=SemanticDetector(minilm)))
        return graph.invoke({"question": question, "as_of": None})["answer"]


def test_a_denial_of_something_else_is_no_rival_answer(minilm):
    answer = _ask_disputes(minilm, "Does Meadowgate Library have a quiet reading room?")
    assert answer["contested"] == []
    assert "quiet reading room" in answer["text"]


def test_a_denial_of_what_is_asked_is_presented_beside_the_other_source(minilm):
    answer = _ask_disputes(minilm, "Can I eat a packed lunch in the study rooms at Meadowgate Library?")
    (point,) = answer["contested"]
    assert any("Food may not be eaten" in p["statement"] for p in point["positions"])
    assert len({s for p in point["positions"] for s in p["source_ids"]}) == 2

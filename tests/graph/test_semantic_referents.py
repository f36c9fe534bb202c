"""Two sentences about two things are no disagreement, however alike they read.

"In 2014 he moved to Varnholm Athletic, where he succeeded ..." (a coach's biography) and
"It is home to the football club Varnholm Athletic ..." (the town's article) both read
near "Who is the head coach of Varnholm Athletic?"; "It was founded in 2004 ..." (the
authority) and "He directed the Riverbend Institute of Structures from 2011 to 2019"
(an engineer) both near "When was the Tessel Transport Authority founded?". One speaks of
a person and the other of a thing: the semantic detector shows no disagreement.
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

"""A question's opening word is no part of the name it asks about.

"Does the AeroSense Two Pro support Bluetooth?" opens with a capital because it opens the
sentence; read as one run of capitals, "Does the AeroSense Two Pro" was taken for a name
and skipped with the question's first word, so no passage was checked for the product at
all. The AeroSense One's manual ("It measures carbon dioxide and temperature and connects
to a phone over Bluetooth") then read as a rival answer to the comparison table, and the
user was shown a disagreement between two products. The name is "AeroSense Two Pro": a
passage about the One is not about it. Sources that speak of what the question names and
answer differently are still presented ("Does Ostrum Green contain chromium?").
"""

from pathlib import Path

import pytest

from groundgate.eval.dataset import dataset_store
from groundgate.models.offline import OfflinePlanner
from groundgate.pipeline.build import build_pipeline
from groundgate.policies.detectors.semantic import SemanticDetector
from groundgate.policies.policyset import PolicySet
from groundgate.policies.stated import question_names

DATASETS = Path(__file__).parents[2] / "bench" / "datasets"


@pytest.mark.parametrize(
    "question, names",
    [
        ("Does the AeroSense Two Pro support Bluetooth?", ["AeroSense Two Pro", "Bluetooth"]),
        ("Does Ostrum Green contain chromium?", ["Ostrum Green"]),
        ("Which company makes the AeroSense Two?", ["AeroSense Two"]),
        ("Is camping allowed in the park?", []),
    ],
)
def test_the_opening_word_of_a_question_is_not_read_as_part_of_a_name(question, names):
    assert question_names(question) == names


def _ask(minilm, dataset, question):
    with dataset_store(DATASETS / dataset) as (store, _):
        graph = build_pipeline(store, OfflinePlanner(), policies=PolicySet(detector=SemanticDetector(minilm)))
        return graph.invoke({"question": question, "as_of": None})["answer"]


def test_another_products_manual_is_no_rival_answer(minilm):
    answer = _ask(minilm, "aerosense", "Does the AeroSense Two Pro support Bluetooth?")
    assert answer["contested"] == []
    assert "disagree" not in answer["text"]
    assert "aerosense-one-manual" not in {c["source_id"] for c in answer["citations"]}


def test_two_sources_on_the_thing_asked_about_are_still_presented(minilm):
    answer = _ask(minilm, "disputes", "Does Ostrum Green contain chromium?")
    (point,) = answer["contested"]
    sources = [set(p["source_ids"]) for p in point["positions"]]
    assert any("OG-SDS-1" in s for s in sources) and any("pigment-history-ostrum" in s for s in sources)
    assert "does not choose between these positions" in answer["text"]

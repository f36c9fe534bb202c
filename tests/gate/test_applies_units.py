"""G1 by the question: the unit the positions' values are in is not what they argue over.

The register holds one open entry: how long a full charge of the Pellam Two takes (4 hours
in the manual, 3 in the quick start guide). "Hours" is in both positions, but a question
about the quiet hours of the light ring does not ask how long a charge takes: it is
answered; the charge question presents both positions.
"""

import pytest

from groundgate.models.offline import OfflinePlanner
from groundgate.pipeline.build import build_pipeline
from groundgate.policies.policyset import PolicySet

DOCS = {
    "manual.md": """\
        ---
        id: P2-UM
        title: Pellam Two user manual
        entity_ids: [product:pellam-two]
        ---
        # Battery and charging

        A full charge takes about 4 hours. At the standard interval the Pellam Two battery lasts
        about 2 months. The light ring stays dark during quiet hours, from 22:00 to 07:00 by default.
        """,
    "quick-start.md": """\
        ---
        id: P2-QS
        title: Pellam Two quick start guide
        entity_ids: [product:pellam-two]
        ---
        # Before first use

        Charge the Pellam Two fully before first use; a full charge takes about 3 hours.
        """,
}
KNOWLEDGE = """\
    entities:
      - id: product:pellam-two
        type: product
        name: Pellam Two
    contradictions:
      - id: CTR-P2
        topic: How long a full charge of the Pellam Two takes
        entity_ids: [product:pellam-two]
        status: open
        owner: Documentation team
        opened_at: 2024-07-01
        positions:
          - statement: The user manual says a full charge takes about 4 hours.
            source_ids: [P2-UM]
          - statement: The quick start guide says charging fully before first use takes about 3 hours.
            source_ids: [P2-QS]
    """


@pytest.fixture(scope="module")
def store(store_from_texts):
    return store_from_texts(DOCS, KNOWLEDGE)


def _ask(store, question):
    graph = build_pipeline(store, OfflinePlanner(), policies=PolicySet())
    return graph.invoke({"question": question, "as_of": None})["answer"]


def test_the_charge_question_presents_both_positions(store):
    answer = _ask(store, "How long does a full charge of the Pellam Two take?")
    assert [p["contradiction_id"] for p in answer["contested"]] == ["CTR-P2"]


def test_a_question_that_only_shares_the_unit_of_the_values_is_answered(store):
    answer = _ask(store, "What are the default quiet hours of the light ring?")
    assert answer["contested"] == []
    assert answer["answered"]


def test_a_question_sharing_only_the_product_name_and_how_long_is_answered(store):
    # "long", "pellam", "two": half the topic's words, but none of what it is about
    # (a full charge) beyond the entry's own product name
    answer = _ask(store, "How long does the Pellam Two battery last at the standard interval?")
    assert answer["contested"] == []
    assert "2 months" in answer["text"]

"""A statement about another thing of a similar name is no rival value.

"How long do the batteries of a Corran One last?": the Corran One's manual says about 6
months; the troubleshooting page says a Corran Two lasts about 2 months at a 2-minute
interval. Both hold "Corran", half of the name "Corran One", which was enough for the
disagreement policy to show two values of one thing. A name of one or two words is held
only when all of it is (a longer one, by half: "the park" for "Kestrel Valley Country
Park"), so the Two's figure is not about the One and the answer gives the One's alone.
Two sources on the Corran One that give different figures are still presented.
"""

from groundgate.models.offline import OfflinePlanner
from groundgate.pipeline.build import build_pipeline
from groundgate.policies.policyset import PolicySet

ONE = """\
    ---
    id: C1-UM
    title: Corran One user manual
    ---
    # Batteries

    The Corran One runs on two AA batteries, which last about 6 months.
    """
TWO = """\
    ---
    id: C-TS
    title: Troubleshooting battery life
    ---
    # Battery life

    At a 2-minute interval a Corran Two lasts about 2 months; the battery life in its manual is
    for the default interval.
    """
ONE_FAQ = """\
    ---
    id: C1-FAQ
    title: Corran One questions and answers
    ---
    # Batteries

    The batteries of the Corran One last about 9 months.
    """
QUESTION = "How long do the batteries of a Corran One last?"


def _ask(store):
    graph = build_pipeline(store, OfflinePlanner(), policies=PolicySet())
    return graph.invoke({"question": QUESTION, "as_of": None})["answer"]


def test_a_figure_for_the_other_model_is_no_rival_value(store_from_texts):
    answer = _ask(store_from_texts({"one.md": ONE, "two.md": TWO}))
    assert answer["contested"] == []
    assert "6 months" in answer["text"]
    assert "disagree" not in answer["text"]


def test_two_figures_for_the_model_asked_about_are_presented(store_from_texts):
    answer = _ask(store_from_texts({"one.md": ONE, "two.md": TWO, "faq.md": ONE_FAQ}))
    (point,) = answer["contested"]
    sources = {s for p in point["positions"] for s in p["source_ids"]}
    assert sources == {"C1-UM", "C1-FAQ"}

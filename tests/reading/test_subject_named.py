"""A sentence that names the question's subject in its own words is about that subject.

Where a product line's name is in every document, naming it singles out no document, and
the reader anchors on the subject's own document (resolved by ``resolve_entity``). A
comparison table elsewhere that says "Lumen Pro: €229" still states the Lumen Pro's price.
"""

from typing import Any

from groundgate.reading.answer import read
from groundgate.reading.question import analyse
from groundgate.reading.transcript import Step, Transcript


def _passage(pid: str, doc: str, title: str, text: str) -> dict[str, Any]:
    return {"id": pid, "kind": "passage", "title": title, "text": text, "sources": [doc],
            "score": 0.8}


def _reading(question: str, row: str):
    manual = _passage("lumen-pro-manual#1", "lumen-pro-manual", "Lumen Pro: user manual",
                      "The Lumen Pro is the brighter model of the Lumen desk lamp.")
    others = [
        _passage("lumen-pro-care#1", "lumen-pro-care", "Caring for your Lumen lamp",
                 "Wipe the Lumen Pro and the Lumen Mini with a dry cloth."),
        _passage("lumen-pro-safety#1", "lumen-pro-safety", "Safety notes",
                 "Do not cover the Lumen Pro or the Lumen Mini while they are on."),
        _passage("comparison#1", "comparison", "Which Lumen is right for you", row),
    ]
    resolve = Step("resolve_entity", {"mention": "Lumen Pro"}, 0, {"results": [
        {"id": "product:lumen-pro", "kind": "product", "title": "Lumen Pro",
         "sources": ["lumen-pro-manual"], "score": 1.0}]})
    search = Step("search_evidence", {"query": question}, 0, {"results": [manual, *others]})
    return read(Transcript(analyse(question), (resolve, search), 1))


def test_a_comparison_row_naming_the_subject_states_its_value():
    reading = _reading("What was the launch price of the Lumen Pro?",
                       "Launch price — Lumen Mini: €99; Lumen Pro: €229.")
    assert reading.outcome == "answered", reading.missing
    assert "€229" in reading.lines[0]


def test_a_row_for_another_product_still_does_not():
    reading = _reading("What was the launch price of the Lumen Pro?",
                       "Launch price — Lumen Mini: €99; Lumen Solo: €129.")
    assert reading.outcome != "answered"


def test_a_name_written_with_a_dash_is_the_name_the_question_gives():
    # the question's "Tarn–Elsey" is read as the mention "Tarn Elsey"; the row writes it
    # with its dash, and is still about that route
    question = "What does a return ticket on the Tarn–Elsey bus cost from 1 May 2026?"
    row = _passage("fares#1", "fares", "Fares", "Route (Tarn–Elsey): Return; From 1 May 2026: £6.40.")
    other = _passage("routes#1", "routes", "Routes", "The Tarn–Elsey bus runs every hour.")
    note = _passage("news#1", "news", "News", "The Mossby bus costs £3.00 for a return.")
    search = Step("search_evidence", {"query": question}, 0, {"results": [row, other, note]})
    reading = read(Transcript(analyse(question), (search,), 1))
    assert reading.outcome == "answered", reading.missing
    assert "£6.40" in reading.lines[0]

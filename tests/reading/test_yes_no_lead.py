"""A yes/no answer opens with Yes or No only when the sentence it rests on says so."""

from typing import Any

import pytest

from groundgate.reading.answer import read
from groundgate.reading.polarity import proposition
from groundgate.reading.question import analyse
from groundgate.reading.transcript import Step, Transcript


def _read(question: str, text: str, title: str = "Members' guide"):
    passage: dict[str, Any] = {"id": "guide#1", "kind": "passage", "title": title, "text": text,
                               "sources": ["guide"], "score": 0.9}
    step = Step("search_evidence", {"query": question}, 0, {"results": [passage]})
    return read(Transcript(analyse(question), (step,), 1))


def _opening(question: str, text: str, title: str = "Members' guide") -> str:
    reading = _read(question, text, title)
    assert reading.outcome == "answered", reading
    return reading.lines[0].split()[0]


def test_two_denials_in_one_sentence_still_deny():
    opening = _opening("Does the Kestrel e-bike get the cargo rack upgrade?",
                       "The Kestrel e-bike has no rear mount and does not get the cargo rack upgrade.")
    assert opening == "No"


def test_a_limit_is_not_a_denial():
    opening = _opening("Must a repair claim be filed within 30 days of the ride?",
                       "A repair claim must be filed no later than 30 days after the ride.")
    assert opening == "Yes"


@pytest.mark.parametrize("month, lead", [("March", "Yes"), ("April", None)])
def test_yes_needs_the_month_the_question_asks_about(month, lead):
    question = f"Could members still borrow e-readers from the Dunmore branch in {month} 2026?"
    text = "Members could borrow e-readers from the Dunmore branch until 31 March 2026."
    reading = _read(question, text)
    assert reading.outcome == "answered"
    opens = reading.lines[0].split()[0]
    if lead:
        assert opens == lead
    else:
        assert opens not in ("Yes", "No"), "the sentence speaks of March, not of April"


def test_yes_needs_the_version_the_question_asks_about():
    reading = _read("Can the dimmer schedule be set on firmware 3.1?",
                    "The dimmer schedule can be set in the app from firmware 4.0 onwards.",
                    title="Lamp manual")
    assert reading.lines[0].split()[0] not in ("Yes", "No")


@pytest.mark.parametrize("question", [
    "The Dunmore branch reopened after the flood, didn't it?",
    "Didn't the Dunmore branch reopen after the flood?",
])
def test_a_tag_or_a_negative_opening_asks_the_plain_question(question):
    assert analyse(question).asks == "yesno"
    assert "n't" not in proposition(question)
    opening = _opening(question, "The Dunmore branch reopened after the flood, on 2 June.")
    assert opening == "Yes"

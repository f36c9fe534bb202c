"""A number the question gives (a version, a financial year, an edition) must be in the evidence.

"What will the fee be in 2026-27?" is not answered by a fee table that never speaks of
2026-27; the digits of an id in the question ("zone H3", "PM2.5") are no such
number, and a yes/no question keeps its lead ("firmware 1.2" against "from firmware 2.0").
"""

from typing import Any

import pytest

from groundgate.reading.answer import read
from groundgate.reading.question import analyse
from groundgate.reading.transcript import Step, Transcript


def _read(question: str, text: str, title: str = "Charges"):
    passage: dict[str, Any] = {"id": "charges#1", "kind": "passage", "title": title, "text": text,
                               "sources": ["charges"], "score": 0.9}
    step = Step("search_evidence", {"query": question}, 0, {"results": [passage]})
    return read(Transcript(analyse(question), (step,), 1))


def test_a_year_the_evidence_never_speaks_of_is_not_answered():
    reading = _read("What will the mooring fee for a boat over 8 metres be in 2027-28?",
                    "The mooring fee for a boat over 8 metres is £640 a season.")
    assert reading.outcome == "insufficient"
    assert "2027-28" in " ".join(reading.missing)


def test_the_same_question_with_its_year_stated_is_answered():
    reading = _read("What will the mooring fee for a boat over 8 metres be in 2027-28?",
                    "From April 2027 (the 2027-28 season) the mooring fee for a boat over "
                    "8 metres is £640 a season.")
    assert reading.outcome == "answered"
    assert "£640" in reading.lines[0]


@pytest.mark.parametrize("question", [
    "What is the mooring fee for a boat in zone H3?",
    "What is the mooring fee for a boat with a PM2.5 filter?",
])
def test_the_digits_of_a_code_are_not_a_number_asked_about(question):
    reading = _read(question, "The mooring fee is £640 a season, whatever the zone or filter.")
    assert reading.outcome == "answered"


def test_a_yes_no_question_is_read_by_its_lead_not_by_its_number():
    reading = _read("Can the dimmer schedule be set on firmware 3.1?",
                    "The dimmer schedule can be set in the app from firmware 4.0 onwards.",
                    title="Lamp manual")
    assert reading.outcome == "answered"

"""A question whose topic is present but whose asked value is not is told so, in plain words."""

from typing import Any

from groundgate.reading.answer import read
from groundgate.reading.question import analyse
from groundgate.reading.transcript import Step, Transcript

AWARD = ("Colleagues who reach ten years of service receive a long-service award, presented at the "
         "annual staff conference.")
LEAVE = ("After ten years of continuous service your annual leave rises to 31 days, which is the most "
         "anyone receives.")
VOUCHER = "The long-service award at ten years of service is a gift voucher worth £250."
CHARGING = "Charge the monitor through its USB-C port with the cable supplied in the box."
CABLE = "Any USB-C cable up to 2 metres long may be used to charge the monitor."


def _passage(doc: str, text: str, score: float) -> dict[str, Any]:
    return {"id": f"{doc}#1", "kind": "passage", "title": doc.replace("-", " ").capitalize(),
            "text": text, "sources": [doc], "score": score}


def _read(question: str, *passages: dict[str, Any]):
    step = Step("search_evidence", {"query": question}, 0, {"results": list(passages)})
    return read(Transcript(analyse(question), (step,), 1))


def test_the_value_of_an_award_is_not_answered_by_the_award_and_a_day_count():
    reading = _read("What is the value of the long-service award at ten years of service?",
                    _passage("recognition", AWARD, 0.9), _passage("annual-leave", LEAVE, 0.8))
    assert reading.outcome == "insufficient"
    assert reading.missing == ("no retrieved passage states the amount asked for",)
    assert any("long-service award" in line for line in reading.lines)  # what the sources do say


def test_the_value_of_an_award_stated_in_money_answers():
    reading = _read("What is the value of the long-service award at ten years of service?",
                    _passage("recognition", AWARD, 0.9), _passage("annual-leave", LEAVE, 0.8),
                    _passage("awards", VOUCHER, 0.7))
    assert reading.outcome == "answered"
    assert "£250" in reading.lines[0]


def test_the_longest_cable_asks_for_a_length_the_sources_must_give():
    question = "What is the longest USB-C cable that may be used to charge the monitor?"
    refused = _read(question, _passage("quick-start", CHARGING, 0.9))
    assert refused.outcome == "insufficient"
    assert "number" in refused.missing[0]
    answered = _read(question, _passage("quick-start", CHARGING, 0.9), _passage("charging", CABLE, 0.8))
    assert answered.outcome == "answered"
    assert any("2 metres" in line for line in answered.lines)


def test_a_superlative_that_is_not_a_quantity_asks_for_no_number():
    reading = _read("What is the most common cause of leaks under a kitchen sink?",
                    _passage("leaks", "The most common cause of leaks under a kitchen sink is a loose "
                                      "compression nut on the waste pipe.", 0.9))
    assert reading.outcome == "answered"
    assert "compression nut" in reading.lines[0]


def test_a_month_answers_a_question_that_asks_for_a_month():
    question = "In which month do members renew their allotment tenancy?"
    renewal = ("Tenancies are renewed each October, when the secretary sends every member an "
               "invoice for the year.")
    answered = _read(question, _passage("allotments", renewal, 0.9))
    assert answered.outcome == "answered"
    assert "October" in answered.lines[0]
    # a month is no answer to a question asking for a number
    counted = _read("How many members renew their allotment tenancy?", _passage("allotments", renewal, 0.9))
    assert counted.outcome == "insufficient"

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


def test_a_year_the_question_gives_is_not_the_date_it_asks_for():
    question = "On what date does the museum's 2026 night opening take place?"
    night = "The museum opens late one night each spring, with talks in the galleries until ten."
    shop = "The gift shop's 2026 catalogue lists every print in the collection."
    refused = _read(question, _passage("events", night, 0.9), _passage("shop", shop, 0.8))
    assert refused.outcome == "insufficient"
    dated = "The museum's 2026 night opening takes place on Friday 17 April, from 6pm to 10pm."
    answered = _read(question, _passage("events", night, 0.9), _passage("shop", shop, 0.8),
                     _passage("whats-on", dated, 0.7))
    assert answered.outcome == "answered"
    assert any("17 April" in line for line in answered.lines)


def test_a_count_is_not_read_from_a_date_once_the_question_s_year_is_set_aside():
    question = "How many visitors came to the 2025 night opening?"
    report = "Report of 14 May 2025: the night opening was busy and the cafe ran out of scones."
    reading = _read(question, _passage("report", report, 0.9))
    assert reading.outcome == "insufficient"  # the 14 of the date is no count


def test_a_rate_in_pence_is_an_amount():
    reading = _read("What rate is paid per mile for a bicycle?",
                    _passage("travel", "Bicycle: 20p per mile, for any business journey.", 0.9))
    assert reading.outcome == "answered"
    assert "20p" in reading.lines[0]
    # a clock time is not an amount of pence
    late = _read("What does a late return of a hire bicycle cost?",
                 _passage("hire", "A late return of a hire bicycle, after 6 p.m., costs the day rate.", 0.9))
    assert late.outcome == "insufficient"


def test_a_time_of_day_question_needs_a_time_of_day():
    assert analyse("What time does the reading room close on Saturdays?").asks == "time"
    assert analyse("Within what time must a lost card be reported?").asks == "duration"
    assert analyse("What time of year is the book sale held?").asks != "time"
    question = "What time does the reading room close on Saturdays?"
    vague = "The reading room is open on Saturdays for members and their guests."
    refused = _read(question, _passage("hours", vague, 0.9))
    assert refused.outcome == "insufficient"
    assert refused.missing == ("no retrieved passage states the time of day asked for",)
    stated = "On Saturdays the reading room closes at 4.30pm."
    answered = _read(question, _passage("hours", vague, 0.9), _passage("opening-hours", stated, 0.8))
    assert answered.outcome == "answered"
    assert any("4.30pm" in line for line in answered.lines)


def test_a_clause_that_sets_the_scene_is_not_a_question_of_its_own():
    from groundgate.reading.question import clauses
    question = "When the reading room reopened in May 2026, were all 40 of its desks back in use?"
    assert analyse(question).asks == "yesno"
    assert [c.text for c in clauses(analyse(question))] == [question]
    # two questions joined by "and" are still two parts
    assert len(clauses(analyse("When did the reading room reopen, and how many desks were in use?"))) == 2
    reading = _read(question, _passage(
        "reopening", "The reading room reopened on 4 May 2026 with 32 of its 40 desks in use.", 0.9))
    assert reading.outcome == "answered"
    assert "32 of its 40 desks" in reading.lines[0]


def test_a_weight_is_asked_for_by_how_much_it_weighs_and_a_price_is_no_weight():
    assert analyse("How much does the folding ladder weigh?").asks == "weight"
    assert analyse("How heavy is the folding ladder?").asks == "weight"
    assert analyse("How much does the folding ladder cost?").asks == "money"
    question = "How much does the folding ladder weigh?"
    priced = _read(question, _passage("catalogue", "Item: Folding ladder; Code: FL-2; Price: £64.", 0.9))
    assert priced.outcome == "insufficient"
    weighed = _read(question, _passage("catalogue", "Item: Folding ladder; Code: FL-2; Price: £64.", 0.9),
                    _passage("ladder-spec", "The folding ladder weighs 7.5 kg and extends to 3 metres.", 0.8))
    assert weighed.outcome == "answered"
    assert any("7.5 kg" in line for line in weighed.lines)


def test_by_how_much_asks_for_a_difference_in_any_unit():
    question = "By how much can the library extend a loan?"
    assert analyse(question).asks == "number"
    reading = _read(question, _passage("loans", "Staff may extend a loan once, by up to two weeks.", 0.9))
    assert reading.outcome == "answered"


def test_a_word_that_starts_like_a_month_is_still_the_question_s_thing():
    # "market" is no "Mar": the row names the market and gives its fee for the asked year
    reading = _read("What is the market fee in 2026?",
                    _passage("stalls", "Market: £40 a stall, from 1 January 2026.", 0.9))
    assert reading.outcome == "answered", reading.missing
    assert "£40" in reading.lines[0]


def test_a_question_word_after_a_preposition_is_no_relative_clause():
    # "In which town was X born?" was read as multi-hop (its "which" as a relative clause), so
    # the reader took sentences from any document along a chain, and the judge was never asked
    assert not analyse("In which century was the Brannoch Psalter written?").relative
    assert not analyse("On which day of the week does the Planning Committee meet?").relative
    assert analyse("In which town was the engineer who designed the bridge born?").relative
    assert analyse("Where was the firm that built the tower founded?").relative

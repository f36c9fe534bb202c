"""A value given for another case of the same thing does not answer the asked case.

"What is the daily rate for a large kennel?" is not answered by the rates of the small and
the medium kennels when the sources know large kennels exist; nor "How long does a Lumo
Two battery last?" by the Lumo One's. A question that rules a case out ("a dog *without*
a booking") is not answered by a sentence about the case it rules out ("a dog with a
booking"), and a Yes about another room is no Yes about the asked one. A word no source
uses is not judged: it may be the question's word for the source's ("reconditioned" for
"refurbished").
"""

from typing import Any

import pytest

from groundgate.reading.answer import read
from groundgate.reading.cases import other_case, sets_aside, word_keys
from groundgate.reading.question import analyse
from groundgate.reading.transcript import Step, Transcript


def _read(question: str, *texts: str):
    passages: list[dict[str, Any]] = [
        {"id": f"kennels#{i}", "kind": "passage", "title": "Boarding", "text": text,
         "sources": [f"page-{i}"], "score": 0.9 - 0.1 * i}
        for i, text in enumerate(texts)
    ]
    step = Step("search_evidence", {"query": question}, 0, {"results": passages})
    return read(Transcript(analyse(question), (step,), 1))


def test_the_rates_of_other_sizes_do_not_give_the_asked_one():
    reading = _read("What is the daily rate for a large kennel?",
                    "The daily rate for a small kennel is £18 and for a medium kennel £22.",
                    "Large kennels are kept for guide dogs and are booked by phone.")
    assert reading.outcome == "insufficient"
    assert "large kennel" in " ".join(reading.missing)
    assert "£18" in reading.text()  # what the sources do say is still shown


@pytest.mark.parametrize(("question", "text", "value"), [
    # the asked size is stated beside the others
    ("What is the daily rate for a large kennel?",
     "The daily rate for a small kennel is £18 and for a large kennel £26.", "£26"),
    # a qualifier no source uses is not judged: it may be the question's word for the source's
    ("How long is the warranty on a reconditioned scanner?",
     "A refurbished scanner carries a warranty of 6 months.", "6 months"),
    # "how long is" asks for a time as well as a length
    ("How long is the warranty on a new scanner?",
     "A new scanner carries a warranty of 2 years from the date of purchase.", "2 years"),
], ids=["asked-size-stated", "qualifier-no-source-uses", "how-long-is-a-time"])
def test_a_sentence_about_the_asked_case_answers(question, text, value):
    reading = _read(question, text)
    assert reading.outcome == "answered", reading.missing
    assert value in reading.lines[0]


def test_another_model_of_a_named_product_is_another_case():
    # "two" elsewhere in the sentence does not make the Lumo One the Lumo Two
    sentence = "The Lumo One runs on two AA batteries for about 6 months."
    known = word_keys(f"{sentence} The Lumo Two has a built-in battery.")
    assert other_case("How long does a Lumo Two battery last?", ("Lumo Two",), sentence, "",
                      known) == "lumo two"
    assert other_case("How long does a Lumo One battery last?", ("Lumo One",), sentence, "",
                      known) is None


def test_the_case_a_question_rules_out_is_not_answered_by_the_case_it_does_not():
    reading = _read("How long may a dog without a booking stay in the day room?",
                    "A dog with a booking may stay in the day room for up to 8 hours.")
    assert reading.outcome == "insufficient"
    assert "without a booking" in " ".join(reading.missing)
    reading = _read("How long may a dog without a booking stay in the day room?",
                    "A dog without a booking may stay in the day room for up to 2 hours.")
    assert reading.outcome == "answered"
    assert "2 hours" in reading.lines[0]


def test_a_yes_about_another_room_is_no_yes_about_the_asked_one():
    reading = _read("Does the Annexe have underfloor heating?",
                    "The main kennel block has underfloor heating in every run.",
                    "The Annexe holds six runs for cats.")
    assert not reading.text().startswith(("Yes", "No"))
    reading = _read("Does the Annexe have underfloor heating?",
                    "The Annexe has underfloor heating in every run.")
    assert reading.text().startswith("Yes")


def test_a_verb_and_its_object_are_not_a_case():
    # "stay outdoors": "outdoors" after "monitor" in the sentence is no other kind of outdoors
    known = word_keys("Place the monitor outdoors for 20 minutes.")
    assert other_case("How long must the monitor stay outdoors?", (),
                      "Place the monitor outdoors for 20 minutes.", "", known) is None
    # a title after a comma is no qualifier: "Devraj Kapoor, Director of Finance"
    known = word_keys("Issued by Devraj Kapoor, Director of Finance. The Trust's board")
    assert other_case("Who is the Trust's Director of Finance?", ("Trust",),
                      "Issued by Devraj Kapoor, Director of Finance.", "", known) is None


def test_a_value_given_unless_the_asked_case_does_not_answer_it():
    question = "How long are kennel records kept when they are needed for an insurance claim?"
    reading = _read(question, "Kennel records are kept for 30 days, unless needed for an insurance claim.")
    assert reading.outcome == "insufficient"
    assert "unless needed for an insurance claim" in " ".join(reading.missing)
    reading = _read(question, "Kennel records are kept for 30 days, unless needed for an insurance claim.",
                    "Kennel records needed for an insurance claim are kept for 2 years.")
    assert reading.outcome == "answered"
    assert "2 years" in reading.text()


def test_one_word_of_the_question_in_an_exception_is_no_case():
    # "except colleagues": the question's subject, not a case it asks about
    assert sets_aside("What mileage rate is paid to colleagues for a bicycle?",
                      "Pool cars may not carry passengers, except colleagues.") is None
    assert sets_aside("How long are recordings kept when needed for an investigation?",
                      "Recordings are kept for 31 days, unless needed for an investigation.")

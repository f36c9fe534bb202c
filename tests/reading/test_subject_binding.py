"""The asked detail must be stated about the question's own subject, in one sentence."""

from typing import Any

from groundgate.reading.answer import read
from groundgate.reading.question import analyse
from groundgate.reading.transcript import Step, Transcript

SAFETY = ("When the alarm sounds, leave by the nearest exit and go to the assembly point: at Mill "
          "Street it is the car park behind the building, and at the Harbour Road depot it is the "
          "gate beside the salt store.")
OFFICES = ("The Eastgate hub has no reception: visitors there are met at the door by the colleague "
           "they are visiting.")
EASTGATE = "At the Eastgate hub the fire assembly point is the bus shelter opposite the main entrance."


def _passage(doc: str, title: str, text: str, score: float) -> dict[str, Any]:
    return {"id": f"{doc}#1", "kind": "passage", "title": title, "text": text, "sources": [doc],
            "score": score}


def _read(question: str, *passages: dict[str, Any]):
    step = Step("search_evidence", {"query": question}, 0, {"results": list(passages)})
    return read(Transcript(analyse(question), (step,), 1))


def test_a_detail_given_for_other_sites_is_not_the_named_sites_detail():
    reading = _read("Where is the fire assembly point at the Eastgate hub?",
                    _passage("health-and-safety", "Health and safety", SAFETY, 0.9),
                    _passage("offices", "Our offices", OFFICES, 0.7))
    assert reading.outcome == "insufficient"
    assert "Eastgate" in reading.missing[0] and "assembly" in reading.missing[0]


def test_the_same_detail_stated_about_the_named_site_answers():
    reading = _read("Where is the fire assembly point at the Eastgate hub?",
                    _passage("health-and-safety", "Health and safety", SAFETY, 0.9),
                    _passage("offices", "Our offices", OFFICES, 0.7),
                    _passage("eastgate", "Eastgate hub", EASTGATE, 0.6))
    assert reading.outcome == "answered"
    assert any("bus shelter" in line for line in reading.lines)

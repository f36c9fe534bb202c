"""The detector protocol behind the gate: whatever finds a disagreement, the gate presents it.

A corpus written here (a country park) has two sources that disagree in words (dogs
welcome on a trail; not allowed on it), two that agree in other words (camping
not allowed; camping prohibited) and a superseded leaflet. The lexical detector sees no
number to compare; the semantic one and a judge (a scripted model here; the real model's
recordings replay in tests/replay/test_judge_cassettes.py) see the words.
"""

import json
import re

import pytest
from langchain_core.messages import AIMessage

from groundgate.errors import ConfigError
from groundgate.knowledge.embedded.store import SQLiteStore
from groundgate.knowledge.ingest.pipeline import ingest
from groundgate.models.offline import OfflinePlanner
from groundgate.pipeline.build import build_pipeline
from groundgate.policies.detectors import (
    Bearing,
    Detection,
    Finding,
    FindingPosition,
    LexicalDetector,
    Passage,
    Sides,
)
from groundgate.policies.detectors.judge import SYSTEM, JudgeDetector
from groundgate.policies.detectors.semantic import SemanticDetector
from groundgate.policies.policyset import PolicySet
from groundgate.testing.fake import ScriptedChatModel
from groundgate.testing.files import write_files

DOCS = {
    "park-leaflet.md": """\
        # Kestrel Valley Country Park: a visitor's leaflet

        Dogs are welcome on the Hollin Ridge trail, as long as they are kept on a lead.
        Wild camping is not allowed anywhere in the park.
        """,
    "park-byelaws.md": """\
        ---
        id: KV-BL
        title: Kestrel Valley Country Park byelaws
        kind: regulation
        ---
        # Byelaws

        Dogs are not allowed on the Hollin Ridge trail at any time of year.
        Camping is prohibited within the park boundary.
        """,
    "old-leaflet.md": """\
        ---
        id: KV-OLD
        title: Kestrel Valley leaflet, first edition
        kind: leaflet
        effective_from: 2020-01-01
        ---
        # First edition

        Dogs may run free on the Hollin Ridge trail.
        """,
    "new-leaflet.md": """\
        ---
        id: KV-NEW
        title: Kestrel Valley leaflet, second edition
        kind: leaflet
        effective_from: 2023-01-01
        supersedes: [KV-OLD]
        ---
        # Second edition

        Dogs must be kept on a lead on the Hollin Ridge trail.
        """,
}
DOGS = "Are dogs allowed on the Hollin Ridge trail?"
CAMPING = "Is camping allowed in the Kestrel Valley Country Park?"


@pytest.fixture(scope="module")
def park(tmp_path_factory):
    root = write_files(tmp_path_factory.mktemp("park"), DOCS)
    store = SQLiteStore.from_path(":memory:")
    store.setup()
    ingest(store, root)
    return store


def _ask(store, detector, question):
    graph = build_pipeline(store, OfflinePlanner(), policies=PolicySet(detector=detector))
    return graph.invoke({"question": question, "as_of": None})["answer"]


def _sides(answer):
    return [sorted(s for p in point["positions"] for s in p["source_ids"]) for point in answer["contested"]]


class Spy:
    """A detector that records what it is asked and finds what it is told to."""

    name = "spy"

    def __init__(self, finding=None):
        self.finding, self.asked = finding, []

    def bearing(self, request):
        return Bearing(frozenset(), ("asked about the register",))

    def sides(self, request):
        return Sides()

    def disagreements(self, passages, *, question, store=None):
        self.asked.append((question, list(passages)))
        return Detection((self.finding,) if self.finding else (), ("spy looked",))


def test_the_default_detector_is_the_lexical_one_and_sees_no_disagreement_in_words(park):
    assert isinstance(PolicySet().detector, LexicalDetector)
    assert _ask(park, PolicySet().detector, DOGS)["contested"] == []


def test_a_detector_reads_the_passages_the_answer_rests_on_and_its_finding_is_presented(park):
    finding = Finding(
        topic="dogs on the trail",
        positions=(
            FindingPosition("Dogs are welcome on the Hollin Ridge trail.", ("park-leaflet",)),
            FindingPosition("Dogs are not allowed on the Hollin Ridge trail.", ("KV-BL",)),
        ),
    )
    spy = Spy(finding)
    answer = _ask(park, spy, DOGS)
    question, passages = spy.asked[0]
    assert question == DOGS
    assert any(p.role == "rests" for p in passages), "the passages the answer's claims rest on come first"
    assert passages[0].role == "rests"
    assert _sides(answer) == [["KV-BL", "park-leaflet"]]
    assert "Position 1: Dogs are welcome" in answer["text"] and "[KV-BL]" in answer["text"]
    assert "does not choose between these positions" in answer["text"]
    assert any(n.startswith("detector (spy): spy looked") for n in answer["policy_notes"])


@pytest.mark.parametrize("sources", [("KV-OLD", "KV-NEW"), ("park-leaflet", "park-leaflet")])
def test_a_change_between_versions_or_within_one_document_is_not_presented(park, sources):
    finding = Finding(
        topic="t", positions=(FindingPosition("a", (sources[0],)), FindingPosition("b", (sources[1],)))
    )
    assert _ask(park, Spy(finding), DOGS)["contested"] == []


def test_the_semantic_detector_presents_a_disagreement_in_words_and_not_an_agreement(park, minilm):
    semantic = SemanticDetector(minilm)
    (point,) = _ask(park, semantic, DOGS)["contested"]
    sides = [set(p["source_ids"]) for p in point["positions"]]
    assert any("park-leaflet" in a and "KV-BL" in b for a in sides for b in sides if a is not b)
    assert all("KV-OLD" not in side for side in sides), "a superseded edition is no side"
    assert _ask(park, semantic, CAMPING)["contested"] == [], "not allowed / prohibited agree"


def test_without_the_weights_the_semantic_detector_says_so_on_the_answer(park, monkeypatch):
    import groundgate.knowledge.minilm as minilm_module

    def missing(*args, **kwargs):
        raise ConfigError("the bundled MiniLM is not installed")

    monkeypatch.setattr(minilm_module, "MiniLMEmbedder", missing)
    fallback = SemanticDetector()
    answer = _ask(park, fallback, DOGS)
    assert any("MiniLM unavailable" in n and "shared words" in n for n in answer["policy_notes"])


def _judge(reply):
    model = ScriptedChatModel(
        script=[AIMessage(content=reply if isinstance(reply, str) else json.dumps(reply))]
    )
    return JudgeDetector(model, model_name="scripted"), model


def test_the_judge_presents_source_sentences_for_the_answers_it_read(park):
    judge, model = _judge(
        {
            "1": {"answer": "yes", "quote": "Dogs are welcome on the Hollin Ridge trail"},
            "2": {"answer": "no", "quote": "Dogs are not allowed on the Hollin Ridge trail"},
            "conflict": True,
        }
    )
    answer = _ask(park, judge, DOGS)
    assert _sides(answer) == [["KV-BL", "park-leaflet"]]
    shown = {p["statement"] for point in answer["contested"] for p in point["positions"]}
    assert shown == {
        "Dogs are welcome on the Hollin Ridge trail, as long as they are kept on a lead.",
        "Dogs are not allowed on the Hollin Ridge trail at any time of year.",
    }
    system, user = (m.content for m in model.calls[0])
    assert system == SYSTEM, "the instructions are fixed; passages travel only in the user message"
    assert "[1]" in user and DOGS in user
    assert any("judge scripted" in n and "tokens" in n for n in answer["policy_notes"])


@pytest.mark.parametrize(
    "reply",
    [
        {
            "1": {"answer": "yes", "quote": "Dogs are welcome on the Hollin Ridge trail"},
            "2": {"answer": "no", "quote": "dogs are banned by order of the council"},
        },  # a quote no passage holds
        {"1": "yes", "2": "no", "conflict": True},  # a yes and a no with no words of the passages behind them
        "I think they disagree.",  # no JSON at all
        {"1": {"answer": "yes", "quote": "Dogs are welcome on the Hollin Ridge trail"}, "conflict": True},
    ],
)
def test_a_judge_reply_the_passages_do_not_bear_out_finds_nothing(park, reply):
    judge, _ = _judge(reply)
    assert _ask(park, judge, DOGS)["contested"] == []


def test_a_judge_that_fails_finds_nothing_and_says_so(park):
    model = ScriptedChatModel(script=[RuntimeError("connection refused")])
    answer = _ask(park, JudgeDetector(model, model_name="down"), DOGS)
    assert answer["contested"] == []
    assert any("model call failed" in n for n in answer["policy_notes"])


def test_a_reply_written_as_a_script_object_is_read(park):
    judge, _ = _judge("""```json {1: {answer: 'yes', quote: "Dogs are welcome on the Hollin Ridge trail"},
        2: {answer: 'no', quote: "Dogs are not allowed on the Hollin Ridge trail"}} ```""")
    assert _sides(_ask(park, judge, DOGS)) == [["KV-BL", "park-leaflet"]]


def test_the_passages_sent_to_the_judge_are_about_what_the_question_names():
    passages = [
        Passage("a", "Dogs are welcome on the Hollin Ridge trail.", title="Leaflet", role="rests"),
        Passage("b", "Dogs are not allowed in Pelham Street Market.", title="Market"),
        Passage("c", "No dog may be taken onto the Hollin Ridge trail.", title="Byelaws"),
    ]
    judge, model = _judge({"1": "not stated", "2": "not stated"})
    judge.disagreements(passages, question=DOGS)
    user = model.calls[0][1].content
    assert "Pelham" not in user and "Byelaws" in user


def test_a_position_is_one_statement_of_its_source_never_two_run_together():
    # A forum thread's posts, joined in the judge's excerpt and split again, ran together
    # into a "sentence" no source holds (found on the accounts set's board-game thread).
    thread = ("kit: The dice are for the storm rolls, but I cannot find when to roll them. Anyone?\n"
              "pool: solo play is ruled out by the rules.")
    passages = [
        Passage("thread", thread, title="Gullwing forum", role="rests"),
        Passage("box", "Solo play is allowed in Gullwing: one player takes both fleets.",
                title="Gullwing box"),
    ]
    judge, _ = _judge({
        "1": {"answer": "no", "quote": "solo play is ruled out by the rules"},
        "2": {"answer": "yes", "quote": "Solo play is allowed in Gullwing"},
        "conflict": True,
    })
    found = judge.disagreements(passages, question="Can Gullwing be played solo?").findings
    assert found, "the two answers conflict"
    shown = {p.source_ids[0]: p.statement for p in found[0].positions}
    assert shown == {"thread": "pool: solo play is ruled out by the rules.",
                     "box": "Solo play is allowed in Gullwing: one player takes both fleets."}


def test_the_judge_is_not_asked_when_only_one_source_speaks_of_the_question():
    # Shown one passage about the question and neighbours about something else, a small
    # judge answered the question from each neighbour and called the answers a conflict.
    from groundgate.policies.detectors.judge import NOT_ASKED

    passages = [
        Passage("leave", "Our leave year runs from 1 April to 31 March.", title="Annual leave", role="rests"),
        Passage("pay", "Payslips are published in the HR portal three working days before pay day.",
                title="Pay"),
    ]
    judge, model = _judge({"1": {"answer": "1 April", "quote": "runs from 1 April"},
                           "2": {"answer": "three working days", "quote": "three working days"},
                           "conflict": True})
    found = judge.disagreements(passages, question="On what date does the leave year start?")
    assert model.calls == [] and found.findings == ()
    assert NOT_ASKED in found.notes
    # a second passage about the leave year: the judge is asked
    passages.append(Passage("intranet", "The leave year starts on 1 January.", title="Leave year"))
    judge.disagreements(passages, question="On what date does the leave year start?")
    assert len(model.calls) == 1


def test_the_judges_instructions_give_a_shape_and_no_answer_a_model_could_copy():
    # the 1.5B model copied the old example's "designed by Anna Berg" as a passage's quote
    example = SYSTEM[SYSTEM.index("{"):]
    values = re.findall(r'"(?:answer|quote)": "([^"]*)"', example)
    assert values and all(v.startswith("<") and v.endswith(">") for v in values)
    assert not re.search(r"\b[A-Z][a-z]+ [A-Z][a-z]+\b", example), "no name in the example"


def test_the_judge_is_not_asked_about_a_multi_hop_question():
    # Each passage holds one hop: the birthplace in one, the port in the other. Asked for
    # each passage's answer, a small judge gives one hop from each ("Skarra", "Olm") and
    # calls them a conflict (as it did on the isles set).
    from groundgate.policies.detectors.judge import NOT_ASKED_MULTI_HOP

    passages = [
        Passage("fenwright", "Tobias Fenwright was born on the island of Skarra in 1861.",
                title="Tobias Fenwright", role="rests"),
        Passage("skarra", "Skarra, the island of Tobias Fenwright's childhood, is served by the ferry "
                          "port of Olm.",
                title="Skarra"),
    ]
    judge, model = _judge({"1": {"answer": "Skarra", "quote": "born on the island of Skarra"},
                           "2": {"answer": "Olm", "quote": "served by the ferry port of Olm"},
                           "conflict": True})
    asked = "Which port serves the island where Tobias Fenwright was born?"
    found = judge.disagreements(passages, question=asked)
    assert model.calls == [] and found.findings == ()
    assert NOT_ASKED_MULTI_HOP in found.notes
    judge.disagreements(passages, question="Which port serves the island of Skarra?")
    assert len(model.calls) == 1


def _two_sides(question, left, right, answers):
    """What a judge replying ``answers`` (one quote each, in the passages' words) finds."""
    passages = [Passage("a", left, title="First", role="rests"), Passage("b", right, title="Second")]
    judge, _ = _judge({"1": {"answer": answers[0], "quote": left.rstrip(".")},
                       "2": {"answer": answers[1], "quote": right.rstrip(".")}, "conflict": True})
    return judge.disagreements(passages, question=question).findings


def test_one_thing_at_two_times_is_a_change_not_a_disagreement():
    # Follow-ups give one fare before and after a date; a small judge called them a conflict
    # (newsroom, careers, riverbend dev). Each position dated by its own words to another
    # time is a change. When the question asks for a time, the times are the answers.
    fare = "What does an adult return cost?"
    assert _two_sides(fare, "Until 31 March 2025 an adult return costs £9.40.",
                      "From 1 April 2025 an adult return costs £10.20.", ("£9.40", "£10.20")) == ()
    assert _two_sides(fare, "An adult return costs £9.40.", "An adult return costs £10.20.",
                      ("£9.40", "£10.20"))
    assert _two_sides("When was the hall built?", "The hall was built in 1890 by the guild.",
                      "The hall was built in 1952 after the war.", ("1890", "1952"))


def test_answers_that_are_not_the_kind_of_value_asked_are_no_two_positions():
    # A small judge gave each passage its value nearest the question: a retention period and
    # a date for when a year starts, an amount of money and a count of days for how many days
    # (handbook, riverbend dev). Two answers of the kind asked still disagree.
    when = "When does the leave year start?"
    assert _two_sides(when, "Tenancy files are kept for 6 years after the tenancy ends.",
                      "Our leave year runs from 1 April to 31 March.",
                      ("6 years after the tenancy ends", "1 April")) == ()
    assert _two_sides(when, "The leave year starts on 1 January.",
                      "Our leave year runs from 1 April to 31 March.", ("1 January", "1 April"))
    days = "How many days of annual leave does a full-time colleague get?"
    assert _two_sides(days, "Every colleague has a training budget of £400 a year.",
                      "A full-time colleague gets 27 days of annual leave.", ("£400", "27 days")) == ()
    assert _two_sides(days, "A full-time colleague gets 25 days of annual leave.",
                      "A full-time colleague gets 27 days of annual leave.", ("25 days", "27 days"))
    # a place is no number of days; an answer in words has no kind and is never dropped for it
    where = "Where are the pool cars kept?"
    assert _two_sides(where, "Pool cars are kept at the Mill Street office.",
                      "Logs of pool cars are kept for 90 days.", ("Mill Street office", "90 days")) == ()
    assert _two_sides("When was the hall built?", "The hall was built in the eighteen-sixties.",
                      "The hall was built in the Edwardian era.",
                      ("the eighteen-sixties", "the Edwardian era"))


def test_an_answer_the_judge_quotes_no_words_for_is_no_position():
    from groundgate.policies.detectors.judge_reply import borne_out

    question = "Where will the choir give its summer concert?"
    passages = ["The choir rehearses in Fenwick every Tuesday. Its summer concert will be given in "
                "the Abbey at Lowmoor.", "The summer concert is in Fenwick Town Hall this year."]
    # the passage names Fenwick, but the words quoted for it say Lowmoor: read from elsewhere
    assert borne_out({"answer": "Fenwick", "quote": "Its summer concert will be given in the Abbey at "
                      "Lowmoor."}, 0, passages, question) is None
    held = borne_out({"answer": "Fenwick Town Hall", "quote": "The summer concert is in Fenwick Town "
                      "Hall this year."}, 1, passages, question)
    assert held is not None and held[0] == 1
    # a period in words may be quoted from its sentence's neighbour; it is read as before
    dated = ["The hall was built in the eighteen-sixties. Its tower followed later."]
    assert borne_out({"answer": "the eighteen-sixties", "quote": "Its tower followed later."}, 0,
                     dated, "When was the hall built?") is not None


def test_a_yes_or_no_quote_cut_from_its_sentence_is_read_with_that_sentence():
    from groundgate.policies.detectors.judge_reply import borne_out

    question = "Does Harrow Blue contain animal rennet?"
    passages = ["Harrow Blue is a soft blue cheese. The cheese contains no animal rennet; a vegetable "
                "coagulant is used in every batch. It is matured for ten weeks.",
                "It was first made in the eighteen-thirties, by a dairy in the valley."]
    # the quote says none of what is asked, but its sentence does: an implicit no is a position
    held = borne_out({"answer": "no", "quote": "a vegetable coagulant is used in every batch"}, 0,
                     passages, question)
    assert held is not None and held[:2] == (0, "no")
    # a sentence about something else is still no answer, whatever the model said
    assert borne_out({"answer": "yes", "quote": "It was first made in the eighteen-thirties"}, 1,
                     passages, question) is None


def test_a_date_the_judge_gives_must_come_from_a_sentence_about_what_is_asked():
    from groundgate.policies.detectors.judge_reply import borne_out

    question = "In which month are allotment rent invoices sent out?"
    passages = ["Bonfires are allowed only between 1 November and 28 February, and never on Sundays.",
                "Allotment rent invoices are sent out in October, for the tenancy year ahead."]
    # a month is a date, not a name: read from the bonfire rule it is no answer to this
    assert borne_out({"answer": "November", "quote": "between 1 November and 28 February"}, 0,
                     passages, question) is None
    held = borne_out({"answer": "October", "quote": "Allotment rent invoices are sent out in October"},
                     1, passages, question)
    assert held is not None and held[:2] == (1, "october")

"""What a person reads: no tool names or error strings, lookups said in plain words."""

from pathlib import Path

from groundgate.eval.dataset import dataset_store
from groundgate.graph.build import build_agent
from groundgate.models.offline import OfflinePlanner
from groundgate.pipeline.build import build_pipeline
from groundgate.pipeline.router import build_router
from groundgate.policies.honesty import lookup_note
from groundgate.reading.answer import read
from groundgate.reading.question import analyse
from groundgate.reading.transcript import Step, Transcript
from groundgate.tools.registry import ALL_TOOLS

INTERNAL = ("no entity matches", "no relationships from", "INSUFFICIENT", *ALL_TOOLS)


def _internal(text: str) -> list[str]:
    return [s for s in INTERNAL if s in text]


def test_lookups_are_said_in_a_persons_words():
    empty = {"tool": "resolve_entity", "args": {"mention": "Victoria"}, "insufficient": True}
    assert lookup_note(empty) == "no declared entity is named 'Victoria'"
    error = {"tool": "search_evidence", "args": {"query": "x"}, "error": "search_evidence failed: boom"}
    failed = lookup_note(error)
    assert failed and "search_evidence" not in failed and "boom" not in failed
    assert lookup_note({"tool": "list_contradictions", "args": {}, "insufficient": True}) is None


def test_a_lookup_note_names_the_thing_not_its_id_and_cuts_a_long_query_at_a_word():
    from groundgate.policies.honesty import insufficient_notes

    found = {"tool": "resolve_entity", "args": {"mention": "the fete"},
             "results": [{"id": "fete-2025", "title": "Kelsham Fete 2025", "kind": "entity", "snippet": ""}]}
    walked = {"tool": "traverse", "args": {"entity_id": "fete-2025"}, "insufficient": True}
    unknown = {"tool": "timeline", "args": {"entity_id": "hall-7"}, "insufficient": True}
    question = "What is the fee for burying an adult who was not a parishioner in the churchyard extension?"
    searched = {"tool": "search_knowledge", "args": {"query": question}, "insufficient": True}
    notes = insufficient_notes([found, walked, unknown, searched])
    assert notes[0] == "the sources declare no relationships of Kelsham Fete 2025"
    assert notes[1] == "the sources record no dated events of 'hall-7'"  # nothing names it: the id
    assert notes[2].startswith("nothing in the curated knowledge matches 'What is the fee")
    shown = notes[2].split("'")[1]
    assert shown.endswith("…") and shown[:-1] + " " in question  # cut after a whole word


def test_an_unanswerable_question_says_what_was_not_found_without_internal_strings(bundled_store):
    question = "Who is Victoria Pembleton-Haig and which claim did she approve?"
    planner = OfflinePlanner()
    for graph in (build_agent(bundled_store, planner), build_router(bundled_store, planner)):
        answer = graph.invoke({"question": question, "as_of": None})["answer"]
        assert not answer["answered"]
        assert _internal(answer["text"]) == [], answer["text"]
        assert "The sources available do not answer this question." in answer["text"]


def test_an_answered_question_keeps_empty_lookups_in_the_record_not_in_the_text(bundled_store):
    question = "What wind gust speed does the storm claims guidance use to treat an event as a storm?"
    answer = build_agent(bundled_store, OfflinePlanner()).invoke({"question": question})["answer"]
    assert answer["answered"] and "55 mph" in answer["text"]
    assert _internal(answer["text"]) == [] and "What I cannot say" not in answer["text"]


def test_a_reason_is_a_sentence_not_a_list_of_the_questions_words():
    # it read "no retrieved passage gives the amount for proportion group elsewhere receive grant"
    question = ("What proportion of the cost must a group find from elsewhere to receive a "
                "Youth Activity Fund grant?")
    with dataset_store(Path(__file__).parents[2] / "bench" / "datasets" / "council") as (store, _):
        answer = build_pipeline(store, OfflinePlanner()).invoke({"question": question})["answer"]
    assert answer["text"].startswith("The sources available do not answer this question.")
    assert ("the amounts the retrieved passages give are not about what the question asks"
            in answer["text"])
    assert "proportion group elsewhere" not in answer["text"]


def test_the_verb_after_a_possessive_is_not_what_a_question_asks_about():
    # "no retrieved passage names the looked" was the reason shown for this question
    question = analyse("Where were Kittiwake Ward's patients looked after while it was shut?")
    assert question.head == ("patient",)


def test_an_apostrophe_inside_words_opens_no_quotation():
    assert analyse("When does Brackhaven Athletic's supporters' share issue close?").mentions == (
        "Brackhaven Athletic",)


def test_a_who_question_without_a_noun_is_said_to_ask_for_a_person():
    # it read "no retrieved passage names the pays"
    question = "Who pays the shipping costs of a repair under warranty?"
    passage = {"id": "returns#1", "kind": "passage", "title": "Returns", "sources": ["returns"],
               "score": 0.9, "text": "Repairs under warranty are handled by the repair centre. "
               "The shipping costs of a repair under warranty are listed on the returns page."}
    step = Step("search_evidence", {"query": question}, 0, {"results": [passage]})
    reading = read(Transcript(analyse(question), (step,), 1))
    assert reading.outcome == "insufficient"
    assert reading.missing == ("no retrieved passage names the person asked for",)

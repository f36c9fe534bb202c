"""The offline planner, driven without the graph: real tool calls against a real store."""

from __future__ import annotations

import json
from datetime import date
from importlib import resources
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.tools import StructuredTool
from pydantic import BaseModel

from groundgate.knowledge.embedded.store import SQLiteStore
from groundgate.knowledge.ingest.pipeline import ingest
from groundgate.models.offline import OfflinePlanner
from groundgate.reading.question import analyse, clauses, parse_prompt
from groundgate.reading.text import capitalised_names, find_dates, has_value
from groundgate.testing.conformance import conformance_corpus
from groundgate.tools.base import ToolDeps
from groundgate.tools.registry import ALL_TOOLS, execute

INSURANCE = Path(str(resources.files("groundgate") / "corpus" / "insurance"))
GOLDEN = {
    row["qid"]: row
    for row in map(json.loads, (INSURANCE / "questions.jsonl").read_text().splitlines())
    if row
}

# ---- a driver standing in for the graph ---------------------------------------------


def drive(store, question: str, as_of: str | None = None, tools=ALL_TOOLS, rounds: int = 8):
    """Plan -> execute every call -> append envelopes, until the planner answers."""
    model = OfflinePlanner().bind_tools([_openai_tool(name) for name in tools])
    messages: list[BaseMessage] = [
        SystemMessage("You answer from the organisation's knowledge layer with its tools."),
        HumanMessage(f"Question: {question}\nAs of: {as_of or 'not given'}"),
    ]
    deps = ToolDeps(store=store)
    for _ in range(rounds):
        reply = model.invoke(messages)
        messages.append(reply)
        if not reply.tool_calls:
            break
        for call in reply.tool_calls:
            envelope = execute(call["name"], call["args"], deps, allowed=tools)
            messages.append(ToolMessage(content=envelope.for_model(), tool_call_id=call["id"]))
    return messages


def _openai_tool(name: str) -> dict:
    return {"type": "function", "function": {"name": name, "parameters": {"type": "object"}}}


def calls(messages) -> list[tuple[str, dict]]:
    return [(c["name"], c["args"]) for m in messages if isinstance(m, AIMessage) for c in m.tool_calls]


def answer(messages) -> str:
    assert isinstance(messages[-1], AIMessage) and not messages[-1].tool_calls
    return messages[-1].content


def has_gold(text: str, groups) -> bool:
    lowered = text.lower()
    return all(any(k.lower() in lowered for k in group) for group in groups)


def _store(folder: Path) -> SQLiteStore:
    store = SQLiteStore.from_path(":memory:")
    store.setup()
    ingest(store, folder)
    return store


@pytest.fixture(scope="module")
def insurance():
    store = _store(INSURANCE / "corpus")
    yield store
    store.close()


@pytest.fixture(scope="module")
def library():
    store = _store(conformance_corpus())
    yield store
    store.close()


# ---- an unseen-style corpus: short encyclopedia articles, no front matter -------------

ARTICLES = {
    "ostra-river.md": """# Ostra River

The Ostra River is a river in the north of the country. It rises in the Harl Hills and flows
for 212 kilometres to the sea.

The river passes through the town of Velmar, where it is crossed by the Velmar Bridge. The
Velmar Bridge was designed by the engineer Ilse Brandt and opened in 1912.
""",
    "ilse-brandt.md": """# Ilse Brandt

Ilse Brandt (1871–1939) was a civil engineer. She was born in the port city of Kessling and
studied at the Technical Academy of Dorn.

Brandt specialised in steel arch bridges. She later taught structural design in Dorn until
her retirement in 1931.
""",
    "kessling.txt": """Kessling is a port city on the northern coast, at the mouth of the Ostra River.
Its harbour handles grain and timber.

The engineer Ilse Brandt was born in Kessling in 1873, according to the city's register of
notable residents.
""",
    "fc-velmar.md": """# FC Velmar

FC Velmar is a football club based in the town of Velmar. The club plays its home matches at
the Riverside Ground.

Tomas Reiner was head coach of FC Velmar from 2001 to 2005. Anders Lund then coached the club
from 2005 until 2011, and Mirela Dusan has been head coach since 2011.

FC Velmar won the national cup in 2003, beating Kessling Athletic in the final.
""",
    "tomas-reiner.txt": """Tomas Reiner is a former footballer and coach, born in Dorn in 1958. He
played as a defender for Kessling Athletic for eleven seasons.
""",
    "anders-lund.md": """# Anders Lund

Anders Lund is a football coach from Velmar. Before coaching he worked as a schoolteacher.
Lund led FC Velmar to two league titles, in 2007 and 2009.
""",
    "velmar.md": """# Velmar

Velmar is a market town on the Ostra River, with a population of about 24,000. It is known for
its steel bridge and its Saturday market.

Petra Holm has been the mayor of Velmar since 2019.
""",
    "technical-academy-of-dorn.txt": """The Technical Academy of Dorn is a school of engineering
in the city of Dorn, founded in 1850. Its graduates include the bridge engineer Ilse Brandt.
""",
}


@pytest.fixture(scope="module")
def articles(tmp_path_factory):
    folder = tmp_path_factory.mktemp("articles")
    for name, text in ARTICLES.items():
        (folder / name).write_text(text, encoding="utf-8")
    store = _store(folder)
    yield store
    store.close()


# ---- the roof-threshold question --------------------------------------------------------


def test_clm_1108_threshold_question_resolves_walks_and_answers_with_the_rule_in_force(insurance):
    question = GOLDEN["q11"]["question"]
    messages = drive(insurance, question)
    made = calls(messages)
    text = answer(messages)

    assert ("resolve_entity", {"mention": "CLM-1108"}) in made
    assert any(name == "traverse" and args.get("as_of") == "2026-02-20" for name, args in made)
    assert any(name == "timeline" for name, _ in made)
    assert has_gold(text, GOLDEN["q11"]["gold_keywords"])
    in_force = [line for line in text.splitlines() if line.startswith("On 2026-02-20")]
    assert any("20 years" in line for line in in_force)
    assert "new business" in text and "15 years" in text
    assert not text.startswith("INSUFFICIENT")
    assert 3 <= len(made) <= 12


def test_every_answer_line_ends_with_a_citation_of_a_document_it_read(insurance):
    messages = drive(insurance, GOLDEN["q11"]["question"])
    seen = json.dumps([m.content for m in messages if isinstance(m, ToolMessage)])
    for line in answer(messages).splitlines():
        assert line.endswith("]"), line
        cited = line.rsplit("[", 1)[1].rstrip("]").split(", ")
        assert all(doc in seen for doc in cited)


# ---- what it may call ---------------------------------------------------------------------


def test_search_box_binding_only_searches(insurance):
    messages = drive(insurance, GOLDEN["q05"]["question"], tools=("search_evidence",))
    made = calls(messages)
    assert made and {name for name, _ in made} == {"search_evidence"}
    assert len(made) <= 3
    assert has_gold(answer(messages), GOLDEN["q05"]["gold_keywords"])


def test_a_subset_binding_is_respected(insurance):
    bound = ("resolve_entity", "get_source")
    messages = drive(insurance, GOLDEN["q38"]["question"], tools=bound)
    assert {name for name, _ in calls(messages)} <= set(bound)
    assert ("resolve_entity", {"mention": "CLM-1190"}) in calls(messages)
    assert has_gold(answer(messages), GOLDEN["q38"]["gold_keywords"])


def test_bind_tools_with_unknown_tools_calls_nothing_and_says_so(insurance):
    model = OfflinePlanner().bind_tools([_openai_tool("web_search"), _openai_tool("calculator")])
    reply = model.invoke([HumanMessage("Question: What is the subsidence excess?\nAs of: not given")])
    assert reply.tool_calls == []
    assert reply.content.startswith("INSUFFICIENT")


def test_bind_tools_accepts_langchain_tools_dicts_and_classes():
    class get_source(BaseModel):  # noqa: N801 - named like the tool it describes
        """Read one document."""

        source_id: str

    tool = StructuredTool.from_function(lambda query: query, name="search_evidence",
                                        description="Search.")
    model = OfflinePlanner().bind_tools([tool, {"name": "timeline"}, get_source])
    assert model.tool_names == ("search_evidence", "timeline", "get_source")


def test_unbound_planner_answers_at_once():
    reply = OfflinePlanner().invoke([HumanMessage("Question: Who owns DR-021?")])
    assert reply.tool_calls == [] and reply.content.startswith("INSUFFICIENT")


def test_a_failed_call_is_not_repeated(insurance):
    model = OfflinePlanner().bind_tools([_openai_tool(n) for n in ALL_TOOLS])
    messages: list[BaseMessage] = [HumanMessage("Question: Who owns decision record DR-021?")]
    seen: list[str] = []
    for _ in range(4):
        reply = model.invoke(messages)
        messages.append(reply)
        if not reply.tool_calls:
            break
        for call in reply.tool_calls:
            key = json.dumps([call["name"], call["args"]], sort_keys=True)
            assert key not in seen
            seen.append(key)
            failed = json.dumps({"tool": call["name"], "error": "backend unavailable"})
            messages.append(ToolMessage(content=failed, tool_call_id=call["id"]))
    assert not messages[-1].tool_calls
    assert messages[-1].content.startswith("INSUFFICIENT")


# ---- honesty --------------------------------------------------------------------------------


@pytest.mark.parametrize("qid", ["q30", "q31", "q32", "q34"])
def test_on_topic_but_unanswerable_questions_get_insufficient(insurance, qid):
    row = GOLDEN[qid]
    text = answer(drive(insurance, row["question"], row["as_of"]))
    assert text.startswith("INSUFFICIENT: ")
    found = text.split("\n", 2)[2] if text.count("\n") >= 2 else ""
    assert "[" in found  # what was found is still shown, with citations


def test_a_claim_with_no_payment_recorded_is_not_answered_with_another_claims_payment(insurance):
    text = answer(drive(insurance, GOLDEN["q30"]["question"]))
    assert "11,240" not in text.split("What the sources do say:")[0]


@pytest.mark.parametrize("qid", ["q01", "q04", "q05", "q06", "q37", "q39"])
def test_answerable_questions_are_answered(insurance, qid):
    row = GOLDEN[qid]
    text = answer(drive(insurance, row["question"], row["as_of"]))
    assert not text.startswith("INSUFFICIENT")
    assert has_gold(text, row["gold_keywords"])
    for group in row["gold_keywords"]:  # the line that carries the fact cites its source
        line = next(x for x in text.splitlines() if any(k.lower() in x.lower() for k in group))
        assert line.endswith("]") and "[INS-SYN-" in line


def test_an_open_register_entry_is_presented_with_both_positions(insurance):
    text = answer(drive(insurance, GOLDEN["q28"]["question"]))
    assert "disagree" in text and "CTR-002" in text
    assert "INS-SYN-019" in text and "INS-SYN-003" in text


# ---- time ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("as_of", "expected", "stale"), [
    ("2026-02-20", "20 years", "15 years on new business"),
    ("2026-04-01", "15 years", None),
])
def test_the_question_date_decides_which_rule_answers(insurance, as_of, expected, stale):
    row = GOLDEN["q21"]
    text = answer(drive(insurance, row["question"], as_of))
    first = text.splitlines()[0]
    assert expected in text
    if stale:
        assert stale not in first


def test_library_versions_follow_the_date(library):
    question = "How many times can a loan be renewed?"
    assert "twice" in answer(drive(library, question, "2024-03-01")).splitlines()[0]
    assert "three times" in answer(drive(library, question)).splitlines()[0]


def test_library_contested_topic_shows_both_sides(library):
    text = answer(drive(library, "Do e-books count towards the loan limit?"))
    assert "do not count" in text and "count towards the loan limit" in text
    assert "[board-minutes]" in text


# ---- an unseen-style corpus --------------------------------------------------------------


def test_two_hop_question_follows_the_bridge_article(articles):
    messages = drive(articles, "In which city was the engineer who designed the Velmar Bridge born?")
    text = answer(messages)
    assert "Kessling" in text and "Ilse Brandt" in text
    assert "[ostra-river]" in text
    assert "[kessling]" in text or "[ilse-brandt]" in text
    assert any(args.get("query", "").startswith("Ilse Brandt") for _, args in calls(messages))


def test_search_box_agent_reformulates_with_the_bridge_name(articles):
    question = "In which city was the engineer who designed the Velmar Bridge born?"
    messages = drive(articles, question, tools=("search_evidence",))
    queries = [args["query"] for _, args in calls(messages)]
    assert queries[0] == question and len(queries) == 2
    assert queries[1].startswith("Ilse Brandt")
    assert "Kessling" in answer(messages)


def test_time_dependent_fact_picks_the_holder_for_the_year(articles):
    in_2003 = answer(drive(articles, "Who was the head coach of FC Velmar in 2003?"))
    in_2008 = answer(drive(articles, "Who coached FC Velmar in 2008?"))
    assert in_2003.splitlines()[0].startswith("Tomas Reiner") and "[fc-velmar]" in in_2003
    assert "Anders Lund" in in_2008.splitlines()[0] and "Tomas Reiner" not in in_2008


def test_unseen_on_topic_questions_without_an_answer_are_insufficient(articles):
    for question in (
        "What was Ilse Brandt's annual salary at the Technical Academy of Dorn?",
        "How many spectators attended the 2003 national cup final?",
        "What is the population of Kessling?",
        # a lifespan that spans the year is not an answer about an office
        "Who was mayor of Kessling in 1900?",
    ):
        assert answer(drive(articles, question)).startswith("INSUFFICIENT"), question


def test_contradicting_passages_are_both_shown(articles):
    text = answer(drive(articles, "In what year was Ilse Brandt born?"))
    assert "1871" in text and "1873" in text
    assert "different" in text

def test_a_sentence_that_needs_its_predecessor_is_shown_with_it(articles):
    text = answer(drive(articles, "How long is the Ostra River?"))
    assert "212 kilometres" in text and "Ostra River" in text


# ---- the golden set as a whole ----------------------------------------------------------------


def golden_figures(store, tools=ALL_TOOLS) -> dict:
    """Per category: answers holding every gold keyword group; and INSUFFICIENT counts."""
    figures: dict = {"categories": {}, "refused": 0, "unanswerable": 0, "wrongly_refused": []}
    for qid, row in GOLDEN.items():
        text = answer(drive(store, row["question"], row["as_of"], tools=tools))
        refused = text.startswith("INSUFFICIENT")
        if not row["answerable"]:
            figures["unanswerable"] += 1
            figures["refused"] += refused
            continue
        hit, total = figures["categories"].get(row["category"], (0, 0))
        figures["categories"][row["category"]] = (hit + has_gold(text, row["gold_keywords"]),
                                                  total + 1)
        if refused:
            figures["wrongly_refused"].append(qid)
    return figures


def test_golden_set_floor(insurance):
    """Run with ``-s`` to see the figures; the floor guards against regressions."""
    figures = golden_figures(insurance)
    for category, (hit, total) in figures["categories"].items():
        print(f"{category}: {hit}/{total}")
    print(f"unanswerable -> INSUFFICIENT: {figures['refused']}/{figures['unanswerable']}; "
          f"answerable refused: {figures['wrongly_refused']}")
    hits = sum(h for h, _ in figures["categories"].values())
    assert hits >= 28
    assert figures["categories"]["single-hop"][0] >= 9
    assert figures["refused"] == figures["unanswerable"]
    assert len(figures["wrongly_refused"]) <= 2


# ---- the protocol -----------------------------------------------------------------------------


def test_same_messages_give_the_same_run(insurance):
    first = drive(insurance, GOLDEN["q12"]["question"])
    second = drive(insurance, GOLDEN["q12"]["question"])
    assert [m.content for m in first] == [m.content for m in second]
    assert calls(first) == calls(second)
    ids = [c["id"] for m in first if isinstance(m, AIMessage) for c in m.tool_calls]
    assert ids == [c["id"] for m in second if isinstance(m, AIMessage) for c in m.tool_calls]
    assert ids[0] == "call_0_0" and len(set(ids)) == len(ids)


def test_usage_metadata_counts_what_it_reads_and_writes(insurance):
    messages = drive(insurance, GOLDEN["q05"]["question"])
    replies = [m for m in messages if isinstance(m, AIMessage)]
    inputs = [r.usage_metadata["input_tokens"] for r in replies]
    assert inputs == sorted(inputs) and inputs[-1] > inputs[0]
    last = replies[-1]
    assert last.usage_metadata["output_tokens"] >= len(last.content) // 4
    assert last.usage_metadata["total_tokens"] == inputs[-1] + last.usage_metadata["output_tokens"]


def test_simple_questions_take_few_rounds(insurance):
    for qid in ("q01", "q04", "q39"):
        rounds = sum(1 for m in drive(insurance, GOLDEN[qid]["question"])
                     if isinstance(m, AIMessage) and m.tool_calls)
        assert rounds <= 3


# ---- the small pure functions --------------------------------------------------------------


def test_reading_the_prompt():
    assert parse_prompt("Question: Who?\nAs of: 2025-01-02") == ("Who?", date(2025, 1, 2))
    assert parse_prompt("Question: Who?\nAs of: not given") == ("Who?", None)
    assert parse_prompt("Who owns it?") == ("Who owns it?", None)


def test_question_analysis():
    q = analyse("What was the total amount paid on CLM-1203?")
    assert q.mentions == ("CLM-1203",) and q.asks == "money" and q.exact
    assert analyse("Who coached FC Velmar in 2008?").year == 2008
    assert analyse("When did the H3 zone map update take effect?").asks == "date"
    assert analyse("How long is the Ostra River?").asks == "length"
    assert analyse("Which team maintains the zone map?").head == ("team",)
    assert analyse("Did the rule in force on the date of loss apply?").event == "loss"
    parts = clauses(analyse("Which contractor did the work on CLM-1042, and what did it cost?"))
    assert [p.asks for p in parts] == ["entity", "money"]


def test_lexical_helpers():
    assert [d for _, d in find_dates("loss 20 February 2026, then 2026-03-01")] == [
        date(2026, 2, 20), date(2026, 3, 1)]
    assert capitalised_names("Roofs age. The bridge by Ilse Brandt of Kessling.",
                             skip_initial=True) == ["Ilse Brandt of Kessling"]
    assert has_value("within 12 months", "duration") and has_value("GBP 3,850", "money")
    assert not has_value("founded in 1850", "number")


def test_names_joined_by_an_ampersand_stay_one_name():
    assert capitalised_names("Who led Lenth & Partners when the bridge opened?", skip_initial=True) == [
        "Lenth & Partners"
    ]
    assert "Lenth & Partners" in analyse("Who led Lenth & Partners in 1990?", None).mentions


def test_a_possessive_ends_a_name():
    # "the Trust's Director of Finance" names two things: the Trust, and a role a sentence
    # may name on its own ("Issued by Devraj Kapoor, Director of Finance.")
    assert capitalised_names("Who is the Trust's Director of Finance?", skip_initial=True) == [
        "Trust", "Director of Finance"]
    assert analyse("Who is the Trust's Director of Finance?", None).mentions == (
        "Director of Finance", "Trust")
    assert capitalised_names("Pellam’s cloud servers", skip_initial=False) == ["Pellam"]


def test_a_decimal_stays_inside_its_name():
    # "PM2.5" was read as the name "PM2", which no passage holds ("the sources have no
    # entry named 'PM2'")
    assert analyse("How often are PM2.5 readings averaged?", None).mentions == ("PM2.5",)
    assert capitalised_names("It ends at 2.5. Then Ilse Brandt spoke.") == ["Ilse Brandt"]


@pytest.fixture(scope="module")
def riverbend():
    store = _store(Path(__file__).parents[2] / "bench" / "datasets" / "riverbend" / "corpus")
    yield store
    store.close()


def test_a_relative_question_is_answered_by_the_chain_of_sentences(riverbend):
    text = answer(drive(riverbend, "Who founded the firm where the designer of the Greyhaven Bridge "
                                   "was chief engineer?"))
    assert not text.startswith("INSUFFICIENT") and "Hugo Lenth" in text, text


def test_a_lifespan_around_the_year_does_not_answer_who_held_an_office(riverbend):
    text = answer(drive(riverbend, "Who was mayor of Port Amsel in 1999?"))
    assert text.startswith("INSUFFICIENT"), text


def test_the_holder_on_the_day_asked_is_the_one_whose_span_covers_it(riverbend):
    text = answer(drive(riverbend, "Who directs the Riverbend Institute of Structures?", as_of="2020-06-01"))
    first = text.splitlines()[0]
    assert "Lena Voss" in first and "Marta Kollin" not in first, text


def test_spans_of_years_fit_the_years_inside_them():
    from groundgate.reading.score import span_fit

    assert span_fit(2015, "Samir Okoye, 2011 to 2019") == 1
    assert span_fit(2020, "Lena Voss, since 2019") == 1
    assert span_fit(2020, "she directed it until 2011") == -1
    assert span_fit(2005, "she directed it until 2011") == 1
    assert span_fit(2020, "born in 1952") == 0


def test_spans_of_years_may_name_days_and_months():
    from groundgate.reading.score import span_fit

    # a closed span, not "since 1999"
    assert span_fit(2015, "head coach from 1999 until June 2008, when he left") == -1
    assert span_fit(2004, "head coach from 1999 until June 2008, when he left") == 1
    assert span_fit(2003, "from March 2001 to 4 September 2004") == 1
    assert span_fit(2010, "in office until 31 May 2011") == 1
    assert span_fit(2015, "remained in charge until his retirement in 2016") == 1
    assert span_fit(2017, "remained in charge until his retirement in 2016") == -1


def test_a_role_of_a_named_thing_is_followed_to_the_person_holding_it(store_from_texts):
    # "the founder of Brill Yard" is Osk Varga; the question asks about him, not about any
    # founder, and his article gives his birth only as a lifespan.
    store = store_from_texts({
        "brill-yard.md": """\
            # Brill Yard

            Brill Yard is a boatyard on the west quay of Mereton. It was founded in 1860 by
            the carpenter Osk Varga and still builds wooden fishing boats.
            """,
        "osk-varga.md": """\
            # Osk Varga

            Osk Varga (1822–1894) was a boat carpenter from the Mereton coast. He trained in
            the river yards and settled on the west quay in his thirties.
            """,
        "lidia-sorn.md": """\
            # Lidia Sorn

            Lidia Sorn (1848–1921) was a ship-owner, best known as the founder of the
            Mereton Packet Company, which ran the mail boats.
            """,
    })
    text = answer(drive(store, "In what year was the founder of Brill Yard born?"))
    assert "Osk Varga (1822" in text, text
    assert "1848" not in text, text  # another founder's birth is no answer, nor a disagreement


def test_described_subjects_are_told_from_asked_attributes():
    from groundgate.reading.question import analyse

    assert analyse("In what year was the founder of Corran Yard born?").described
    assert analyse("When did the founder of Lenth & Partners die?").described
    assert not analyse("What is the population of Tessel?").described
    assert not analyse("Who was the first keeper of Tarra Point Lighthouse?").described


@pytest.fixture(scope="module")
def harbour(store_from_texts):
    return store_from_texts({
        "skarv-light.md": """\
            # Skarv Light

            Skarv Light is a 28-metre granite tower on the north cape of Skarv. It was
            designed by the engineer Mira Tolle and first lit on 2 May 1851.
            """,
        "mv-terna.md": """\
            # MV Terna

            MV Terna is a passenger ferry in service with the Skarv Sound Line. She was
            built in 2004 and sails between Skarv and the mainland twice a day.
            """,
        "hale-light.md": """\
            # Hale Light

            Hale Light is a 22-metre stone tower at the mouth of Hale harbour, first lit in
            1866. Its first keeper was Anton Brisk, who tended the lamp for thirty years.
            """,
        "mv-orla.md": """\
            # MV Orla

            MV Orla is a cargo ferry of the Skarv Sound Line. Her gross tonnage is 2,400
            and she carries timber and fuel to the outer islands. She is 64 metres long.
            """,
    })


@pytest.mark.parametrize("question", [
    "Who was the first keeper of Skarv Light?",
    "What is the gross tonnage of the ferry MV Terna?",
    "How deep is Hale harbour?",  # the tower at its mouth is measured, the harbour is not
    "How wide is MV Orla?",  # no width is given; a length would not be one
])
def test_the_topic_without_the_thing_asked_is_insufficient(harbour, question):
    # the lighthouse and the ferry are described, but no keeper and no tonnage are named
    text = answer(drive(harbour, question))
    assert text.startswith("INSUFFICIENT"), text


@pytest.mark.parametrize(("question", "expected"), [
    ("Who was the first keeper of Hale Light?", "Anton Brisk"),
    ("How tall is Skarv Light?", "28-metre"),  # a measure written as an adjective
    ("What is the gross tonnage of the ferry MV Orla?", "2,400"),
])
def test_the_thing_asked_when_it_is_there_is_answered(harbour, question, expected):
    text = answer(drive(harbour, question))
    assert not text.startswith("INSUFFICIENT") and expected in text, text


def test_a_dated_move_fits_the_years_after_it_and_the_closer_the_better():
    from groundgate.reading.score import move_fit

    assert move_fit(2010, "In July 2008 she moved to Varnholm Athletic.") > 0
    assert move_fit(2010, "She left Varnholm Athletic in 2012.") > 0
    assert move_fit(2010, "In 2014 he moved to Varnholm Athletic.") < 0
    assert move_fit(2010, "She joined the club in 2009.") > move_fit(2010, "She joined the club in 2007.")
    assert move_fit(2010, "She was born in 1961.") is None


def test_the_club_of_a_year_is_the_one_moved_to_before_it(store_from_texts):
    store = store_from_texts({
        "tove-lind.md": """\
            # Tove Lind

            Tove Lind is a football coach from Dorne. She was appointed coach of Brill United
            in 2001. In March 2007 she moved to Skarv Athletic, and two years later guided the
            club to the island cup.
            """,
    })
    text = answer(drive(store, "Which club did Tove Lind coach in 2009?"))
    assert "moved to Skarv Athletic" in text and "Brill United in 2001" not in text, text


def test_a_range_of_years_is_asked_about_its_middle():
    from groundgate.reading.question import analyse

    assert analyse("Which club did he coach between 2000 and 2005?").year == 2002
    assert analyse("Which club did she coach from 2009 to 2012?").year == 2010
    asked = analyse("Who was mayor 1999-2004?")
    assert asked.year == 2001 and asked.focus == ("mayor",)


def test_the_club_of_a_range_of_years_is_the_one_that_held_through_it(store_from_texts):
    store = store_from_texts({
        "aron-velt.md": """\
            # Aron Velt

            Aron Velt is a football coach. He coached the club Mere Rovers from 1996 to 1999.
            From 1999 until May 2006 he coached the club Skarv Athletic, then retired.
            """,
    })
    text = answer(drive(store, "Which club did Aron Velt coach between 2001 and 2004?"))
    assert "Skarv Athletic" in text and "Mere Rovers" not in text, text


@pytest.fixture(scope="module")
def mayors(store_from_texts):
    return store_from_texts({
        "brill.md": """\
            # Brill

            Brill is a river town. Oda Rane was mayor from 1990 to 1998, followed by Piet
            Holm, who held the office until 2007.
            """,
        "sara-wick.md": """\
            # Sara Wick

            Sara Wick is a former teacher. She has been mayor of Brill since 2007, when she
            succeeded Piet Holm.
            """,
        "brill-harriers.md": """\
            # Brill Harriers

            Brill Harriers is a rowing club. Its coach Anna Lutz was succeeded by Jon Ek in
            2012.
            """,
    })


@pytest.mark.parametrize(("question", "expected", "not_expected"), [
    ("Who was mayor of Brill immediately before Piet Holm?", "Oda Rane", "Sara Wick"),
    ("Who was mayor of Brill after Piet Holm?", "Sara Wick", "Oda Rane"),
    ("Who succeeded Anna Lutz as coach of Brill Harriers?", "Jon Ek", "Piet Holm"),
])
def test_who_came_before_or_after_is_read_from_the_words_that_say_so(mayors, question, expected,
                                                                      not_expected):
    text = answer(drive(mayors, question))
    assert expected in text and not_expected not in text, text


def test_who_came_before_the_first_one_known_is_insufficient(mayors):
    text = answer(drive(mayors, "Who was mayor of Brill before Oda Rane?"))
    assert text.startswith("INSUFFICIENT"), text


def test_succession_questions_are_told_from_others():
    from groundgate.reading.succession import succession_of

    asked = succession_of("Who succeeded Nadia Ferrant as head coach of Castelbrook Rovers?")
    assert asked and asked.name == "Nadia Ferrant" and not asked.earlier
    assert asked.bodies == ("castelbrook", "rovers")
    assert succession_of("Who coached Castelbrook Rovers before Piet Anholt?").earlier
    assert succession_of("Who founded the club?") is None
    assert succession_of("Who was the first keeper of Tarra Point Lighthouse?") is None

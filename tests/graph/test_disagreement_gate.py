"""Evidence disagreement not in the register, through the whole graph, on a corpus written
here (a city transit agency) so the rules are seen to hold beyond the bundled insurer.

Two sources disagree when they give different values of what the question asks, about
the same thing and the same kind of event, paraphrased or not. A publication date next
to an effective date, two different tickets, a superseded version and a disagreement the
register already holds are not new disagreements.
"""

import pytest
from langchain_core.messages import AIMessage

from groundgate.graph.build import build_agent
from groundgate.knowledge.events import event_kinds
from groundgate.testing.fake import ScriptedChatModel, answer, call

DOCS = {
    "board-notes.md": """\
        ---
        id: TR-001
        title: Transit board notes, 12 March 2025
        kind: meeting_notes
        ---
        # Fare cap

        Priya reported that the weekly fare cap took effect on 3 March 2025.

        # Timetable

        Action: Sam to publish timetable T-9 by 20 May 2025.
        """,
    "ops-email.md": """\
        ---
        id: TR-002
        title: "Email: weekly fare cap now live on ticket machines"
        kind: email
        ---
        # Fare cap live

        From: Operations Desk To: Station staff Date: 20 March 2025 Subject: weekly fare cap now live

        A quick note that the weekly fare cap went live on the ticket machines on 17 March 2025.
        """,
    "timetable.md": """\
        ---
        id: TR-003
        title: Timetable T-9
        kind: timetable
        ---
        # Timetable T-9

        Timetable T-9 comes into force on 1 June 2025 on every bus route.
        """,
    "penalty-v1.md": """\
        ---
        id: TR-004
        title: Penalty fares, version 1
        kind: rule
        version: "1"
        ---
        # Penalty fares

        The penalty fare for travelling without a ticket is EUR 40.
        """,
    "penalty-v2.md": """\
        ---
        id: TR-005
        title: Penalty fares, version 2
        kind: rule
        version: "2"
        supersedes: [TR-004]
        ---
        # Penalty fares

        The penalty fare for travelling without a ticket is EUR 60.
        """,
    "ticket-4411.md": """\
        ---
        id: TR-006
        title: Lost property ticket LP-4411
        kind: log
        ---
        # Outcome

        Lost property ticket LP-4411 was closed on 2 April 2025.
        """,
    "ticket-4412.md": """\
        ---
        id: TR-011
        title: Lost property ticket LP-4412
        kind: log
        ---
        # Outcome

        Lost property ticket LP-4412 was closed on 9 April 2025.
        """,
    "parking-permits.md": """\
        ---
        id: TR-012
        title: Parking permit rules
        kind: rule
        ---
        # Permits

        Effective 1 April 2025, weekly parking permits have a cap on the fare charged.
        """,
    "founder-profile.md": """\
        ---
        id: TR-007
        title: Profile of the agency's founder
        kind: profile
        ---
        # Ada Vance

        Ada Vance was born in 1961 in Leeds and founded the agency in 1990.
        """,
    "founder-obituary.md": """\
        ---
        id: TR-008
        title: Obituary of the agency's founder
        kind: article
        ---
        # Ada Vance

        Ada Vance was born on 4 May 1962 and led the agency for twenty years.
        """,
    "parking-page.md": """\
        ---
        id: TR-009
        title: Park and ride charges
        kind: web_page
        ---
        # Charges

        The park and ride daily charge is EUR 5.
        """,
    "parking-leaflet.md": """\
        ---
        id: TR-010
        title: Park and ride leaflet
        kind: leaflet
        ---
        # Charges

        The park and ride daily charge is EUR 4.
        """,
    "fares-handbook.md": """\
        ---
        id: TR-013
        title: Fares handbook
        kind: handbook
        ---
        # Fare cap

        The fare cap policy is owned by the Fares Team and reviewed each spring.
        """,
    "org-chart.md": """\
        ---
        id: TR-014
        title: Organisation chart notes
        kind: notes
        ---
        # Fare cap

        Owner of the fare cap policy: Revenue Protection Unit.

        # Founding

        The agency was chaired by Ben Ode from its first board meeting.

        Ada Vance founded the agency with a single bus route.
        """,
    "fares-2024.md": """\
        ---
        id: TR-015
        title: Single fares 2024
        kind: rule
        effective_from: 2024-01-01
        effective_to: 2025-01-01
        ---
        # Single fare

        The single fare is EUR 2.
        """,
    "fares-2025.md": """\
        ---
        id: TR-016
        title: Single fares 2025
        kind: rule
        effective_from: 2025-01-01
        ---
        # Single fare

        The single fare is EUR 2.40.
        """,
    "review-notes.md": """\
        ---
        id: TR-017
        title: Fare review notes
        kind: notes
        ---
        # Fare review

        The 2024 fare review took effect on 1 March 2025.
        """,
    "review-email.md": """\
        ---
        id: TR-018
        title: "Email: fare review"
        kind: email
        ---
        # Fare review

        From: Fares Team Date: 3 March 2025 Subject: 2024 fare review now in force
        """,
    "network-page.md": """\
        ---
        id: TR-019
        title: Network facts
        kind: web_page
        ---
        # Routes

        The agency runs 42 bus routes.
        """,
    "network-report.md": """\
        ---
        id: TR-020
        title: Annual network report
        kind: report
        ---
        # Routes

        The agency operates 45 bus routes across the city, with 310 buses.
        """,
    "bridge-history.md": """\
        ---
        id: TR-021
        title: Canal footbridge
        kind: article
        ---
        # Canal footbridge

        The canal footbridge was completed in 1912 for the tram depot.
        """,
    "bridge-plaque.md": """\
        ---
        id: TR-022
        title: Heritage plaques
        kind: list
        ---
        # Canal footbridge

        Plaque 4 says the canal footbridge was finished in 1915.
        """,
    "depot-city.md": """\
        ---
        id: TR-023
        title: Harlow Bay
        kind: article
        ---
        # Harlow Bay

        The town had 8,200 registered bus pass holders last year.
        """,
    "depot-leaflet.md": """\
        ---
        id: TR-024
        title: Harlow Bay leaflet
        kind: leaflet
        ---
        # Passes

        Harlow Bay has 9,100 registered bus pass holders.
        """,
    "depot-managers.md": """\
        ---
        id: TR-025
        title: Depot managers
        kind: list
        ---
        # Omar Reyes

        Omar Reyes managed the north depot from 2009 to 2016.
        """,
    "depot-news.md": """\
        ---
        id: TR-026
        title: Depot news
        kind: newsletter
        ---
        # Kit Adebayo

        Kit Adebayo has managed the north depot since 2016.
        """,
}

KNOWLEDGE = """\
    contradictions:
      - id: CTR-PR
        topic: The park and ride daily charge
        status: resolved
        owner: Fares Team
        opened_at: 2025-01-05
        resolved_at: 2025-02-01
        resolution: The charge is EUR 5; the leaflet was reprinted.
        positions:
          - statement: The park and ride web page gives the daily charge as EUR 5.
            source_ids: [TR-009]
          - statement: The printed leaflet gives the daily charge as EUR 4.
            source_ids: [TR-010]
    """


@pytest.fixture(scope="module")
def transit_store(store_from_texts):
    return store_from_texts(DOCS, KNOWLEDGE)


def _ask(store, question, query, draft):
    search = AIMessage(content="", tool_calls=[call("search_evidence", {"query": query, "top_k": 10})])
    script = [search, answer(draft)]
    return build_agent(store, ScriptedChatModel(script=script)).invoke({"question": question})["answer"]


def _unrecorded(ans):
    return [p for p in ans["contested"] if p["status"] == "unrecorded"]


# (question, search query, draft, the two sources that disagree, values named in the topic)
DISAGREEMENTS = {
    "paraphrased event": (
        "When did the weekly fare cap take effect?", "weekly fare cap",
        "The weekly fare cap took effect on 3 March 2025. [TR-001]",
        {"TR-001", "TR-002"}, ("2025-03-03", "2025-03-17")),
    "year against date": (
        "When was Ada Vance born?", "Ada Vance born", "Ada Vance was born in 1961. [TR-007]",
        {"TR-007", "TR-008"}, ("1961", "1962")),
    "completed and finished": (
        "When was the canal footbridge completed?", "canal footbridge",
        "The canal footbridge was completed in 1912. [TR-021]", {"TR-021", "TR-022"}, ("1912", "1915")),
    "different owners": (
        "Who owns the fare cap policy?", "fare cap policy owner",
        "The fare cap policy is owned by the Fares Team. [TR-013]",
        {"TR-013", "TR-014"}, ("fares team", "revenue protection unit")),
    "different counts": (
        "How many bus routes does the agency run?", "agency bus routes",
        "The agency runs 42 bus routes. [TR-019]", {"TR-019", "TR-020"}, ("42", "45")),
    "subject only in the heading": (
        "How many registered bus pass holders does Harlow Bay have?",
        "Harlow Bay registered bus pass holders",
        "Harlow Bay has 9,100 registered bus pass holders. [TR-024]",
        {"TR-023", "TR-024"}, ("8200", "9100")),
}

# (question, search query, draft): no disagreement to show
NOT_DISAGREEMENTS = {
    "publication date is not an effective date": (
        "When does timetable T-9 come into force?", "timetable T-9",
        "Timetable T-9 comes into force on 1 June 2025. [TR-003]"),
    "two tickets are two facts": (
        "When was lost property ticket LP-4411 closed?", "lost property ticket closed",
        "Lost property ticket LP-4411 was closed on 2 April 2025. [TR-006]"),
    "a superseded version is a change": (
        "How much is the penalty fare for travelling without a ticket?", "penalty fare",
        "The penalty fare for travelling without a ticket is EUR 60. [TR-005]"),
    "values in force at different times are a change": (
        "How much is the single fare?", "single fare", "The single fare is EUR 2.40. [TR-016]"),
    "a year naming the subject is not an answer": (
        "When did the 2024 fare review take effect?", "2024 fare review",
        "The 2024 fare review took effect on 1 March 2025. [TR-017]"),
    "people named for other roles": (
        "Who founded the agency?", "agency founded Ada Vance chaired board",
        "Ada Vance founded the agency in 1990. [TR-007]"),
    "who held a role in a year": (
        "Who managed the north depot in 2012?", "managed north depot",
        "Omar Reyes managed the north depot from 2009 to 2016. [TR-025]"),
    "who holds a role held by others before": (
        "Who manages the north depot?", "managed north depot",
        "Omar Reyes managed the north depot from 2009 to 2016. [TR-025]"),
}


@pytest.mark.parametrize("case", DISAGREEMENTS, ids=str)
def test_sources_that_disagree_are_both_shown_and_neither_chosen(transit_store, case):
    question, query, draft, sources, values = DISAGREEMENTS[case]
    ans = _ask(transit_store, question, query, draft)
    [point] = _unrecorded(ans)
    assert {p["source_ids"][0] for p in point["positions"]} == sources
    assert all(v in point["topic"] for v in values), point["topic"]
    assert "not yet recorded" in ans["text"] and "does not choose" in ans["text"]


@pytest.mark.parametrize("case", NOT_DISAGREEMENTS, ids=str)
def test_answers_without_a_disagreement_are_given_plainly(transit_store, case):
    question, query, draft = NOT_DISAGREEMENTS[case]
    ans = _ask(transit_store, question, query, draft)
    assert not ans["contested"], ans["text"]
    assert ans["answered"]


def test_a_disagreement_the_register_holds_is_not_reported_as_new(transit_store):
    ans = _ask(transit_store, "How much is the park and ride daily charge?", "park and ride daily charge",
               "The park and ride daily charge is EUR 5. [TR-009]")
    assert not _unrecorded(ans), ans["text"]


def test_event_kinds_read_paraphrases_alike():
    assert event_kinds("It took effect on 3 March") == event_kinds("It went live on 17 March") == {"start"}
    assert event_kinds("Sam to publish the timetable by 20 May") == {"publication"}
    assert event_kinds("The fee is EUR 40") == frozenset()


# Short articles without front matter, in the shape of public question sets: the subject is
# named in the first sentence and then called "it" or "she".
ARTICLES = {
    "harwick-ferry-company.md": """\
        # Harwick Ferry Company

        The Harwick Ferry Company runs the crossings on Lake Ossel. It was founded in 1902 by
        Ilse Marten, who started with one steam launch.
        """,
    "ilse-marten.md": """\
        # Ilse Marten

        Ilse Marten (born 1870) was a boat-owner remembered as the founder of the Harwick Ferry
        Company. She was born in Dorne, the daughter of a net maker. After ten years as a pilot
        on the lake, she set up her own company in 1905 with her savings.
        """,
    "harwick.md": """\
        # Harwick

        Harwick is a market town on Lake Ossel. The Harwick Ferry Company was founded here,
        although it later moved its offices to Pelling.
        """,
    "mv-ostra.md": """\
        # MV Ostra

        MV Ostra is a car ferry operated by the Harwick Ferry Company. Launched in 1988 at
        Pelling Yard, she measures 41 metres from bow to stern and carries 200 passengers.
        """,
    "pelling-yard.md": """\
        # Pelling Yard

        Pelling Yard is a boatyard on the east shore of Lake Ossel. It was founded in 1931 by
        the shipwright Aron Pelling. Its best-known build is the 45-metre ferry Ostra,
        delivered to the Harwick Ferry Company in 1988.
        """,
    "dorne-light.md": """\
        # Dorne Light

        Dorne Light is a 19-metre stone tower on the point at Dorne. It was designed and built
        by Walter Brisk and first lit in 1889.
        """,
    "dorne.md": """\
        # Dorne

        Dorne is a fishing village on the north shore of Lake Ossel. On the point above the
        harbour stands Dorne Light, the work of the mason Edda Kroll.
        """,
    "rosa-lind.md": """\
        # Rosa Lind

        Rosa Lind (born 1975) is a ferry manager. She joined the Harwick Ferry Company in 2004
        as a deckhand and became its chief executive on 1 May 2016.
        """,
    "tern-athletic.md": """\
        # Tern Athletic

        Tern Athletic is a football club in Harwick. Its coach in the early years of the
        century was Mads Ekel, a former goalkeeper, who left the club in 2006.
        """,
    "mads-ekel.md": """\
        # Mads Ekel

        Mads Ekel is a football coach. Mads Ekel coached Tern Athletic from 2001 and moved to
        the club Dorne Rovers in 2007, where he won the lake cup twice.
        """,
    "karl-weber.md": """\
        # Karl Weber

        Karl Weber (born 1950) is a retired captain. He joined the Harwick Ferry Company in 1972
        and was appointed chief executive in 1998. He handed the company over to Rosa Lind in 2016.
        """,
}


@pytest.fixture(scope="module")
def article_store(store_from_texts):
    return store_from_texts(ARTICLES)


# (question, search query, draft, one source of each side, values named in the topic)
ARTICLE_DISAGREEMENTS = {
    "founded, and she set up her own company": (
        "In what year was the Harwick Ferry Company founded?", "Harwick Ferry Company founded Ilse Marten",
        "The Harwick Ferry Company was founded in 1902. [harwick-ferry-company]",
        {"harwick-ferry-company", "ilse-marten"}, ("1902", "1905")),
    "a length, and a 45-metre ferry": (
        "How long is the ferry MV Ostra?", "MV Ostra ferry length metres",
        "MV Ostra measures 41 metres. [mv-ostra]", {"mv-ostra", "pelling-yard"}, ("41 m", "45 m")),
    "built by, and the work of": (
        "Who built Dorne Light?", "Dorne Light built", "Dorne Light was built by Walter Brisk. [dorne-light]",
        {"dorne-light", "dorne"}, ("walter brisk", "edda kroll")),
}

ARTICLE_LOOK_ALIKES = {
    "two people's dates are two facts": (
        "On what date was Rosa Lind appointed chief executive of the Harwick Ferry Company?",
        "Rosa Lind chief executive Harwick Ferry Company",
        "Rosa Lind became chief executive on 1 May 2016. [rosa-lind]"),
    "the town a company was founded in is not its founder": (
        "Who founded the Harwick Ferry Company?", "Harwick Ferry Company founded",
        "Ilse Marten founded the Harwick Ferry Company in 1902. [harwick-ferry-company]"),
    "a which-question asks for a thing, not a year": (
        "Which club did Mads Ekel coach in 2008?", "Mads Ekel coach club",
        "Mads Ekel moved to Dorne Rovers in 2007. [mads-ekel]"),
    "every dated sentence names him; none says when he left": (
        "When did Mads Ekel leave?", "Mads Ekel",
        "Mads Ekel coached Tern Athletic from 2001. [mads-ekel]"),
    "a where-question asks for a place": (
        "Where did Mads Ekel coach in 2005?", "Mads Ekel coach",
        "Mads Ekel coached Tern Athletic from 2001. [mads-ekel]"),
    "a what-did question asks for a deed": (
        "What did Mads Ekel do in 2007?", "Mads Ekel",
        "Mads Ekel moved to the club Dorne Rovers in 2007. [mads-ekel]"),
    "a comparison names two subjects": (
        "Which is older, Pelling Yard or the Harwick Ferry Company?",
        "Pelling Yard Harwick Ferry Company founded",
        "The Harwick Ferry Company was founded in 1902. [harwick-ferry-company] "
        "Pelling Yard was founded in 1931. [pelling-yard]"),
}


@pytest.mark.parametrize("case", ARTICLE_DISAGREEMENTS, ids=str)
def test_articles_that_disagree_through_pronouns_and_paraphrase_are_both_shown(article_store, case):
    question, query, draft, sources, values = ARTICLE_DISAGREEMENTS[case]
    ans = _ask(article_store, question, query, draft)
    points = [p for p in _unrecorded(ans)
              if {s for pos in p["positions"] for s in pos["source_ids"]} == sources]
    assert points, ans["text"]
    assert all(v in points[0]["topic"] for v in values), points[0]["topic"]
    assert "does not choose" in ans["text"]


@pytest.mark.parametrize("case", ARTICLE_LOOK_ALIKES, ids=str)
def test_articles_that_only_look_alike_are_answered_plainly(article_store, case):
    question, query, draft = ARTICLE_LOOK_ALIKES[case]
    ans = _ask(article_store, question, query, draft)
    assert not ans["contested"], ans["text"]
    assert ans["answered"]

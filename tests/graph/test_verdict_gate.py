"""The gate on yes/no questions: a verdict that rests on a contested point is presented as
contested even when the question shares few words with the register entry, while fact
questions over the same passages, and verdicts on other points, are answered normally.

The corpus is written here (an IT department, nothing to do with the bundled insurer) so
the rule is seen to hold on documents it was not tuned on.
"""

import pytest
from langchain_core.messages import AIMessage

from groundgate.graph.build import build_agent
from groundgate.policies.invariants import asks_for_verdict
from groundgate.testing.fake import ScriptedChatModel, answer, call

DOCS = {
    "security-policy.md": """\
        ---
        id: IT-001
        title: Remote Access Security Policy
        kind: policy
        entities: [concept:vpn-access]
        ---
        # Contractors

        Contractor laptops may be given VPN access only after a security review is signed off
        by the security team.
        """,
    "onboarding-runbook.md": """\
        ---
        id: IT-002
        title: Onboarding Runbook
        kind: runbook
        entities: [concept:vpn-access]
        ---
        # Day one

        Contractors receive VPN access automatically on their first day, with no review beforehand.
        """,
    "ticket-311.md": """\
        ---
        id: IT-003
        title: Ticket TKT-311, contractor onboarding
        kind: ticket
        entities: [ticket:TKT-311, concept:vpn-access]
        ---
        # Access

        For ticket TKT-311 the service desk set up VPN access for the contractor on day one
        under the Onboarding Runbook; no security review is on file.

        # Equipment

        The contractor laptop for ticket TKT-311 was a ThinkPad T14, returned on 12 March 2026
        within the 30-day loan window.
        """,
}

KNOWLEDGE = """\
    entities:
      - id: concept:vpn-access
        kind: concept
        name: VPN access
        aliases: [remote access]
      - id: ticket:TKT-311
        kind: ticket
        name: Ticket TKT-311
        aliases: [TKT-311]
    contradictions:
      - id: CTR-VPN
        topic: Whether contractors get VPN access automatically without a security review
        entity_ids: [concept:vpn-access, ticket:TKT-311]
        status: open
        owner: IT Risk Board
        opened_at: 2026-01-10
        positions:
          - statement: >-
              The Onboarding Runbook gives contractors VPN access automatically on day one with no review.
            source_ids: [IT-002]
          - statement: >-
              The Remote Access Security Policy allows contractor VPN access only after a signed-off
              security review.
            source_ids: [IT-001]
    """


@pytest.fixture(scope="module")
def it_store(store_from_texts):
    return store_from_texts(DOCS, KNOWLEDGE)


def _ask(store, question, draft, query="TKT-311 contractor VPN access"):
    script = [AIMessage(content="", tool_calls=[call("search_evidence", {"query": query})]), answer(draft)]
    return build_agent(store, ScriptedChatModel(script=script)).invoke({"question": question})["answer"]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Was the payment made in line with the policy terms?", True),
        ("On ticket TKT-311, was the laptop returned in time?", True),
        ("Could you tell me whether e-books count?", True),
        ("Which contractor carried out the work?", False),
        # the clause after the comma opens with "and", not an auxiliary
        ("When was the laptop returned, and is it damaged?", False),
        ("What is the loan window?", False),
    ],
)
def test_yes_no_questions_are_recognised(question, expected):
    assert asks_for_verdict(question) is expected


def test_a_verdict_resting_on_the_contested_point_presents_both_positions(it_store):
    ans = _ask(
        it_store,
        "Was the contractor's access on TKT-311 set up properly under the security policy?",
        "No: for ticket TKT-311 the service desk set up VPN access on day one under the "
        "Onboarding Runbook, and the access was not set up properly under the security policy. [IT-003]",
    )
    assert [p["contradiction_id"] for p in ans["contested"]] == ["CTR-VPN"], ans["text"]
    sources = {tuple(p["source_ids"]) for p in ans["contested"][0]["positions"]}
    assert sources == {("IT-002",), ("IT-001",)}
    assert "IT Risk Board" in ans["text"] and "does not choose" in ans["text"]
    # the draft's own verdict is withheld, whatever it said
    assert not [c for c in ans["claims"] if c["status"] != "removed" and "properly" in c["text"]]


def test_a_fact_question_over_the_same_passage_is_answered(it_store):
    ans = _ask(
        it_store,
        "On which day did the service desk set up VPN access for ticket TKT-311?",
        "For ticket TKT-311 the service desk set up VPN access for the contractor on day one. [IT-003]",
    )
    assert not ans["contested"], ans["text"]
    assert ans["answered"] and "day one" in ans["text"]


def test_a_verdict_on_another_point_of_a_contested_ticket_is_answered(it_store):
    ans = _ask(
        it_store,
        "On ticket TKT-311, was the contractor laptop returned within the loan window?",
        "Yes, the contractor laptop for ticket TKT-311 was returned on 12 March 2026 within the 30-day "
        "loan window. [IT-003]",
        query="TKT-311 laptop returned loan window",
    )
    assert not ans["contested"], ans["text"]
    assert "12 March 2026" in ans["text"]

"""Shapes of text the reader meets in folders nobody wrote for it: tables, FAQs, yes/no."""

from groundgate.reading.evidence import split_sections
from groundgate.reading.polarity import negated
from groundgate.reading.question import analyse
from groundgate.reading.rows import row_cells, unbound_row
from groundgate.reading.score import typed


def test_a_table_row_is_one_statement_that_keeps_its_column_names():
    text = "## Offices\n\n| Office | Spaces |\n| --- | ---: |\n| Mill Street | 40 |\n| Harbour Road | 65 |\n"
    rows = [s for _, _, s in split_sections(text)]
    assert rows == ["Office: Mill Street; Spaces: 40.", "Office: Harbour Road; Spaces: 65."]


def test_a_table_folded_onto_one_line_is_read_row_by_row():
    text = "| Role | Notice | | --- | --- | | Colleagues | one month | | Directors | three months |"
    assert [s for _, _, s in split_sections(text)] == [
        "Role: Colleagues; Notice: one month.", "Role: Directors; Notice: three months."
    ]


def test_a_faq_question_is_not_an_answer_but_leads_the_sentence_that_is():
    parts = split_sections("Q: Can I take leave during probation?\nA: Yes, with your manager's agreement.")
    assert parts == [("", "Q: Can I take leave during probation?", "A: Yes, with your manager's agreement.")]


def test_a_short_title_in_the_text_leads_the_sentence_that_does_not_name_its_subject():
    minutes = ("25/034 Parking permits. RESOLVED that the permits rise from April.\n\n"
               "25/035 Annual Parish Meeting. To be held on Monday 28 April 2025 at 7pm.")
    parts = split_sections(minutes)
    assert ("", "25/035 Annual Parish Meeting.", "To be held on Monday 28 April 2025 at 7pm.") in parts
    # a sentence that says something is no title, and leads nothing
    prose = split_sections("Weekend tickets cost £89. Day tickets are sold at the gate.")
    assert [lead for _, lead, _ in prose] == ["", ""]


def test_polarity_reads_denials_not_limits():
    assert negated("Alcohol is not reimbursed.") and negated("Pool cars can't be taken home.")
    assert not negated("Parking fines are paid by the driver.")
    # two denials joined deny twice; they do not cancel
    assert negated("The van has no tow bar and cannot pull a trailer.")
    assert not negated("Receipts are due no later than 30 days after travel.")  # a limit


def test_a_day_of_a_month_is_a_date_even_without_its_year():
    by = analyse("By what date must carried-over annual leave be used?", None)
    assert typed(by, "Carried-over days must be taken by 31 May.")
    assert not typed(by, "You may carry up to five days into the next leave year.")


def test_a_row_states_its_value_only_for_its_own_case_and_column():
    row = "Office: Mill Street (head office); Town: Fellmoor; Staff parking spaces: 40."
    staff = analyse("How many staff parking spaces does the Mill Street head office have?", None)
    assert unbound_row(staff, row) is None
    visitor = analyse("How many visitor parking spaces does the Mill Street head office have?", None)
    visitors = unbound_row(visitor, row)
    assert visitors and "staff parking spaces" in visitors
    # a column that only says more of the asked case is the asked column
    hall = "Space: Committee Room; Kelsham residents and local groups: £9; Other hirers: £13."
    assert unbound_row(analyse("What is the hourly rate for residents hiring the Committee Room?", None),
                       hall) is None
    release = "Version: 3.4; Released: 15 January 2024; Changes: Room groups; weekly summary email."
    assert unbound_row(analyse("When was version 3.4 of the app released?", None), release) is None
    assert unbound_row(analyse("When was version 3.3 of the app released?", None), release)
    # a row whose first cell carries conditions the question leaves open still answers it
    mileage = "Vehicle: Car or van, first 10,000 business miles in the tax year; Rate: 45p per mile."
    assert unbound_row(analyse("What mileage rate is paid for a car?", None), mileage) is None
    # a question that reaches the row through another hop does not name its case
    assert unbound_row(analyse("What rate is paid for the vehicle that the scheme helps you buy?", None),
                       "Vehicle: Car or van; Rate: 45p per mile.") is None


def test_a_row_of_a_table_with_an_unnamed_first_column_is_read_by_its_case():
    # the reader writes such a row "case — column: value; ..." (reading/evidence.py)
    row = "Mooring, boat under 8 m — Member: No charge; Non-member: £210."
    assert row_cells(row) == [("", "Mooring, boat under 8 m"), ("Member", "No charge"),
                              ("Non-member", "£210")]
    # "under 8" is the row's own case, and "not a member" asks for the non-member column
    question = analyse("What does mooring a boat under 8 m cost for someone who is not a member?")
    assert unbound_row(question, row) is None
    # and £210 is not what a member pays
    member = unbound_row(analyse("What does mooring a boat under 8 m cost for a member?"), row)
    assert member and "non-member" in member


def test_an_email_header_is_not_a_table_row():
    assert row_cells("From: Tom Lindqvist To: Underwriting; Broker Distribution Date: 18 February 2026") == []
    release = "Version: 3.4; Released: 15 January 2024; Changes: Room groups; weekly summary email."
    assert row_cells(release) == [
        ("Version", "3.4"), ("Released", "15 January 2024"), ("Changes", "Room groups; weekly summary email")]


def test_a_documents_own_date_line_opens_no_sentence():
    # A wire story's first line is its date line; unwrapped into the first sentence it made
    # "COASTLINE WIRE | 14 Jan 2025 | 11:02 BRACKHAVEN — ..." an answer about the wire.
    from groundgate.reading.evidence import collect
    from groundgate.reading.transcript import Step, Transcript

    story = ("COASTLINE WIRE | 14 Jan 2025 | 11:02\nBRACKHAVEN — The ferry company has appointed "
             "Tomasz Wierzbicki as chief executive from 3 March 2025.\nHe succeeds Ruth Penhallow.")
    question = "Who is the new chief executive of the ferry company?"
    opening = {"id": "ferry-chief#0", "kind": "passage", "title": "New chief", "text": story,
               "sources": ["ferry-chief"], "score": 1.0}
    later = {**opening, "id": "ferry-chief#1"}  # a passage further in: its first line is kept
    texts = [s.text for s in collect(Transcript(analyse(question), (
        Step("search_evidence", {"query": question}, 0, {"results": [opening]}),), 1))]
    assert texts[0].startswith("BRACKHAVEN — The ferry company has appointed")
    assert not any("COASTLINE WIRE" in t for t in texts)
    kept = [s.text for s in collect(Transcript(analyse(question), (
        Step("search_evidence", {"query": question}, 0, {"results": [later]}),), 1))]
    assert kept[0].startswith("COASTLINE WIRE")

"""Shapes of text the reader meets in folders nobody wrote for it: tables, FAQs, yes/no."""

from groundgate.reading.evidence import split_sections
from groundgate.reading.polarity import negated
from groundgate.reading.question import analyse
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


def test_polarity_counts_negations():
    assert negated("Alcohol is not reimbursed.") and negated("Pool cars can't be taken home.")
    assert not negated("Parking fines are paid by the driver.")
    assert not negated("It is not true that it is never allowed.")  # two negations


def test_a_day_of_a_month_is_a_date_even_without_its_year():
    by = analyse("By what date must carried-over annual leave be used?", None)
    assert typed(by, "Carried-over days must be taken by 31 May.")
    assert not typed(by, "You may carry up to five days into the next leave year.")

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


def test_how_much_asks_for_a_quantity_and_which_month_for_a_month():
    weigh = analyse("How much does the monitor weigh?", None)
    assert typed(weigh, "It weighs 180 g.")
    paid = analyse("How much is paid, in pounds, for a call-out?", None)
    assert not typed(paid, "A call-out lasts at least two hours.")
    month = analyse("In which month can colleagues apply?", None)
    assert typed(month, "Applications open in March only.")


"""What the lexical detector reads as a value: a table's rows, even when a snippet joined
them onto one line, and a count written in words.

A search result's snippet runs a Markdown table onto one line (``| Record | Kept for | |
--- | --- | | Payroll records | 7 years | ...``). Read that way, no row was a value
statement, so a retention period given in a table was never compared with one given in
prose, and a disagreement between them could not be seen.
"""

from groundgate.knowledge.model import Validity
from groundgate.policies.stated import count_statements, statements
from groundgate.tools.envelope import Envelope, ResultItem

JOINED = (
    "How long each kind of record is kept.\n"
    "| Record | Kept for | | --- | --- | | Payroll records | 7 years after the tax year | "
    "| Visitor logs | 18 months | | Door-entry records | 40 days |\n"
    "Records under a legal hold are kept until it ends."
)


def _found(snippet: str) -> dict[str, tuple[str, tuple[str, ...]]]:
    env = Envelope(tool="search_evidence", results=(
        ResultItem(id="retention#1", title="Retention schedule", kind="chunk", snippet=snippet,
                   source_ids=("retention",)),
    ))
    return {s.sentence: (s.unit, s.values) for s, _title, _lead in statements([env])}


def test_each_row_of_a_joined_table_is_a_value_statement():
    found = _found(JOINED)
    assert found["| Visitor logs | 18 months |"] == ("months", ("18",))
    assert found["| Door-entry records | 40 days |"] == ("days", ("40",))
    assert found["| Payroll records | 7 years after the tax year |"] == ("years", ("7",))


def test_a_table_on_its_own_lines_reads_the_same():
    apart = JOINED.replace(" | | ", " |\n| ")
    assert _found(apart) == _found(JOINED)


def test_a_count_written_in_words_is_a_count():
    def counts(text: str) -> list[tuple[str, ...]]:
        return [s.values for s in count_statements("faq", text, Validity())]

    assert counts("A collection can take up to six items in all.") == [("6",)]
    assert counts("The market has twenty-five stalls.") == [("25",)]
    assert counts("It reopened with fourteen of its eighteen beds.") == [("14", "18")]
    # a duration is not a count, and "one" is mostly a pronoun
    assert counts("Repairs take three weeks.") == []
    assert counts("No one may park on the verge.") == []

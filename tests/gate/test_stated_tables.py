"""The lexical detector reads a table's rows as the reader does, even when a snippet joined them.

A search result's snippet runs a Markdown table onto one line (``| Record | Kept for | |
--- | --- | | Payroll records | 7 years | ...``). Read that way, no row was a value
statement, so a retention period given in a table was never compared with one given in
prose, and a disagreement between them could not be seen.
"""

from groundgate.policies.stated import statements
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

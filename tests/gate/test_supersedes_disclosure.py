"""End to end through `groundgate ask`: an answer citing a superseded source says so, and by what.

A document that declares `supersedes:` another ends the other's validity where it begins,
so one file can retire another. The answer must not let that happen silently.
"""

import json
import textwrap

import pytest
from typer.testing import CliRunner

from groundgate.cli import app

runner = CliRunner()
pytestmark = pytest.mark.usefixtures("isolated_env")

FILES = {
    "leave-2025.md": """\
        ---
        id: HR-LEAVE-2025
        title: Annual Leave Policy 2025
        kind: policy
        effective_from: 2025-01-01
        ---
        # Annual leave

        Full-time employees get 25 days of annual leave each year, plus public holidays.
        """,
    "leave-2026.md": """\
        ---
        id: HR-LEAVE-2026
        title: Annual Leave Policy 2026
        kind: policy
        effective_from: 2026-01-01
        supersedes: HR-LEAVE-2025
        ---
        # Annual leave

        Full-time employees get 28 days of annual leave each year, plus public holidays.
        """,
    "memo.md": """\
        ---
        id: MEMO-7
        title: Office memo on leave
        kind: memo
        effective_from: 2026-03-01
        supersedes: HR-LEAVE-2026
        ---
        # Leave

        Leave requests now go through the team calendar.
        """,
}
QUESTION = "How many days of annual leave do full-time employees get?"


@pytest.fixture
def store(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name, text in FILES.items():
        (corpus / name).write_text(textwrap.dedent(text))
    path = tmp_path / "hr.sqlite"
    result = runner.invoke(app, ["ingest", str(corpus), "--store", str(path)])
    assert result.exit_code == 0, result.output
    return path


def _ask(store, *extra):
    result = runner.invoke(app, ["ask", QUESTION, "--store", str(store), *extra])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("as_of", ["2025-06-01", "2026-06-01"])
def test_an_answer_citing_a_superseded_policy_names_what_superseded_it(store, as_of):
    data = json.loads(_ask(store, "--as-of", as_of, "--json"))
    successor = {"HR-LEAVE-2025": "HR-LEAVE-2026", "HR-LEAVE-2026": "MEMO-7"}
    cited = [c for c in data["citations"] if c["source_id"] in successor]
    assert cited, data["answer"]
    for citation in cited:
        old, new = citation["source_id"], successor[citation["source_id"]]
        assert citation["superseded_by"] == [new]
        assert f"Superseded: {old} (" in data["answer"] and f"superseded by {new} (" in data["answer"]


def test_the_terminal_answer_says_it_and_marks_the_source(store):
    out = _ask(store, "--as-of", "2025-06-01")
    assert "25 days" in out
    assert ("Superseded: HR-LEAVE-2025 (Annual Leave Policy 2025) is declared superseded by "
            "HR-LEAVE-2026 (Annual Leave Policy 2026), in force from 2026-01-01.") in out
    assert "HR-LEAVE-2025  Annual Leave Policy 2025  (superseded by HR-LEAVE-2026)" in out


def test_a_source_nothing_supersedes_carries_no_such_note(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "leave-2025.md").write_text(textwrap.dedent(FILES["leave-2025.md"]))
    path = tmp_path / "one.sqlite"
    assert runner.invoke(app, ["ingest", str(corpus), "--store", str(path)]).exit_code == 0
    data = json.loads(_ask(path, "--as-of", "2025-06-01", "--json"))
    assert "25 days" in data["answer"] and "Superseded" not in data["answer"]
    assert all(c["superseded_by"] == [] for c in data["citations"])

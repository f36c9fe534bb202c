"""What the CLI prints is the text itself: brackets in answers, titles, arguments and hints survive."""

import json
import sys

import pytest
from typer.testing import CliRunner

from groundgate.cli import app

runner = CliRunner()

LEAVE = """---
id: annual-leave
title: Leave policy [/x] for staff
kind: policy
---
# Annual leave

Staff get 25 days of annual leave per year.
"""
QUESTION = "How many days of annual leave do staff get?"


pytestmark = pytest.mark.usefixtures("isolated_env")


@pytest.fixture
def leave_folder(tmp_path):
    folder = tmp_path / "lib[" / "x]"  # the folder's path contains "[/x]"
    (folder / "docs").mkdir(parents=True)
    (folder / "docs" / "leave.md").write_text(LEAVE)
    return folder


@pytest.fixture
def leave_store(leave_folder, tmp_path):
    from groundgate.knowledge.embedded.store import SQLiteStore
    from groundgate.knowledge.ingest.pipeline import ingest

    path = tmp_path / "leave.sqlite"
    store = SQLiteStore.from_path(path)
    store.setup()
    ingest(store, leave_folder)
    store.close()
    return path


def test_ingest_prints_a_folder_path_with_brackets(leave_folder, tmp_path):
    store = tmp_path / "other.sqlite"
    result = runner.invoke(app, ["ingest", str(leave_folder), "--store", str(store)])
    assert result.exit_code == 0, result.output
    assert f"ingested {leave_folder} into {store}" in result.output


def test_a_lowercase_citation_and_a_title_with_a_closing_tag_print_as_they_are(leave_store):
    result = runner.invoke(app, ["ask", QUESTION, "--store", str(leave_store)])
    assert result.exit_code == 0, result.output
    assert "Staff get 25 days of annual leave per year. [annual-leave]" in result.output
    assert "  annual-leave  Leave policy [/x] for staff" in result.output


def test_show_trace_prints_arguments_with_markup_characters_as_text(leave_store):
    question = "How many days of [/x] annual leave do [bold]staff[/bold] get?"
    result = runner.invoke(app, ["ask", question, "--store", str(leave_store), "--mode", "agent",
                                 "--show-trace"])
    assert result.exit_code == 0, result.output
    assert "[/x]" in result.output and "[bold]staff[/bold]" in result.output


def test_a_tool_error_with_a_closing_tag_prints_in_the_trace(leave_store, capsys):
    saved = runner.invoke(app, ["ask", QUESTION, "--store", str(leave_store), "--mode", "agent", "--json"])
    run = json.loads(saved.output)
    step = next(s for s in run["trace"]["steps"] if s["kind"] == "tool")
    step["error"] = "get_source failed: no source [/x] [annual-leave]"

    from groundgate.cli.terminal import print_answer

    print_answer(run, show_trace=True)
    printed = capsys.readouterr().out
    assert "[/x]" in printed and "[annual-leave]" in printed


def test_an_install_hint_keeps_its_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)  # Pillow is not installed
    result = runner.invoke(app, ["graph", "--format", "png", "--output", "agent.png"])
    assert result.exit_code == 2
    assert "pip install 'groundgate[draw]'" in result.output

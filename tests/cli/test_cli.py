import json
import re

import pytest
from typer.testing import CliRunner

from groundgate.cli import app

runner = CliRunner()


pytestmark = pytest.mark.usefixtures("isolated_env")


def test_search_prints_scored_lines_best_first_on_the_bundled_corpus():
    result = runner.invoke(app, ["search", "roof inspection threshold", "--top-k", "3"])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 3
    scores = [float(re.match(r"\[(\d\.\d\d)\] .+ \(\w+\) \S+$", line).group(1)) for line in lines]
    assert scores[0] == 1.0 and scores == sorted(scores, reverse=True)


def test_search_says_when_nothing_matched():
    result = runner.invoke(app, ["search", "zeppelin marmalade quasar"])
    assert result.exit_code == 0
    assert result.output.strip() == "No articles matched."


def test_search_json_and_as_of():
    result = runner.invoke(app, ["search", "roof inspection", "--as-of", "2025-07-01", "--json"])
    hits = json.loads(result.output)
    assert hits and all(h["doc_id"] != "INS-SYN-008" for h in hits)  # UW-7 v2 starts 2026-03-01


def test_ingest_of_a_folder_with_a_broken_file_names_it_and_leaves_the_store_as_it_was(tmp_path, mini_corpus):
    store = tmp_path / "s.sqlite"
    assert runner.invoke(app, ["ingest", str(mini_corpus), "--store", str(store)]).exit_code == 0
    before = store.read_bytes()
    (mini_corpus / "docs" / "broken.md").write_text("---\nid: X-1\neffective_from: next tuesday\n---\nbody\n")
    result = runner.invoke(app, ["ingest", str(mini_corpus), "--store", str(store)])
    assert result.exit_code == 2
    assert "broken.md:3" in result.output and "bad date" in result.output
    assert "Traceback" not in result.output
    assert store.read_bytes() == before


def test_ingest_summary_counts(tmp_path, mini_corpus):
    result = runner.invoke(app, ["ingest", str(mini_corpus), "--store", str(tmp_path / "s.sqlite")])
    assert "documents      5 (5 written, 0 unchanged)" in result.output
    again = runner.invoke(app, ["ingest", str(mini_corpus), "--store", str(tmp_path / "s.sqlite")])
    assert "documents      5 (0 written, 5 unchanged)" in again.output


def test_ask_with_a_model_endpoint_where_nothing_listens_answers_from_the_tools_and_says_the_model_failed():
    result = runner.invoke(app, ["ask", "What is the subsidence excess?", "--mode", "agent",
                                 "--model", "compatible:http://127.0.0.1:9/v1#m"])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert "failed" in result.output and "1,000" in result.output  # what the first round found is kept


def test_ask_rejects_an_unknown_mode_and_bad_dates():
    assert runner.invoke(app, ["ask", "late fee", "--mode", "wizard"]).exit_code == 2
    assert "YYYY-MM-DD" in runner.invoke(app, ["ask", "late fee", "--as-of", "soon"]).output


def test_an_error_naming_an_extra_keeps_its_brackets(tmp_path):
    result = runner.invoke(app, ["ingest", "--embedder", "bogus[x]", "--store", str(tmp_path / "s.sqlite")])
    assert result.exit_code == 2
    assert "unknown embedder 'bogus[x]'" in result.output, "rich markup would eat [x]"

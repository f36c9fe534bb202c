"""Issue 16, Ingest: the store file and the CLI around an ingest.

A failed ingest leaves the store file as it was (absent stays absent), an empty store
says so, and the files ingest did not read are named.
"""

import os

import pytest
from typer.testing import CliRunner

from groundgate.cli import app
from groundgate.errors import StoreError
from groundgate.knowledge.default import ingest_to_path, open_store
from groundgate.knowledge.embedded.store import SQLiteStore
from groundgate.testing.files import write_files as write

runner = CliRunner()

DOC = "---\nid: A-1\ntitle: A\n{front}---\n# A\n\nBody text.\n"


def test_skipped_files_are_named_in_the_report_and_by_the_cli(tmp_path):
    corpus = write(tmp_path / "corpus", {"a.md": DOC.format(front=""), "img/logo.png": b"\x89PNG",
                                         "notes.docx": b"PK"})
    report = ingest_to_path(tmp_path / "s.sqlite", corpus)
    assert report.skipped == ("img/logo.png", "notes.docx")
    result = runner.invoke(app, ["ingest", str(corpus), "--store", str(tmp_path / "s.sqlite")])
    assert result.exit_code == 0, result.output
    assert "img/logo.png" in result.output and "notes.docx" in result.output


@pytest.mark.parametrize("problem", ["broken-file", "missing-folder"])
def test_a_failed_ingest_creates_no_store_file(tmp_path, problem):
    corpus = tmp_path / "corpus"
    if problem == "broken-file":
        write(corpus, {"a.md": DOC.format(front="effective_from: someday\n")})
    store = tmp_path / "new" / "store.sqlite"
    result = runner.invoke(app, ["ingest", str(corpus), "--store", str(store)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert not store.exists() and not store.parent.exists()
    assert os.listdir(tmp_path) == (["corpus"] if problem == "broken-file" else [])


def test_ask_on_an_empty_store_says_the_store_is_empty(tmp_path, monkeypatch):
    monkeypatch.setenv("GROUNDGATE_CACHE", str(tmp_path / "cache"))
    store = tmp_path / "empty.sqlite"
    SQLiteStore.from_path(store).setup()
    with pytest.raises(StoreError):
        open_store(store, cache_dir=tmp_path / "cache")
    result = runner.invoke(app, ["ask", "What is the loan period?", "--store", str(store)])
    assert result.exit_code == 2
    assert "is empty" in result.output and "groundgate ingest" in result.output
    assert "do not answer" not in result.output


def test_a_failed_ingest_leaves_an_existing_file_without_tables_as_it_was(tmp_path):
    corpus = write(tmp_path / "corpus", {"a.md": DOC.format(front="effective_from: someday\n")})
    store = tmp_path / "store.sqlite"
    store.touch()  # what a failed ingest of an earlier version left behind
    result = runner.invoke(app, ["ingest", str(corpus), "--store", str(store)])
    assert result.exit_code == 2
    assert store.read_bytes() == b""
    write(corpus, {"a.md": DOC.format(front="")})
    assert runner.invoke(app, ["ingest", str(corpus), "--store", str(store)]).exit_code == 0
    assert SQLiteStore.from_path(store, read_only=True).get_document("A-1") is not None

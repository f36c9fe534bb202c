"""``groundgate ingest --batch-documents N``: the library's batch size, from the command line."""

import pytest
from typer.testing import CliRunner

from groundgate.cli import app
from groundgate.knowledge.default import bundled_corpus
from groundgate.knowledge.embedded.store import SQLiteStore
from groundgate.knowledge.ingest.parts import PART_DOCUMENTS

runner = CliRunner()


@pytest.fixture
def part_sizes(monkeypatch):
    """The number of documents in every part the SQLite store is given to write."""
    sizes: list[int] = []
    apply_parts = SQLiteStore.apply_parts

    def noted(self, parts, *, now):  # type: ignore[no-untyped-def]
        def each():
            for part in parts:
                sizes.append(len(part.documents))
                yield part

        return apply_parts(self, each(), now=now)

    monkeypatch.setattr(SQLiteStore, "apply_parts", noted)
    return sizes


def _ingest(store, *flags: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, ["ingest", str(bundled_corpus()), "--store", str(store), *flags])


def test_the_store_is_written_in_batches_of_the_size_given(tmp_path, part_sizes):
    result = _ingest(tmp_path / "store.sqlite", "--batch-documents", "3")
    assert result.exit_code == 0, result.output
    documents = sum(part_sizes)
    assert documents > 3 * 3 and max(part_sizes) == 3
    assert f"documents      {documents}" in result.output


def test_without_the_flag_the_library_default_applies(tmp_path, part_sizes):
    result = _ingest(tmp_path / "store.sqlite")
    assert result.exit_code == 0, result.output
    assert max(part_sizes) == min(PART_DOCUMENTS, sum(part_sizes))
    help_text = runner.invoke(app, ["ingest", "--help"]).output
    assert "--batch-documents" in help_text and str(PART_DOCUMENTS) in help_text


@pytest.mark.parametrize("size", ["0", "-5", "many"])
def test_a_batch_size_below_one_is_a_usage_error_and_writes_nothing(tmp_path, size):
    result = _ingest(tmp_path / "store.sqlite", "--batch-documents", size)
    assert result.exit_code == 2
    assert "--batch-documents" in result.output and "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []

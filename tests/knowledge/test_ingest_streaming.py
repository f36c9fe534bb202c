"""Ingest reads the documents twice and writes them in parts inside one transaction.

Pass 1 validates everything and writes nothing; pass 2 reads the documents again in
groups of ``PART_DOCUMENTS`` that the SQLite store writes as they come (see
``knowledge/ingest/plan.py``). These tests pin what that must not change: the store is
the one a single batch gives, and a file that changes between the passes is an error
that leaves the store as it was.
"""

from datetime import UTC, datetime

import pytest
from store_rows import table_rows

from groundgate.errors import CorpusError
from groundgate.knowledge.default import ingest_to_path
from groundgate.knowledge.embedded.store import SQLiteStore
from groundgate.knowledge.ingest import parts, pipeline
from groundgate.knowledge.ingest.pipeline import build_batch, ingest
from groundgate.testing.conformance import conformance_corpus

NOW = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize("part_documents", [1, 2, 1000], ids=["parts-of-1", "parts-of-2", "one-part"])
def test_streamed_parts_write_what_one_batch_writes(tmp_path, monkeypatch, part_documents):
    from groundgate.knowledge.default import bundled_corpus

    whole = SQLiteStore.from_path(tmp_path / "whole.sqlite")
    whole.setup()
    batch, _ = build_batch(whole, bundled_corpus(), now=NOW)
    whole.apply(batch, now=NOW)
    whole.close()

    monkeypatch.setattr(parts, "PART_DOCUMENTS", part_documents)
    streamed = SQLiteStore.from_path(tmp_path / "streamed.sqlite")
    streamed.setup()
    report = ingest(streamed, bundled_corpus(), now=NOW)
    streamed.close()
    assert report.chunks == len(batch.chunks) and report.relationships == len(batch.relationships)
    assert report.entities == len(batch.entities) == report.write.entities_written
    assert table_rows(tmp_path / "streamed.sqlite") == table_rows(tmp_path / "whole.sqlite")


@pytest.mark.parametrize("change", ["edited", "deleted"])
def test_a_file_that_changes_between_the_passes_is_an_error_and_writes_nothing(
    tmp_path, monkeypatch, change
):
    corpus = tmp_path / "corpus"
    import shutil

    shutil.copytree(conformance_corpus(), corpus)
    store = tmp_path / "store.sqlite"
    ingest_to_path(store, corpus, now=NOW)
    before = store.read_bytes()
    (corpus / "docs" / "fees-faq.md").write_text((corpus / "docs" / "fees-faq.md").read_text() + "\nMore.\n")
    first_pass = pipeline.plan_ingest

    def then_change(*args, **kwargs):
        planned = first_pass(*args, **kwargs)
        target = corpus / "docs" / "fees-faq.md"
        if change == "edited":
            target.write_text(target.read_text().replace("EUR 0.25", "EUR 0.30"))
        else:
            target.unlink()
        return planned

    monkeypatch.setattr(pipeline, "plan_ingest", then_change)
    monkeypatch.setattr(parts, "PART_DOCUMENTS", 1)  # the change is met after parts were written
    with pytest.raises(CorpusError) as caught:
        ingest_to_path(store, corpus, now=NOW)
    assert caught.value.path == corpus / "docs" / "fees-faq.md"
    assert ("changed" if change == "edited" else "disappeared") in caught.value.problem
    assert store.read_bytes() == before


class _OneBatchStore:
    """A store without ``apply_parts`` (as the Azure one): ingest gives it one merged batch."""

    def __init__(self, inner: SQLiteStore) -> None:
        self.inner = inner
        self.batches = 0

    def get_document(self, doc_id):
        return self.inner.get_document(doc_id)

    def get_entity(self, entity_id):
        return self.inner.get_entity(entity_id)

    def resolution_log(self):
        return self.inner.resolution_log()

    def apply(self, batch, *, now):
        self.batches += 1
        return self.inner.apply(batch, now=now)


def test_a_store_that_cannot_stream_gets_the_whole_corpus_in_one_batch(tmp_path, monkeypatch):
    from groundgate.knowledge.default import bundled_corpus
    from groundgate.knowledge.port import StreamingWriter

    monkeypatch.setattr(parts, "PART_DOCUMENTS", 2)
    streamed = SQLiteStore.from_path(tmp_path / "streamed.sqlite")
    streamed.setup()
    ingest(streamed, bundled_corpus(), now=NOW)
    streamed.close()
    inner = SQLiteStore.from_path(tmp_path / "whole.sqlite")
    inner.setup()
    store = _OneBatchStore(inner)
    assert not isinstance(store, StreamingWriter)
    ingest(store, bundled_corpus(), now=NOW)  # type: ignore[arg-type]
    inner.close()
    assert store.batches == 1
    assert table_rows(tmp_path / "whole.sqlite") == table_rows(tmp_path / "streamed.sqlite")

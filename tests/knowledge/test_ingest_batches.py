"""``batch_documents``: how much of a corpus ingest holds at once, and nothing else.

Ingest writes a corpus in batches of ``batch_documents`` documents (with their chunks,
vectors and edges), then the entities in batches of as many, all in one transaction
(``knowledge/ingest/parts.py``). What a user can notice: the store receives the corpus in
parts of that size; the store written, and every search over it, is the same whatever the
size; an ingest that fails after some parts were written leaves the store as it was.
"""

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import pytest
from store_rows import table_rows

from groundgate.errors import ConfigError
from groundgate.knowledge.default import bundled_corpus, bundled_questions, ingest_to_path
from groundgate.knowledge.embed import HashingEmbedder
from groundgate.knowledge.embedded.store import SQLiteStore
from groundgate.knowledge.ingest.pipeline import ingest

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def _questions() -> list[str]:
    lines = bundled_questions().read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["question"] for line in lines if line.strip()]


def _answers(path: Path) -> list[tuple]:
    """What search gives for every golden question: ids and scores, evidence and knowledge."""
    store = SQLiteStore.from_path(path, read_only=True)
    try:
        out = []
        for question in _questions():
            out.append(tuple((h.chunk_id, h.score) for h in store.search_evidence(question, top_k=8)))
            out.append(tuple((h.entity.id, h.score) for h in store.search_knowledge(question, top_k=8)))
        return out
    finally:
        store.close()


def test_small_batches_write_the_store_and_answers_one_big_batch_does(tmp_path):
    big, small = tmp_path / "big.sqlite", tmp_path / "small.sqlite"
    ingest_to_path(big, bundled_corpus(), now=NOW, embedder=HashingEmbedder(), batch_documents=100_000)
    report = ingest_to_path(
        small, bundled_corpus(), now=NOW, embedder=HashingEmbedder(), batch_documents=3
    )
    assert report.documents > 3 * 3  # several batches, not one
    assert table_rows(small) == table_rows(big)
    assert _answers(small) == _answers(big)
    assert any(_answers(small))  # the questions do find something


class _CountingStore(SQLiteStore):
    """The SQLite store, noting the size of every part it is given."""

    sizes: list[tuple[int, int, int]]

    def apply_parts(self, parts, *, now):  # type: ignore[no-untyped-def]
        self.sizes = []

        def noted():
            for part in parts:
                self.sizes.append((len(part.documents), len(part.chunks), len(part.entities)))
                yield part

        return super().apply_parts(noted(), now=now)


def test_the_store_is_given_the_corpus_in_parts_of_the_batch_size(tmp_path):
    store = _CountingStore.from_path(tmp_path / "store.sqlite")
    store.setup()
    report = ingest(store, bundled_corpus(), now=NOW, batch_documents=4)
    store.close()
    sizes = store.sizes
    assert max(docs for docs, _, _ in sizes) == 4
    assert max(entities for _, _, entities in sizes) == 4
    assert sum(docs for docs, _, _ in sizes) == report.documents
    assert sum(chunks for _, chunks, _ in sizes) == report.chunks
    assert sum(entities for _, _, entities in sizes) == report.entities
    assert len(sizes) >= report.documents // 4 + report.entities // 4


class _FailingEmbedder(HashingEmbedder):
    """Embeds the first ``calls`` batches, then fails, as a remote embedder can."""

    def __init__(self, calls: int) -> None:
        super().__init__()
        self.calls = calls

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        if self.calls == 0:
            raise RuntimeError("the embedder went away")
        self.calls -= 1
        return super().embed_documents(texts)


def test_an_ingest_that_fails_after_some_batches_leaves_the_store_as_it_was(tmp_path):
    store = tmp_path / "store.sqlite"
    ingest_to_path(store, bundled_corpus(), now=NOW)
    before = store.read_bytes()
    with pytest.raises(RuntimeError, match="went away"):  # three parts written, then it fails
        ingest_to_path(
            store, bundled_corpus(), now=datetime(2026, 2, 1, tzinfo=UTC),
            embedder=_FailingEmbedder(calls=3), batch_documents=2,
        )
    assert store.read_bytes() == before
    fresh = tmp_path / "fresh.sqlite"
    with pytest.raises(RuntimeError, match="went away"):
        ingest_to_path(fresh, bundled_corpus(), embedder=_FailingEmbedder(calls=3), batch_documents=2)
    assert list(tmp_path.iterdir()) == [store]


def test_a_batch_size_below_one_is_refused_before_anything_is_written(tmp_path):
    with pytest.raises(ConfigError, match="batch_documents"):
        ingest_to_path(tmp_path / "store.sqlite", bundled_corpus(), batch_documents=0)
    assert list(tmp_path.iterdir()) == []

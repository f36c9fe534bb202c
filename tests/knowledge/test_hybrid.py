from datetime import UTC, datetime

import pytest

from groundgate.knowledge.embed import HashingEmbedder, SentenceTransformerEmbedder
from groundgate.knowledge.ingest.pipeline import ingest


def test_vectors_are_fused_with_keywords_by_reciprocal_rank(memory_store, mini_corpus):
    embedder = HashingEmbedder()
    ingest(memory_store, mini_corpus, now=datetime(2026, 1, 1, tzinfo=UTC), embedder=embedder)
    keyword = memory_store.search_evidence("late fee", top_k=4)
    assert {h.heading for h in keyword} <= {"Late fees", "Fees"}
    vector = embedder.embed_query("A loan may be renewed twice unless another member has reserved the item.")
    hybrid = memory_store.search_evidence("late fee", top_k=4, query_vector=vector)
    headings = [h.heading for h in hybrid]
    assert "Renewals" in headings, "the vector side brings in what keywords alone miss"
    assert {"Late fees", "Fees"} & set(headings), "the keyword side is kept"
    assert hybrid[0].score == 1.0 and all(0 < h.score <= 1 for h in hybrid)


def test_a_query_with_no_shared_words_still_ranks_by_vector(memory_store, mini_corpus):
    embedder = HashingEmbedder()
    ingest(memory_store, mini_corpus, now=datetime(2026, 1, 1, tzinfo=UTC), embedder=embedder)
    assert memory_store.search_evidence("zzz") == []
    hits = memory_store.search_evidence("zzz", query_vector=embedder.embed_query("loan renewed reserved"))
    assert hits and hits[0].heading == "Renewals"


def test_local_model_embeds_offline():
    pytest.importorskip("sentence_transformers", reason="the 'embeddings' extra is not installed here")
    embedder = SentenceTransformerEmbedder()
    vector = embedder.embed_query("roof inspection threshold")
    assert len(vector) == embedder.dimension

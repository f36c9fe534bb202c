from datetime import UTC, datetime

from groundgate.knowledge.embed import HashingEmbedder
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


def test_the_local_model_finds_by_meaning_what_shares_no_word(memory_store, mini_corpus, minilm):
    ingest(memory_store, mini_corpus, now=datetime(2026, 1, 1, tzinfo=UTC), embedder=minilm)
    assert memory_store.search_evidence("overdue charge") == [], "no chunk has either word"
    hits = memory_store.search_evidence("overdue charge", top_k=2,
                                        query_vector=minilm.embed_query("overdue charge"))
    assert {h.heading for h in hits} == {"Late fees", "Fees"}


def test_the_bundled_store_made_without_an_embedder_is_not_reused_with_one(tmp_path):
    from groundgate.knowledge.default import bundled_store_path, open_store

    open_store(None, cache_dir=tmp_path).close()  # a keyword-only first run
    embedder = HashingEmbedder()
    store = open_store(None, cache_dir=tmp_path, embedder=embedder)
    hits = store.search_evidence("zzz", query_vector=embedder.embed_query("escape of water excess"))
    store.close()
    assert hits, "the store has vectors: it was ingested for this embedder"
    paths = {bundled_store_path(tmp_path), bundled_store_path(tmp_path, embedder),
             bundled_store_path(tmp_path, HashingEmbedder(64))}
    assert len(paths) == 3 and bundled_store_path(tmp_path, HashingEmbedder()) in paths


def test_two_models_of_one_size_have_two_cached_stores(tmp_path):
    from groundgate.knowledge.default import bundled_store_path
    from groundgate.knowledge.embed import OpenAIEmbedder

    small = OpenAIEmbedder("text-embedding-3-small", api_key="sk-test", dimension=1536)
    ada = OpenAIEmbedder("text-embedding-ada-002", api_key="sk-test", dimension=1536)
    assert bundled_store_path(tmp_path, small) != bundled_store_path(tmp_path, ada)

"""Keyword ranking with the common terms' BM25 scores kept in memory equals FTS5's own."""

import random
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from fts_rankings import assert_same_ranking, plain_ranking

from groundgate.knowledge.embedded import impacts
from groundgate.knowledge.embedded.bm25 import match_any as _fts_query
from groundgate.knowledge.embedded.store import SQLiteStore
from groundgate.knowledge.ingest.pipeline import ingest
from groundgate.knowledge.resolution import resolve, similarity

NOW = datetime(2026, 1, 1, tzinfo=UTC)
WORDS = [f"w{k}" for k in range(60)] + ["claim", "claims", "policy", "cover", "roof", "excess"]


def _write_corpus(root: Path, documents: int, seed: int = 3, prefix: str = "D") -> None:
    """Documents whose words follow a Zipf law, so a few words are in most chunks."""
    rng = random.Random(seed)
    weights = [1 / (rank + 2) for rank in range(len(WORDS))]
    (root / "docs").mkdir(parents=True, exist_ok=True)
    for n in range(documents):
        sections = []
        for s in range(rng.randint(1, 4)):
            text = " ".join(rng.choices(WORDS, weights, k=rng.randint(5, 40)))
            sections.append(f"# Section {s} {rng.choice(WORDS)}\n\n{text}.\n")
        year = 2020 + n % 6
        (root / "docs" / f"{prefix}{n:04d}.md").write_text(
            f"---\nid: {prefix}-{n:04d}\ntitle: Note {n} on {rng.choice(WORDS)} {rng.choice(WORDS)}\n"
            f"kind: note\neffective_from: {year}-01-01\n---\n" + "\n".join(sections)
        )


def _questions(n: int, seed: int = 5) -> list[str]:
    rng = random.Random(seed)
    return [
        " ".join(rng.sample(WORDS, rng.randint(1, 6))) + " unknownword" * rng.randint(0, 1)
        for _ in range(n)
    ]


@pytest.fixture
def corpus_store(tmp_path, monkeypatch):
    """A file store of 250 documents (633 chunks); about half the words are in 120 rows
    or more, and count as common."""
    monkeypatch.setattr(impacts, "COMMON_ROWS", 120)
    _write_corpus(tmp_path / "corpus", 250)
    store = SQLiteStore.from_path(tmp_path / "store.sqlite")
    store.setup()
    ingest(store, tmp_path / "corpus", now=NOW)
    yield store
    store.close()


def _matching(store: SQLiteStore, term: str) -> int:
    return store._rows(
        "SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?", [_fts_query([term])]
    )[0][0]


def test_ranks_equal_the_fts5_query_with_every_term(corpus_store):
    mixed = 0
    for question in _questions(60):
        terms = question.split()
        rows = [_matching(corpus_store, t) for t in terms]
        mixed += any(n >= 120 for n in rows) and any(0 < n < 120 for n in rows)
        for limit in (1, 8, 32, 400):
            assert_same_ranking(
                corpus_store._ranks(corpus_store._chunk_impacts, terms, limit),
                plain_ranking(corpus_store, terms, limit),
            )
    assert mixed > 20, "the questions must mix kept and FTS5-scored terms"
    assert corpus_store._chunk_impacts._postings > 0


def test_evidence_and_knowledge_search_are_unchanged(corpus_store, monkeypatch):
    questions = _questions(40)
    as_ofs = [None, date(2022, 6, 1)]
    kept = [
        (corpus_store.search_evidence(q, as_of=a), corpus_store.search_knowledge(q, top_k=5))
        for q in questions for a in as_ofs
    ]
    # Nothing kept or stored: FTS5 scores every row.
    monkeypatch.setattr(impacts, "COMMON_ROWS", 10**9)
    monkeypatch.setattr(corpus_store._entity_impacts, "_kept_rows", None)
    corpus_store._chunk_impacts.clear()
    corpus_store._entity_impacts.clear()
    plain = [
        (corpus_store.search_evidence(q, as_of=a), corpus_store.search_knowledge(q, top_k=5))
        for q in questions for a in as_ofs
    ]
    assert kept == plain


def test_kept_scores_are_dropped_when_another_connection_writes(corpus_store, tmp_path):
    reader = SQLiteStore.from_path(corpus_store.path, read_only=True)
    terms = ["claim", "w1", "w7"]
    before = reader._ranks(reader._chunk_impacts, terms, 16)
    assert reader._chunk_impacts._postings > 0
    _write_corpus(tmp_path / "more", 40, seed=11, prefix="X")
    ingest(corpus_store, tmp_path / "more", now=NOW)  # more rows: every BM25 score moves
    after = reader._ranks(reader._chunk_impacts, terms, 16)
    assert_same_ranking(after, plain_ranking(reader, terms, 16))
    assert after != before
    reader.close()


def test_kept_scores_are_dropped_when_the_handle_itself_writes(tmp_path, monkeypatch):
    monkeypatch.setattr(impacts, "COMMON_ROWS", 20)
    store = SQLiteStore.from_path(":memory:")
    store.setup()
    _write_corpus(tmp_path / "a", 120)
    ingest(store, tmp_path / "a", now=NOW)
    view = store.read_only_view()
    terms = ["claim", "w2"]
    view._ranks(view._chunk_impacts, terms, 8)
    _write_corpus(tmp_path / "b", 60, seed=9, prefix="B")
    ingest(store, tmp_path / "b", now=NOW)
    assert_same_ranking(view._ranks(view._chunk_impacts, terms, 8), plain_ranking(view, terms, 8))
    store.close()


def test_memory_stays_bounded_and_exact(corpus_store, monkeypatch):
    monkeypatch.setattr(impacts, "MAX_POSTINGS", 150)
    cache = corpus_store._chunk_impacts
    for question in _questions(30):
        terms = question.split()
        assert_same_ranking(corpus_store._ranks(cache, terms, 8), plain_ranking(corpus_store, terms, 8))
        assert cache._postings <= 150 or len(cache._kept) == 1


def test_resolution_is_unchanged_with_kept_entity_scores(corpus_store, monkeypatch):
    mentions = ["Note 12", "note on claims", "w1 w2 policy", "claim cover", "roof excess w3"]
    kept = [resolve(corpus_store, m) for m in mentions]
    monkeypatch.setattr(impacts, "COMMON_ROWS", 10**9)
    monkeypatch.setattr(corpus_store._entity_impacts, "_kept_rows", None)
    corpus_store._entity_impacts.clear()
    assert [resolve(corpus_store, m) for m in mentions] == kept


def _reference_similarity(a: str, b: str) -> float:
    """The formula on whole names (trigrams and stems, three set operations), accents folded."""
    from groundgate.knowledge.text import content_terms, fold, stem

    def _word_stems(text: str) -> frozenset[str]:
        return frozenset(stem(t) for t in content_terms(fold(text)))

    def trigrams(text: str) -> frozenset[str]:
        padded = f"  {' '.join(fold(text).lower().split())} "
        return frozenset(padded[i : i + 3] for i in range(len(padded) - 2))

    ta, tb = trigrams(a), trigrams(b)
    tri = len(ta & tb) / len(ta | tb) if ta | tb else 0.0
    wa, wb = _word_stems(a), _word_stems(b)
    words = len(wa & wb) / len(wa | wb) if wa | wb else 0.0
    return round(0.5 * tri + 0.5 * words, 4)


def test_similarity_keeps_its_values():
    names = ["Loan period", "loan periods", "Late fee", "overdue fee", "E-book loans", "ebooks",
             "MEM-2001", "Member 2001", "", "  ", "a", "Roof inspection 15y H3", "roof  INSPECTION"]
    for a in names:
        for b in names:
            assert similarity(a, b) == _reference_similarity(a, b), (a, b)


def test_similarity_from_word_features_equals_whole_name_features():
    # Names are scored from their words' memoised features; odd spacing, punctuation,
    # case folding that changes length and ids must not move a score.
    rng = random.Random(11)
    alphabet = "abcdeXYZ019 -._:,'\t\u00a0\u0130\u00df\u03a3\u03c2\u00e9"
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 24))) for _ in range(400)]
    for a, b in zip(texts, texts[1:] + texts[:1], strict=True):
        assert similarity(a, b) == _reference_similarity(a, b), (a, b)


def test_sparse_rowids_rank_like_dense_ones():
    rng = random.Random(1)
    parts = []
    for _ in range(4):
        ids = sorted(rng.sample(range(1, 400), 120))
        parts.append((
            impacts.np.array(ids, dtype=impacts.np.int64),
            impacts.np.array([round(rng.random(), 1) + 0.1 for _ in ids]),  # many ties
        ))
    dense = impacts.np.zeros(400)
    for ids, values in parts:
        dense[ids] += values
    matched = impacts.np.flatnonzero(dense > 0)
    expected = impacts._best(matched, dense[matched], 25)
    assert impacts._rank_sparse(parts, 25) == expected
    scores = [s for _, s in expected]
    assert scores == sorted(scores, reverse=True)
    assert all(a < b for (a, sa), (b, sb) in zip(expected, expected[1:], strict=False) if sa == sb)

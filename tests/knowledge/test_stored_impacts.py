"""BM25 parts stored by ingest: a fresh handle ranks from them exactly as FTS5 does, and
they are never read once the text they were computed from has changed."""

import random
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest
from fts_rankings import assert_same_ranking, plain_ranking

from groundgate.knowledge.embedded import bm25, impacts, stored_impacts
from groundgate.knowledge.embedded import store as store_module
from groundgate.knowledge.embedded.schema import MIGRATIONS
from groundgate.knowledge.embedded.store import SQLiteStore
from groundgate.knowledge.ingest.pipeline import ingest
from groundgate.knowledge.model import Entity
from groundgate.knowledge.port import IngestBatch
from groundgate.knowledge.resolution import resolve
from groundgate.knowledge.text import content_terms

NOW = datetime(2026, 1, 1, tzinfo=UTC)
LATER = datetime(2026, 2, 1, tzinfo=UTC)
WORDS = [f"w{k}" for k in range(50)] + [
    "claim", "claims", "policy", "policies", "cover", "decision", "endorsement", "roof", "the",
]
CHUNK_ROWS = 60
"""The chunk threshold in these tests (``COMMON_ROWS`` is 500 at 100k chunks)."""
ENTITY_ROWS = 20


def _write_corpus(root: Path, documents: int, seed: int = 3, prefix: str = "D") -> None:
    """Zipf-distributed words; one section in ten is long (column sizes over 127 tokens)."""
    rng = random.Random(seed)
    weights = [1 / (rank + 2) for rank in range(len(WORDS))]
    (root / "docs").mkdir(parents=True, exist_ok=True)
    for n in range(documents):
        sections = []
        for s in range(rng.randint(1, 3)):
            size = rng.randint(150, 260) if rng.random() < 0.1 else rng.randint(5, 40)
            text = " ".join(rng.choices(WORDS, weights, k=size))
            sections.append(f"# Section {s} {rng.choice(WORDS)}\n\n{text}.\n")
        (root / "docs" / f"{prefix}{n:04d}.md").write_text(
            f"---\nid: {prefix}-{n:04d}\ntitle: Note {n} on {rng.choice(WORDS)} {rng.choice(WORDS)}\n"
            "kind: note\n---\n" + "\n".join(sections)
        )


def _questions(n: int, seed: int = 5) -> list[list[str]]:
    rng = random.Random(seed)
    return [rng.sample(WORDS, rng.randint(1, 5)) + ["nowhere"] * rng.randint(0, 1) for _ in range(n)]


def _stored(path) -> dict[tuple[str, str], tuple]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT fts, token, matches, rowids, scores FROM fts_impacts").fetchall()
    return {(fts, token): rest for fts, token, *rest in rows}


def _current(path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {r[0] for r in conn.execute("SELECT fts FROM fts_impacts_state")}


@pytest.fixture
def thresholds(monkeypatch):
    monkeypatch.setattr(impacts, "COMMON_ROWS", CHUNK_ROWS)
    monkeypatch.setattr(store_module, "ENTITY_KEPT_ROWS", ENTITY_ROWS)


@pytest.fixture
def written(tmp_path, thresholds):
    """A file store of 150 documents, ingested and closed: (path, corpus folder)."""
    _write_corpus(tmp_path / "corpus", 150)
    path = tmp_path / "store.sqlite"
    writer = SQLiteStore.from_path(path)
    writer.setup()
    ingest(writer, tmp_path / "corpus", now=NOW)
    writer.close()
    return path, tmp_path / "corpus"


def _spy_fts5_scoring(monkeypatch) -> list[str]:
    """Records the MATCH of every query a cache sends FTS5 for whole-term parts."""
    asked: list[str] = []
    original = impacts.ImpactCache._query

    def query(self, cursor, match):
        asked.append(match)
        return original(self, cursor, match)

    monkeypatch.setattr(impacts.ImpactCache, "_query", query)
    return asked


def test_ingest_stores_fts5s_own_scores_bit_for_bit(written):
    path, _ = written
    stored = _stored(path)
    assert _current(path) == {"chunks_fts", "entities_fts"}
    conn = sqlite3.connect(path)
    checked = 0
    for (fts, token), (matches, rowids, scores) in stored.items():
        assert matches >= (CHUNK_ROWS if fts == "chunks_fts" else ENTITY_ROWS)
        if rowids is None:
            assert token in {"the", "on"}  # stopwords' tokens: listed, not stored
            continue
        weights = "2.0, 1.5, 1.0" if fts == "chunks_fts" else "3.0, 2.0, 1.0"
        # "decis" comes from "decision"; FTS5 would stem the token itself to "deci".
        word = {"decis": "decision", "endors": "endorsement"}.get(token, token)
        rows = conn.execute(
            f"SELECT rowid, -bm25({fts}, {weights}) FROM {fts} WHERE {fts} MATCH ?", [f'"{word}"']
        ).fetchall()
        assert np.frombuffer(rowids, dtype="<i4").tolist() == [r[0] for r in rows]
        assert scores == np.array([r[1] for r in rows], dtype="<f8").tobytes()  # every bit
        checked += 1
    conn.close()
    assert checked > 40
    assert ("chunks_fts", "decis") in stored and ("chunks_fts", "polici") in stored


def test_table_bm25_agrees_with_fts5_on_long_rows(written):
    path, _ = written
    conn = sqlite3.connect(path)
    sizes = [sz for (sz,) in conn.execute("SELECT sz FROM chunks_fts_docsize")]
    assert sum(max(sz) >= 0x80 for sz in sizes) > 5  # two-byte varints (columns of 128+ tokens)
    assert bm25._varints(bytes([0x81, 0x05, 0x07])) == [133, 7]
    table = bm25.TableBm25(conn, "chunks_fts", (2.0, 1.5, 1.0))
    tokens = [r[0] for r in conn.execute(
        "SELECT token FROM fts_impacts WHERE fts = 'chunks_fts' AND rowids IS NOT NULL"
    )]
    assert all(table.agrees(t, bm25.phrase(t)) for t in tokens if t not in {"decis", "endors"})
    assert not table.agrees("claim", bm25.phrase("roof"))  # it can tell
    conn.close()


def test_a_fresh_handle_ranks_from_stored_parts_as_fts5_does(written, monkeypatch):
    path, _ = written
    asked = _spy_fts5_scoring(monkeypatch)
    reader = SQLiteStore.from_path(path, read_only=True)
    stored = _stored(path)
    used = 0
    for terms in _questions(60):
        for limit in (1, 8, 40):
            assert_same_ranking(
                reader._ranks(reader._chunk_impacts, terms, limit),
                plain_ranking(reader, terms, limit),
            )
            assert_same_ranking(
                reader._ranks(reader._entity_impacts, terms, limit),
                plain_ranking(reader, terms, limit, fts="entities_fts", weights="3.0, 2.0, 1.0"),
            )
        used += any(stored.get(("chunks_fts", t), (0, None))[1] is not None for t in terms)
    assert used > 30
    common = [t for t in WORDS if t != "the" and stored.get(("chunks_fts", t), (0, None))[1]]
    # FTS5 was asked about rare words only, never for a stored word on its own.
    assert not [m for m in asked if m in {f'"{t}"' for t in common}]
    reader.close()


def test_results_are_the_same_with_and_without_stored_parts(written):
    path, _ = written
    questions = [" ".join(terms) for terms in _questions(40)]
    stored = SQLiteStore.from_path(path, read_only=True)
    with_parts = [(stored.search_evidence(q), stored.search_knowledge(q, top_k=5), resolve(stored, q))
                  for q in questions]
    with sqlite3.connect(path) as conn:
        conn.execute("DELETE FROM fts_impacts_state")  # readers must not use the parts now
    computed = SQLiteStore.from_path(path, read_only=True)
    assert not computed._chunk_impacts._stored
    without = [(computed.search_evidence(q), computed.search_knowledge(q, top_k=5),
                resolve(computed, q)) for q in questions]
    assert computed._chunk_impacts._postings > 0  # computed the parts itself instead
    assert with_parts == without
    stored.close()
    computed.close()


def test_reingesting_unchanged_files_leaves_the_stored_parts_alone(written, monkeypatch):
    path, corpus = written
    before = _stored(path)
    with sqlite3.connect(path) as conn:
        entity_rows = conn.execute("SELECT rowid, id FROM entities ORDER BY id").fetchall()
    computed: list[str] = []
    original = stored_impacts.refresh

    def refresh(conn, fts, *args, **kwargs):
        done = original(conn, fts, *args, **kwargs)
        if done:
            computed.append(fts)
        return done

    monkeypatch.setattr(stored_impacts, "refresh", refresh)
    writer = SQLiteStore.from_path(path)
    report = ingest(writer, corpus, now=LATER)
    writer.close()
    assert report.write.documents_written == 0
    assert computed == []
    assert _stored(path) == before
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT rowid, id FROM entities ORDER BY id").fetchall() == entity_rows


def test_a_changing_reingest_recomputes_them_in_its_transaction(written, monkeypatch):
    path, corpus = written
    before = _stored(path)
    reader = SQLiteStore.from_path(path, read_only=True)
    terms = ["claim", "w1", "w9", "roof"]
    old = reader._ranks(reader._chunk_impacts, terms, 10)
    _write_corpus(corpus, 30, seed=11, prefix="X")
    (corpus / "docs" / "D0003.md").unlink()
    writer = SQLiteStore.from_path(path)
    ingest(writer, corpus, now=LATER)
    writer.close()
    after = _stored(path)
    assert _current(path) == {"chunks_fts", "entities_fts"}
    assert after[("chunks_fts", "claim")] != before[("chunks_fts", "claim")]
    new = reader._ranks(reader._chunk_impacts, terms, 10)  # the same handle sees the change
    assert new != old
    assert_same_ranking(new, plain_ranking(reader, terms, 10))
    fresh = SQLiteStore.from_path(path, read_only=True)
    assert_same_ranking(fresh._ranks(fresh._chunk_impacts, terms, 10), new)
    reader.close()
    fresh.close()


def test_a_write_that_fails_leaves_the_stored_parts_of_before(written, monkeypatch):
    path, corpus = written
    before = _stored(path)
    _write_corpus(corpus, 10, seed=12, prefix="Y")

    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(stored_impacts, "refresh", broken)
    writer = SQLiteStore.from_path(path)
    with pytest.raises(RuntimeError):
        ingest(writer, corpus, now=LATER)
    writer.close()
    assert _stored(path) == before and _current(path) == {"chunks_fts", "entities_fts"}
    assert SQLiteStore.from_path(path, read_only=True).counts()["documents"] == 150


def test_a_write_by_other_code_makes_them_stale(written):
    """An older groundgate, or any other writer, that changes the text leaves no stale parts."""
    path, _ = written
    reader = SQLiteStore.from_path(path, read_only=True)
    terms = ["claim", "w2"]
    reader._ranks(reader._chunk_impacts, terms, 8)
    with sqlite3.connect(path) as conn:
        cur = conn.execute(
            "INSERT INTO chunks (id, doc_id, ordinal, title, heading, text) "
            "VALUES ('Z#0', 'D-0001', 9, 'claim claim', 'claim', 'claim w2 w2')"
        )
        conn.execute(
            "INSERT INTO chunks_fts (rowid, title, heading, text) VALUES (?, ?, ?, ?)",
            [cur.lastrowid, "claim claim", "claim", "claim w2 w2"],
        )
    assert _current(path) == {"entities_fts"}
    ranked = reader._ranks(reader._chunk_impacts, terms, 8)
    assert ranked[0][0] == cur.lastrowid
    assert_same_ranking(ranked, plain_ranking(reader, terms, 8))
    reader.close()


def test_a_store_from_before_migration_2_still_works_and_upgrades(written):
    path, corpus = written
    with sqlite3.connect(path) as conn:  # what an older groundgate wrote: schema version 1
        conn.executescript(
            "DROP TABLE fts_impacts; DROP TABLE fts_impacts_state;"
            + "".join(f"DROP TRIGGER {t}_{op}_stales_impacts;"
                      for t in ("chunks", "entities") for op in ("insert", "delete", "update"))
            + "UPDATE schema_version SET version = 1;"
        )
    reader = SQLiteStore.from_path(path, read_only=True)
    terms = ["claim", "w3", "w7"]
    assert_same_ranking(reader._ranks(reader._chunk_impacts, terms, 8),
                 plain_ranking(reader, terms, 8))
    assert reader.search_knowledge("note claim")
    writer = SQLiteStore.from_path(path)
    assert writer.setup() == len(MIGRATIONS) == 2
    assert _current(path) == set()  # the tables exist, but nothing is stored yet
    ingest(writer, corpus, now=LATER)  # unchanged files: it stores the parts once
    writer.close()
    assert _current(path) == {"chunks_fts", "entities_fts"}
    fresh = SQLiteStore.from_path(path, read_only=True)
    assert_same_ranking(fresh._ranks(fresh._chunk_impacts, terms, 8),
                 plain_ranking(fresh, terms, 8))
    assert fresh._chunk_impacts._stored
    reader.close()
    fresh.close()


def test_keeping_more_terms_gives_the_same_doubles(written):
    path, _ = written
    kept = SQLiteStore.from_path(path, read_only=True)  # entity words from 20 rows: stored
    split = SQLiteStore.from_path(path, read_only=True)
    split._entity_impacts._kept_rows = None  # from CHUNK_ROWS only, computed by this handle
    mixed = 0
    for terms in _questions(80, seed=9):
        counts = [len(plain_ranking(kept, [t], 10**6, fts="entities_fts", weights="1.0")) for t in terms]
        mixed += any(ENTITY_ROWS <= n < CHUNK_ROWS for n in counts) and len(terms) > 1
        for limit in (1, 8, 48):
            assert kept._ranks(kept._entity_impacts, terms, limit) == split._ranks(
                split._entity_impacts, terms, limit
            )  # equal to the last bit, not approximately
    assert kept._entity_impacts._stored and not split._entity_impacts._stored
    assert mixed > 20
    kept.close()
    split.close()


def test_parts_stored_at_another_threshold_are_not_used(written, monkeypatch):
    path, _ = written
    monkeypatch.setattr(impacts, "COMMON_ROWS", CHUNK_ROWS * 2)
    reader = SQLiteStore.from_path(path, read_only=True)
    terms = ["claim", "w4"]
    assert_same_ranking(reader._ranks(reader._chunk_impacts, terms, 8),
                 plain_ranking(reader, terms, 8))
    assert not reader._chunk_impacts._stored
    reader.close()


def test_tokenizer_gives_the_tokens_fts5_matches(written):
    path, _ = written
    conn = sqlite3.connect(path)
    tokenizer = stored_impacts.Tokenizer(conn, "chunks_fts")
    assert tokenizer.tokens(["claims", "Policies", "e-book", "decision", ""]) == [
        ("claim",), ("polici",), ("e", "book"), ("decis",), (),
    ]
    assert tokenizer.tokens(["the"]) == [("the",)]  # and it stays empty between calls
    tokenizer.close()
    conn.close()


def test_knowledge_search_settles_ties_by_id_reading_only_the_winners(tmp_path, thresholds):
    rng = random.Random(4)
    ids = [f"concept:{n:03d}" for n in range(120)]
    rng.shuffle(ids)  # rowids in another order than ids: ties must go by id
    entities = [
        Entity(id=eid, kind="concept", name=f"{rng.choice(WORDS[:6])} {rng.choice(WORDS[:6])} limit",
               description=" ".join(rng.choices(WORDS[:12], k=rng.randint(0, 3))))
        for eid in ids
    ]
    store = SQLiteStore.from_path(tmp_path / "ties.sqlite")
    store.setup()
    store.apply(IngestBatch(entities=entities), now=NOW)
    tied_at_cut = 0
    for words in _questions(40, seed=8):
        question = " ".join(words)
        for top_k in range(1, 21):
            fast = store.search_knowledge(question, top_k=top_k)
            joined = store.search_knowledge(question, top_k=top_k, kinds=["concept"])  # ties in SQL
            assert fast == joined
            terms = content_terms(question)
            head = store._ranks(store._entity_impacts, terms, top_k + 1) if terms else []
            tied_at_cut += len(head) > top_k and head[top_k - 1][1] == head[top_k][1]
    assert tied_at_cut > 50
    store.close()

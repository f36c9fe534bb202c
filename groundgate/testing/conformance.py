"""The conformance suite every backend must pass: both knowledge ports.

Subclass ``KnowledgeStoreConformance`` in a test module and provide a ``store`` fixture
that yields an empty, writable store of your backend; the suite ingests a small corpus
it ships and checks every operation the eight tools rely on.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from importlib import resources
from pathlib import Path

import pytest

from groundgate.knowledge.ingest.pipeline import ingest
from groundgate.knowledge.port import KnowledgeStore, KnowledgeWriter, WritableStore
from groundgate.knowledge.resolution import resolve

__all__ = ["KnowledgeStoreConformance", "conformance_corpus"]

INGEST_TIME = datetime(2026, 1, 1, tzinfo=UTC)


def conformance_corpus() -> Path:
    """The small corpus the suite ingests (package data)."""
    return Path(str(resources.files("groundgate") / "testing" / "corpus"))


class KnowledgeStoreConformance:
    """Behaviour every backend shares. Provide a ``store`` fixture in the subclass."""

    @pytest.fixture
    def loaded(self, store: WritableStore) -> KnowledgeStore:
        ingest(store, conformance_corpus(), now=INGEST_TIME)
        return store

    def test_implements_the_read_and_the_write_port(self, store: WritableStore) -> None:
        assert isinstance(store, KnowledgeStore) and isinstance(store, KnowledgeWriter)

    def test_evidence_search_ranks_best_first_with_normalised_scores(self, loaded):
        hits = loaded.search_evidence("late fee printed books", top_k=3)
        assert hits[0].doc_id in {"LIB-003", "LIB-004"}
        assert hits[0].score == 1.0
        assert all(0.0 < h.score <= 1.0 for h in hits)
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)

    def test_evidence_search_says_nothing_for_unknown_words(self, loaded):
        assert loaded.search_evidence("zeppelin quantum marmalade") == []

    def test_evidence_search_respects_as_of(self, loaded):
        before = loaded.search_evidence("standard loan period", as_of=date(2024, 6, 1))
        after = loaded.search_evidence("standard loan period", as_of=date(2025, 6, 1))
        assert "LIB-001" in {h.doc_id for h in before} and "LIB-002" not in {h.doc_id for h in before}
        assert "LIB-002" in {h.doc_id for h in after} and "LIB-001" not in {h.doc_id for h in after}

    def test_top_k_is_bounded(self, loaded):
        assert len(loaded.search_evidence("loan", top_k=1000)) <= 50

    def test_knowledge_search_finds_entities_by_alias(self, loaded):
        hits = loaded.search_knowledge("overdue fee")
        assert hits and hits[0].entity.id == "rule:late-fee"

    def test_exact_and_alias_resolution(self, loaded):
        matches, _ = resolve(loaded, "MEM-2001")
        assert matches[0].entity.id == "member:MEM-2001"
        assert matches[0].method == "alias"

    def test_fuzzy_resolution_logs_every_decision(self, loaded):
        matches, decisions = resolve(loaded, "loan periods")
        assert matches[0].entity.id == "rule:loan-period"
        assert all(d.mention == "loan periods" for d in decisions)
        assert {d.decision for d in decisions} >= {"merge"}

    def test_relationships_filter_validity_with_as_of(self, loaded):
        edges = loaded.relationships("rule:loan-period", types=["governs"], as_of=date(2024, 6, 1))
        assert [e.source for e in edges] == ["LIB-001"]
        edges = loaded.relationships("rule:loan-period", types=["governs"], as_of=date(2025, 6, 1))
        assert [e.source for e in edges] == ["LIB-002"]

    def test_relationships_filter_recorded_time_with_known_at(self, loaded):
        edges = loaded.relationships(
            "rule:loan-period", types=["governs"], known_at=datetime(2024, 6, 1, tzinfo=UTC)
        )
        assert [e.source for e in edges] == ["LIB-001"]

    def test_traverse_walks_typed_paths_within_hops(self, loaded):
        paths = loaded.traverse("rule:late-fee", hops=2, types=["depends_on", "governs"])
        described = {p.describe() for p in paths}
        assert "rule:late-fee -[depends_on]-> rule:loan-period" in described
        assert "rule:late-fee -[depends_on]-> rule:loan-period <-[governs]- LIB-002" in described
        assert all(len(p.edges) <= 2 for p in paths)

    def test_traverse_never_exceeds_three_hops(self, loaded):
        assert all(len(p.edges) <= 3 for p in loaded.traverse("rule:late-fee", hops=9))

    def test_contradictions_by_entity_and_topic(self, loaded):
        by_entity = loaded.contradictions(entity_ids=["concept:ebook-loans"])
        assert [c.id for c in by_entity] == ["CTR-EB-1"]
        by_topic = loaded.contradictions(topic="do e-books count towards the loan limit")
        assert "CTR-EB-1" in {c.id for c in by_topic}
        assert by_entity[0].status == "open" and len(by_entity[0].positions) == 2

    def test_get_document_and_entity(self, loaded):
        doc = loaded.get_document("LIB-002")
        assert doc is not None and doc.supersedes == ("LIB-001",)
        assert loaded.get_document("nope") is None
        assert loaded.get_entity("LIB-002").kind == "document"

    def test_documents_about_an_entity(self, loaded):
        ids = [d.id for d in loaded.documents_about("rule:loan-period")]
        assert ids[:2] == ["LIB-001", "LIB-002"]

    def test_reingest_of_unchanged_files_changes_nothing(self, loaded):
        report = ingest(loaded, conformance_corpus(), now=datetime(2026, 2, 1, tzinfo=UTC))
        assert report.write.documents_written == 0
        assert report.write.relationships_written == 0
        assert report.write.contradictions_opened == 0

"""Writing to the three services: bitemporal retirement as the embedded reference does it,
and an interrupted apply that the next one repairs (the services share no transaction)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from groundgate.errors import StoreError
from groundgate.knowledge.embedded.store import SQLiteStore
from groundgate.knowledge.ingest.pipeline import ingest
from groundgate.testing.conformance import conformance_corpus

FIRST = datetime(2026, 1, 1, tzinfo=UTC)
SECOND = datetime(2026, 2, 1, tzinfo=UTC)


def _change_the_late_fee_edge(folder):
    rules = folder / "knowledge" / "rules.yaml"
    text = rules.read_text()
    edited = text.replace(
        "    target: rule:loan-period\n    source_ids: [LIB-003]",
        "    target: rule:loan-period\n    source_ids: [LIB-003]\n    note: Fees run per loan period.",
    )
    assert edited != text
    rules.write_text(edited)


def test_a_changed_edge_is_retired_and_re_recorded_exactly_as_the_embedded_store_does(
    azure_store, mini_corpus
):
    embedded = SQLiteStore.from_path(":memory:")
    embedded.setup()
    reports = []
    for store in (embedded, azure_store):
        ingest(store, mini_corpus, now=FIRST)
    _change_the_late_fee_edge(mini_corpus)
    for store in (embedded, azure_store):
        reports.append(ingest(store, mini_corpus, now=SECOND).write)
    assert reports[1].relationships_retired == reports[0].relationships_retired == 1
    assert reports[1].relationships_written == reports[0].relationships_written == 1
    for known_at in (None, datetime(2026, 1, 15, tzinfo=UTC), datetime(2026, 3, 1, tzinfo=UTC)):
        mine = azure_store.relationships("rule:late-fee", known_at=known_at)
        theirs = embedded.relationships("rule:late-fee", known_at=known_at)
        assert mine == theirs, known_at
    before = azure_store.relationships(
        "rule:late-fee", types=["depends_on"], known_at=datetime(2026, 1, 15, tzinfo=UTC)
    )
    assert [(e.note, e.retired_at) for e in before] == [("", SECOND)]
    assert before[0].id == f"rule:late-fee|depends_on|rule:loan-period|@{SECOND.isoformat()}"
    assert [e.note for e in azure_store.relationships("rule:late-fee", types=["depends_on"])] == [
        "Fees run per loan period."
    ]
    embedded.close()


def test_an_interrupted_apply_is_repaired_by_the_next_one(azure_store):
    graph = azure_store.graph
    real_submit = graph.submit
    added = []

    def failing_after_three_edges(script, bindings, what):
        if script == graph.scripts.add_edge:
            added.append(bindings["bRid"])
            if len(added) > 3:
                raise StoreError("Gremlin: connection lost (injected)")
        return real_submit(script, bindings, what)

    graph.write_concurrency = 1
    graph.submit = failing_after_three_edges
    with pytest.raises(StoreError, match="injected"):
        ingest(azure_store, conformance_corpus(), now=FIRST)
    graph.submit = real_submit
    assert azure_store.records.manifest()["state"] == "writing"
    # An edge written twice by the dead run (as a retried write after a lost reply would):
    written = graph.current_edges_from(["LIB-001"])
    assert written, "the interrupted run wrote some edges"
    rid = next(iter(written))
    edge = next(e for e in graph.edges_touching(["LIB-001"]) if e.id == rid)
    graph.write_edges([edge], [], [], FIRST)
    assert len(graph.current_edges_from(["LIB-001"])[rid]) == 2

    report = ingest(azure_store, conformance_corpus(), now=SECOND).write
    assert azure_store.records.manifest()["state"] == "complete"
    assert report.documents_written == 5  # hashes were not trusted: everything rewritten
    assert all(len(hashes) == 1 for hashes in graph.current_edges_from(["LIB-001", "LIB-002"]).values())
    assert [e.source for e in azure_store.relationships("rule:loan-period", types=["governs"])] == [
        "LIB-001",
        "LIB-002",
    ]
    assert azure_store.search_evidence("late fee printed books", top_k=3)[0].doc_id in {"LIB-003", "LIB-004"}
    assert ingest(azure_store, conformance_corpus(), now=SECOND).write.documents_written == 0

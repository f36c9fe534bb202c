"""Models built from trusted values are the models validation would build."""

from datetime import UTC, datetime

import pytest

from groundgate.knowledge.embedded.store import SQLiteStore
from groundgate.knowledge.ingest.pipeline import ingest
from groundgate.knowledge.model import Entity, ResolutionDecision, trusted


def test_trusted_equals_validated():
    values = {
        "id": "concept:loan-period", "kind": "concept", "name": "Loan period",
        "aliases": ("loan periods", "LP-1"), "owner": "Circulation", "description": "How long.",
        "source_ids": ("LIB-001",), "attributes": {"days": 21}, "origin": "declared",
    }
    built = trusted(Entity, dict(values))
    validated = Entity.model_validate(values)
    assert built == validated
    assert built.model_dump() == validated.model_dump()
    assert built.model_fields_set == validated.model_fields_set
    assert list(built.model_dump()) == list(Entity.model_fields)  # field order kept
    with pytest.raises(Exception, match="frozen"):
        built.name = "changed"  # type: ignore[misc]


def test_trusted_fields_set_is_not_shared():
    values = {"mention": "m", "candidate_id": "c", "score": 0.2, "decision": "separate",
              "zone": "below", "reason": "r"}
    first, second = trusted(ResolutionDecision, dict(values)), trusted(ResolutionDecision, dict(values))
    first.model_fields_set.discard("reason")
    assert second.model_fields_set == set(ResolutionDecision.model_fields)


def test_trusted_refuses_incomplete_values():
    with pytest.raises(ValueError, match="every field"):
        trusted(ResolutionDecision, {"mention": "m"})


def test_stored_entities_read_back_as_validated(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "entities.yaml").write_text(
        "entities:\n"
        "  - id: concept:late-fee\n    kind: concept\n    name: Late fee\n"
        "    aliases: [overdue fee, 'fee \"late\"']\n    description: Charged per day.\n"
        "    attributes: {cap: 5, currency: EUR}\n"
        "  - id: concept:grace\n    kind: concept\n    name: Grace period\n"
    )
    store = SQLiteStore.from_path(tmp_path / "s.sqlite")
    store.setup()
    ingest(store, corpus, now=datetime(2026, 1, 1, tzinfo=UTC))
    for entity in store.all_entities():
        assert entity == Entity.model_validate(entity.model_dump()), entity.id
    assert store.get_entity("concept:late-fee").aliases == ("overdue fee", 'fee "late"')
    assert store.get_entity("concept:late-fee").attributes == {"cap": 5, "currency": "EUR"}
    assert store.get_entity("concept:grace").aliases == ()

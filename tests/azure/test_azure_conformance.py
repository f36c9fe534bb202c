"""The port's conformance suite against the Azure backend.

- TestAzureLocal: real Apache TinkerPop Gremlin Server (graph), the @vercel/cosmosdb-server
  emulator (system of record), and groundgate's FAKE AI Search served through the SDK's
  transport (no AI Search emulator exists). Runs in CI.
- TestAzureLive: real Azure, only when GROUNDGATE_AZURE_LIVE=1 and the GROUNDGATE_AZURE_*
  variables name the accounts; it writes to (and then deletes) a fresh Cosmos database,
  fresh search indexes, and every vertex of the named graph, so point it at a scratch graph.
"""

from __future__ import annotations

import os
import uuid

import pytest

from groundgate.knowledge.azure import AzureSettings, AzureStore
from groundgate.testing.conformance import KnowledgeStoreConformance


class TestAzureLocal(KnowledgeStoreConformance):
    @pytest.fixture
    def store(self, azure_store):
        return azure_store


def _live_settings() -> AzureSettings:
    if os.environ.get("GROUNDGATE_AZURE_LIVE") != "1":
        pytest.skip(
            "live Azure tests run only with GROUNDGATE_AZURE_LIVE=1 and "
            "GROUNDGATE_AZURE_* naming the accounts"
        )
    settings = AzureSettings.from_env(os.environ)
    suffix = uuid.uuid4().hex[:8]
    return settings.with_changes(
        cosmos_database=f"groundgate-test-{suffix}", search_index_prefix=f"groundgate-test-{suffix}"
    )


class TestAzureLive(KnowledgeStoreConformance):
    @pytest.fixture
    def store(self):
        settings = _live_settings()
        store = AzureStore.from_settings(settings)
        store.provision()
        store.graph.clear()
        yield store
        try:
            store.graph.clear()
            store.records.drop_database()
            _drop_indexes(store)
        finally:
            store.close()


def _drop_indexes(store: AzureStore) -> None:
    from azure.search.documents.indexes import SearchIndexClient

    with SearchIndexClient(
        store.search.settings.search_endpoint,
        store.search._credential_value(),
        api_version=store.search.settings.search_api_version,
    ) as admin:
        for name in (store.search.evidence_name, store.search.knowledge_name):
            admin.delete_index(name)

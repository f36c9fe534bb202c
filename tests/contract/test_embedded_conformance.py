import pytest

from groundgate.knowledge.embedded.store import SQLiteStore
from groundgate.testing.conformance import KnowledgeStoreConformance


class TestEmbeddedMemory(KnowledgeStoreConformance):
    @pytest.fixture
    def store(self):
        store = SQLiteStore.from_path(":memory:")
        store.setup()
        yield store
        store.close()


class TestEmbeddedFile(KnowledgeStoreConformance):
    @pytest.fixture
    def store(self, tmp_path):
        store = SQLiteStore.from_path(tmp_path / "store.sqlite")
        store.setup()
        yield store
        store.close()

import shutil
from pathlib import Path

import pytest

from groundgate.knowledge.embedded.store import SQLiteStore
from groundgate.testing.conformance import conformance_corpus


@pytest.fixture
def mini_corpus(tmp_path) -> Path:
    """A writable copy of the small library corpus."""
    target = tmp_path / "corpus"
    shutil.copytree(conformance_corpus(), target)
    return target


@pytest.fixture
def memory_store():
    store = SQLiteStore.from_path(":memory:")
    store.setup()
    yield store
    store.close()


@pytest.fixture(scope="session")
def bundled_store(tmp_path_factory):
    """The bundled corpus, ingested once per session, opened read-only for agents."""
    from groundgate.knowledge.default import bundled_corpus
    from groundgate.knowledge.ingest.pipeline import ingest

    path = tmp_path_factory.mktemp("bundled") / "store.sqlite"
    writer = SQLiteStore.from_path(path)
    writer.setup()
    ingest(writer, bundled_corpus())
    writer.close()
    store = SQLiteStore.from_path(path, read_only=True)
    yield store
    store.close()

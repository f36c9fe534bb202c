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

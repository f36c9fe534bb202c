import os
import shutil
from pathlib import Path

import pytest

from groundgate.knowledge.embedded.store import SQLiteStore
from groundgate.testing.conformance import conformance_corpus


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "pypi: installs groundgate into a fresh venv with pip, which reaches PyPI (subprocess)"
    )


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


@pytest.fixture(scope="module")
def store_from_texts(tmp_path_factory):
    """Build a read-only store from ``{file name: text}`` and a knowledge YAML text.

    Texts are dedented, so a test can write its corpus inline. Stores close with the module.
    """
    import textwrap

    from groundgate.knowledge.ingest.pipeline import ingest

    opened: list[SQLiteStore] = []

    def build(docs: dict[str, str], knowledge: str = "") -> SQLiteStore:
        folder = tmp_path_factory.mktemp("corpus")
        for name, text in docs.items():
            (folder / name).write_text(textwrap.dedent(text))
        if knowledge:
            (folder / "knowledge").mkdir()
            (folder / "knowledge" / "knowledge.yaml").write_text(textwrap.dedent(knowledge))
        path = folder.parent / f"{folder.name}.sqlite"
        writer = SQLiteStore.from_path(path)
        writer.setup()
        ingest(writer, folder)
        writer.close()
        opened.append(SQLiteStore.from_path(path, read_only=True))
        return opened[-1]

    yield build
    for store in opened:
        store.close()


@pytest.fixture(scope="session")
def minilm():
    """The bundled all-MiniLM-L6-v2 run in numpy, loaded once.

    Skips where the `embeddings` extra or the weights are missing, except under CI, which
    installs both (`.ci/run`): there a missing model is a failure, not a silent skip.
    """
    from groundgate.errors import ConfigError
    from groundgate.knowledge.minilm import MiniLMEmbedder

    try:
        return MiniLMEmbedder()
    except ConfigError as exc:
        if os.environ.get("CI"):
            pytest.fail(f"CI installs the local embedder, yet: {exc}")
        pytest.skip(str(exc))


@pytest.fixture
def isolated_env(tmp_path, monkeypatch):
    """A CLI test's own cache folder, with none of the user's store, model, embedder or telemetry settings."""
    monkeypatch.setenv("GROUNDGATE_CACHE", str(tmp_path / "cache"))
    for name in ("GROUNDGATE_STORE", "GROUNDGATE_MODEL", "GROUNDGATE_EMBEDDER", "GROUNDGATE_TELEMETRY"):
        monkeypatch.delenv(name, raising=False)

"""``azure ask`` is ``ask --backend azure``: the same options, the same run; and a backend
provisions through the registry, as ``azure provision`` does."""

import pytest
import typer
from typer.testing import CliRunner

from groundgate.cli import app
from groundgate.cli import ask as ask_module
from groundgate.knowledge.backends import get_backend
from groundgate.knowledge.embedded.store import SQLiteStore
from groundgate.knowledge.ingest.pipeline import ingest
from groundgate.settings import Settings
from groundgate.testing.conformance import conformance_corpus

runner = CliRunner()
pytestmark = pytest.mark.usefixtures("isolated_env")


def _options(*path: str) -> dict[str, tuple]:
    command = typer.main.get_command(app)
    for name in path:
        command = command.commands[name]  # type: ignore[attr-defined]
    return {p.name: (tuple(p.opts), p.default, getattr(p, "help", None)) for p in command.params}


def test_azure_ask_offers_the_options_of_ask_but_the_backend_and_the_store():
    main = _options("ask")
    alias = _options("azure", "ask")
    assert {"backend", "store"} <= set(main)
    assert alias == {k: v for k, v in main.items() if k not in ("backend", "store")}


def test_azure_ask_runs_what_ask_with_backend_azure_runs(monkeypatch):
    runs: list[dict] = []
    monkeypatch.setattr(ask_module, "answer", lambda question, **options: runs.append(options))
    question = "What is the escape of water excess?"
    for command in (["azure", "ask"], ["ask", "--backend", "azure"]):
        result = runner.invoke(app, [*command, question, "--mode", "pipeline", "--max-rounds", "3"])
        assert result.exit_code == 0, result.output
    assert len(runs) == 2 and runs[0] == runs[1]
    assert runs[0]["backend"] == "azure" and runs[0]["mode"] == "pipeline"


def test_the_embedded_backend_provisions_a_store_file_that_ingest_then_fills(tmp_path):
    settings = Settings(store_path=tmp_path / "store.sqlite", cache_dir=tmp_path / "cache")
    backend = get_backend("embedded")
    made = backend.provision(settings, embedder=None, env={})
    assert made == backend.provision(settings, embedder=None, env={})  # safe to repeat
    assert str(settings.store_path) in made[0]
    store = SQLiteStore.from_path(settings.store_path)
    try:
        assert store.is_empty()
        ingest(store, conformance_corpus())
        assert not store.is_empty()
    finally:
        store.close()

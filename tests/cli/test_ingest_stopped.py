"""Issue 16, Ingest: an ingest stopped by SIGTERM or Ctrl-C leaves the store as it was.

A new store is built in a temporary file next to it, an existing one in a transaction;
stopping ``groundgate ingest`` must remove the one and roll back the other, and say so.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from groundgate.cli import app
from groundgate.cli.ingest import Stopped
from groundgate.knowledge.backends import BACKENDS, EmbeddedBackend
from groundgate.knowledge.default import bundled_corpus
from groundgate.knowledge.embedded.store import SQLiteStore

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = 4000  # a few seconds of ingest, so there is time to stop it


def _corpus(folder: Path, documents: int = DOCUMENTS) -> Path:
    folder.mkdir()
    for i in range(documents):
        (folder / f"d{i:05d}.md").write_text(
            f"---\nid: D-{i}\ntitle: Document {i}\n---\n# Document {i}\n\n"
            f"Plain words about topic{i} and reading room number{i}.\n",
            encoding="utf-8",
        )
    return folder


def _start(corpus: Path, store: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.Popen(
        [sys.executable, "-m", "groundgate", "ingest", str(corpus), "--store", str(store)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT,
    )


def _wait_for(proc: subprocess.Popen[str], seen, timeout: float = 60.0) -> None:
    """Poll until ``seen()`` is true; fail if the ingest ended (or the time ran out) first."""
    end = time.monotonic() + timeout
    while not seen():
        if proc.poll() is not None:
            pytest.fail(f"ingest ended before it could be stopped: {proc.communicate()}")
        if time.monotonic() > end:
            proc.kill()
            pytest.fail("the ingest never got to the point where it should be stopped")
        time.sleep(0.01)


def _stop(proc: subprocess.Popen[str], sig: signal.Signals) -> tuple[int, str]:
    proc.send_signal(sig)
    _, stderr = proc.communicate(timeout=60)
    return proc.returncode, stderr


def _temp_files(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name.endswith((".ingest", "-journal"))]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_stopped_ingest_into_a_new_store_leaves_no_file(tmp_path, sig):
    corpus = _corpus(tmp_path / "corpus")
    out = tmp_path / "out"
    out.mkdir()
    store = out / "store.sqlite"
    proc = _start(corpus, store)
    _wait_for(proc, lambda: any(p.name.endswith(".ingest") for p in out.iterdir()))
    code, stderr = _stop(proc, sig)
    assert code == 128 + sig, stderr
    assert f"stopped by {sig.name}" in stderr and "nothing was written" in stderr, stderr
    assert "Traceback" not in stderr, stderr
    assert list(out.iterdir()) == []


def test_a_stopped_ingest_into_an_existing_store_leaves_it_byte_identical(tmp_path):
    store = tmp_path / "store.sqlite"
    small = _start(_corpus(tmp_path / "small", documents=3), store)
    assert small.wait(timeout=60) == 0, small.communicate()
    before = store.read_bytes()
    proc = _start(_corpus(tmp_path / "corpus"), store)
    # The rollback journal appears when the first batch is written, in the transaction.
    _wait_for(proc, lambda: (tmp_path / "store.sqlite-journal").exists())
    code, stderr = _stop(proc, signal.SIGTERM)
    assert code == 128 + signal.SIGTERM, stderr
    assert "stopped by SIGTERM" in stderr and "Traceback" not in stderr, stderr
    assert store.read_bytes() == before
    assert _temp_files(tmp_path) == []


def _stopped_after(ingest):  # type: ignore[no-untyped-def]
    """An ``ingest`` that runs, then meets SIGTERM before the CLI has printed its report."""

    def run(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        if ingest is not None:
            ingest(self, *args, **kwargs)
        raise Stopped(signal.SIGTERM)

    return run


def test_a_signal_just_after_the_commit_says_the_store_was_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(EmbeddedBackend, "ingest", _stopped_after(EmbeddedBackend.ingest))
    store = tmp_path / "store.sqlite"
    result = CliRunner().invoke(app, ["ingest", str(bundled_corpus()), "--store", str(store)])
    assert result.exit_code == 128 + signal.SIGTERM
    assert "had finished and was kept" in result.output and "nothing was written" not in result.output
    kept = SQLiteStore.from_path(store, read_only=True)
    assert not kept.is_empty() and kept.search_evidence("annual leave")
    kept.close()


def test_a_stopped_ingest_into_a_backend_without_transactions_says_to_run_it_again(
    tmp_path, monkeypatch
):
    class Convergent(EmbeddedBackend):
        atomic = False

    monkeypatch.setattr(Convergent, "ingest", _stopped_after(None))
    monkeypatch.setitem(BACKENDS, "embedded", Convergent())
    result = CliRunner().invoke(app, ["ingest", str(bundled_corpus()), "--store", str(tmp_path / "s")])
    assert result.exit_code == 128 + signal.SIGTERM
    assert "did not finish; run it again" in result.output and "nothing was written" not in result.output

"""The embedded default: the bundled corpus, ingested on first use into a cached store."""

from __future__ import annotations

import hashlib
import os
import tempfile
from importlib import resources
from pathlib import Path

from groundgate.knowledge.embed import Embedder
from groundgate.knowledge.embedded.store import SQLiteStore
from groundgate.knowledge.ingest.pipeline import ingest

__all__ = ["bundled_corpus", "bundled_questions", "bundled_store_path", "open_store"]


def _bundle() -> Path:
    return Path(str(resources.files("groundgate") / "corpus" / "insurance"))


def bundled_corpus() -> Path:
    """The folder of the bundled synthetic insurance corpus."""
    return _bundle() / "corpus"


def bundled_questions() -> Path:
    """The bundled golden set (``questions.jsonl``)."""
    return _bundle() / "questions.jsonl"


def _fingerprint(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            digest.update(str(path.relative_to(folder)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def bundled_store_path(cache_dir: Path, embedder: Embedder | None = None) -> Path:
    """The cached store for this exact version of the bundled corpus and this embedder.

    Vectors are made at ingest, so each embedder (its type, dimension and ``name`` if it has
    one) has its own store; a store made by another would silently search keywords alone.
    """
    tag = ""
    if embedder is not None:
        identity = f"{type(embedder).__name__}:{embedder.dimension}:{getattr(embedder, 'name', '')}"
        tag = "-" + hashlib.sha256(identity.encode()).hexdigest()[:8]
    return cache_dir / f"bundled-{_fingerprint(bundled_corpus())}{tag}.sqlite"


def open_store(
    path: Path | None,
    *,
    cache_dir: Path,
    read_only: bool = True,
    embedder: Embedder | None = None,
) -> SQLiteStore:
    """Open the store at ``path``, or the bundled corpus's store (ingested on first use).

    The first ingest writes to a temporary file that is renamed into place, so an
    interrupted first run never leaves a half-built store behind.
    """
    target = path or bundled_store_path(cache_dir, embedder)
    if path is None and not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".ingest-", suffix=".sqlite", dir=target.parent)
        os.close(fd)
        try:
            store = SQLiteStore.from_path(tmp)
            store.setup()
            ingest(store, bundled_corpus(), embedder=embedder)
            store.close()
            os.replace(tmp, target)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    store = SQLiteStore.from_path(target, read_only=read_only)
    return store

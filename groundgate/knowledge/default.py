"""The embedded default: the bundled corpus, ingested on first use into a cached store.

Also how a folder is ingested into a store file (``ingest_to_path``, what
``groundgate ingest`` does), so that a failed ingest never leaves a file behind.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import uuid
from datetime import datetime
from importlib import resources
from pathlib import Path

from groundgate.errors import StoreError
from groundgate.knowledge.embed import Embedder
from groundgate.knowledge.embedded.store import SQLiteStore
from groundgate.knowledge.ingest.pipeline import IngestReport, Progress, ingest

__all__ = ["bundled_corpus", "bundled_questions", "bundled_store_path", "ingest_to_path", "open_store"]


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

    Raises:
        ConfigError: There is no store at ``path``.
        StoreError: The store at ``path`` is empty (nothing was ingested into it) or is
            not a knowledge store.
    """
    target = path or bundled_store_path(cache_dir, embedder)
    if path is None and not target.exists():
        ingest_to_path(target, bundled_corpus(), embedder=embedder)
    store = SQLiteStore.from_path(target, read_only=read_only)
    try:
        empty = store.is_empty()
    except StoreError:
        store.close()
        raise
    if empty:
        store.close()
        raise StoreError(
            f"the knowledge store at {target} is empty: nothing has been ingested into it; "
            f"run `groundgate ingest FOLDER --store {target}`"
        )
    return store


def ingest_to_path(
    path: Path | str,
    folder: Path | str,
    *,
    embedder: Embedder | None = None,
    progress: Progress | None = None,
    now: datetime | None = None,
    batch_documents: int | None = None,
) -> IngestReport:
    """Ingest ``folder`` into the SQLite store at ``path``; if that fails, ``path`` is as it was.

    ``batch_documents``: documents held in memory at once while they are written (see
    ``ingest``); the store written does not depend on it.

    A store that exists is written in one transaction, rolled back on any error. A new
    one (or an existing file with no tables) is built in a temporary file next to
    ``path`` and renamed into place only when the ingest succeeded, so a failed ingest
    or a missing folder leaves no file behind.

    Raises:
        CorpusError: A corpus file is malformed; nothing was written.
        StoreError: ``path`` is not a knowledge store, or cannot be written.
    """
    target = Path(path)
    if _has_tables(target):
        store = SQLiteStore.from_path(target)
        try:
            store.setup()
            return ingest(
                store, folder, embedder=embedder, progress=progress, now=now,
                batch_documents=batch_documents,
            )
        finally:
            store.close()
    missing = [p for p in (target.parent, *target.parent.parents) if not p.exists()]
    tmp = None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        # Named here and created by SQLite, so the store gets the usual file mode.
        tmp = target.parent / f".{target.name}.{uuid.uuid4().hex[:12]}.ingest"
        store = SQLiteStore.from_path(tmp)
        try:
            store.setup()
            report = ingest(
                store, folder, embedder=embedder, progress=progress, now=now,
                batch_documents=batch_documents,
            )
        finally:
            store.close()
        os.replace(tmp, target)
        tmp = None
        return report
    except OSError as exc:
        raise StoreError(f"cannot write the knowledge store at {target}: {exc.strerror or exc}") from exc
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
        for folder_made in missing:  # innermost first; only what this call made, if still empty
            if folder_made.exists() and not target.exists() and not any(folder_made.iterdir()):
                folder_made.rmdir()


def _has_tables(path: Path) -> bool:
    """Whether ``path`` is a knowledge store with tables (read without writing a byte).

    Raises:
        StoreError: ``path`` is a folder, not an SQLite database, or a database of
            something other than groundgate.
    """
    if not path.exists():
        return False
    if not path.is_file():
        raise StoreError(f"the knowledge store path {path} is not a file")
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise StoreError(f"{path} is not a groundgate knowledge store ({exc})") from exc
    if names and "schema_version" not in names:
        raise StoreError(f"{path} is an SQLite database, but not a groundgate knowledge store")
    return bool(names)

"""The backends a knowledge store lives on, by name: one registry instead of branches.

``open_backend(settings)`` opens the store ``settings.backend`` names, read-only, for
asking; ``get_backend(name).ingest(...)`` writes a corpus folder into it, and
``get_backend(name).provision(...)`` creates what it stores data in. Everything outside
``knowledge/`` (the CLI, ``ask``, the LangGraph server) goes through here and never names a
backend itself.

- ``embedded``: the SQLite store at ``settings.store_path`` (the bundled corpus's cached
  store when that is ``None``).
- ``azure``: AI Search, Cosmos DB for NoSQL and Cosmos DB for Apache Gremlin, configured by
  the ``GROUNDGATE_AZURE_*`` variables of ``env`` (``AzureSettings.from_env``).

A new backend is one class with the four methods of ``Backend`` and one entry in
``BACKENDS``. Nothing is imported or opened until a backend is asked for.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from groundgate.errors import ConfigError
from groundgate.knowledge.port import KnowledgeStore
from groundgate.settings import Settings

if TYPE_CHECKING:
    from groundgate.knowledge.embed import Embedder
    from groundgate.knowledge.ingest.pipeline import IngestReport, Progress

__all__ = [
    "BACKENDS",
    "AzureBackend",
    "Backend",
    "EmbeddedBackend",
    "OpenedStore",
    "backend_names",
    "get_backend",
    "open_backend",
]


class OpenedStore(KnowledgeStore, Protocol):
    """A store a backend opened: the read port, and ``close`` for whoever opened it."""

    def close(self) -> None:
        """Release the store's connections or clients."""
        ...


class Backend(Protocol):
    """How one backend is described, provisioned, opened for reading, and ingested into."""

    atomic: bool
    """Whether an ingest that fails or is stopped leaves the store as it was (one transaction)."""

    def describe(self, settings: Settings, env: Mapping[str, str]) -> str:
        """Where the data lives, for messages (``ingested ... into <this>``).

        Raises:
            ConfigError: The backend's settings are missing or malformed.
        """
        ...

    def provision(
        self, settings: Settings, *, embedder: Embedder | None, env: Mapping[str, str],
        dimensions: int | None = None,
    ) -> list[str]:
        """Create what the backend stores data in, safely repeated; a line for each thing made.

        ``dimensions`` is the vector size, where the backend fixes one before any data
        (default: the embedder's).

        Raises:
            ConfigError: The backend's settings are missing or malformed.
            StoreError: The store cannot be created or reached.
        """
        ...

    def open(
        self, settings: Settings, *, embedder: Embedder | None, env: Mapping[str, str]
    ) -> OpenedStore:
        """The store, read-only; the caller closes it.

        Raises:
            ConfigError: The backend's settings are missing or malformed.
            StoreError: The store cannot be opened, or holds nothing.
        """
        ...

    def ingest(
        self, settings: Settings, folder: Path, *, embedder: Embedder | None,
        progress: Progress | None, env: Mapping[str, str], batch_documents: int | None = None,
    ) -> IngestReport:
        """Ingest ``folder`` into the store, in one transaction where the backend has them.

        ``batch_documents``: documents held in memory at once (``ingest``); ``None``, the default.

        Raises:
            CorpusError: A corpus file is malformed.
            ConfigError: The backend's settings are missing or malformed.
            StoreError: The store cannot be written.
        """
        ...


class EmbeddedBackend:
    """The SQLite store at ``settings.store_path``, or the bundled corpus's cached store."""

    atomic = True

    def describe(self, settings: Settings, env: Mapping[str, str]) -> str:
        """The store file's path."""
        return str(settings.store_path) if settings.store_path is not None else "the bundled corpus's store"

    def provision(
        self, settings: Settings, *, embedder: Embedder | None, env: Mapping[str, str],
        dimensions: int | None = None,
    ) -> list[str]:
        """Create the store file's schema, or upgrade it (vectors are sized by what is written)."""
        from groundgate.knowledge.embedded.store import SQLiteStore

        if settings.store_path is None:
            raise ConfigError("provisioning the embedded backend needs a store path")
        store = SQLiteStore.from_path(settings.store_path)
        try:
            version = store.setup()
        finally:
            store.close()
        return [f"schema version {version} at {settings.store_path}"]

    def open(
        self, settings: Settings, *, embedder: Embedder | None, env: Mapping[str, str]
    ) -> OpenedStore:
        """``open_store`` on the settings' path (ingesting the bundled corpus on first use)."""
        from groundgate.knowledge.default import open_store

        return open_store(settings.store_path, cache_dir=settings.cache_dir, embedder=embedder)

    def ingest(
        self, settings: Settings, folder: Path, *, embedder: Embedder | None,
        progress: Progress | None, env: Mapping[str, str], batch_documents: int | None = None,
    ) -> IngestReport:
        """``ingest_to_path``: one transaction, and no file left behind when it fails."""
        from groundgate.knowledge.default import ingest_to_path

        if settings.store_path is None:
            raise ConfigError("ingesting into the embedded backend needs a store path")
        return ingest_to_path(
            settings.store_path, folder, embedder=embedder, progress=progress,
            batch_documents=batch_documents,
        )


class AzureBackend:
    """``AzureStore`` over the services ``GROUNDGATE_AZURE_*`` in ``env`` name."""

    atomic = False  # convergent: an ingest run again completes what a stopped one began

    def describe(self, settings: Settings, env: Mapping[str, str]) -> str:
        """The three services' endpoints (no connection is made)."""
        from groundgate.knowledge.azure.store import AzureStore

        return str(AzureStore.from_env(env))

    def provision(
        self, settings: Settings, *, embedder: Embedder | None, env: Mapping[str, str],
        dimensions: int | None = None,
    ) -> list[str]:
        """Indexes, database and containers (vector field of ``dimensions``), and a graph check."""
        from groundgate.knowledge.azure.store import AzureStore

        store = AzureStore.from_env(env, embedder=embedder, dimensions=dimensions)
        try:
            return store.provision()
        finally:
            store.close()

    def open(
        self, settings: Settings, *, embedder: Embedder | None, env: Mapping[str, str]
    ) -> OpenedStore:
        """A read-only view of the store; closing it closes the clients."""
        from groundgate.knowledge.azure.store import AzureStore

        return AzureStore.from_env(env, embedder=embedder).read_only_view()

    def ingest(
        self, settings: Settings, folder: Path, *, embedder: Embedder | None,
        progress: Progress | None, env: Mapping[str, str], batch_documents: int | None = None,
    ) -> IngestReport:
        """Ingest into the three services (convergent, see ``AzureStore``)."""
        from groundgate.knowledge.azure.store import AzureStore
        from groundgate.knowledge.ingest.pipeline import ingest

        target = AzureStore.from_env(env, embedder=embedder)
        try:
            return ingest(
                target, folder, embedder=embedder, progress=progress, batch_documents=batch_documents,
            )
        finally:
            target.close()


BACKENDS: Mapping[str, Backend] = {"embedded": EmbeddedBackend(), "azure": AzureBackend()}
"""Every backend by the name ``Settings.backend`` and ``--backend`` use."""


def backend_names() -> str:
    """The names for a message: ``embedded or azure``."""
    names = list(BACKENDS)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def get_backend(name: str) -> Backend:
    """The backend called ``name``.

    Raises:
        ConfigError: No backend has that name.
    """
    try:
        return BACKENDS[name]
    except KeyError:
        raise ConfigError(f"the backend must be {backend_names()}, not {name!r}") from None


def open_backend(
    settings: Settings, *, embedder: Embedder | None = None, env: Mapping[str, str] | None = None
) -> OpenedStore:
    """Open the store ``settings.backend`` names, read-only; the caller closes it.

    Args:
        settings: Which backend, and for ``embedded`` which file.
        embedder: The query embedder (it picks the bundled store's cache and Azure's vector size).
        env: Where backend variables (``GROUNDGATE_AZURE_*``) are read; ``os.environ`` when ``None``.

    Raises:
        ConfigError: An unknown backend, or its settings are missing.
        StoreError: The store cannot be opened, or holds nothing.
    """
    return get_backend(settings.backend).open(
        settings, embedder=embedder, env=os.environ if env is None else env
    )

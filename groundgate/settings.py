"""Settings, read once by the CLI (or built by the caller) and passed down.

Nothing in groundgate reads the environment at import time; ``Settings.from_env`` is the
one place that does, and only when called.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Settings"]


@dataclass(frozen=True)
class Settings:
    """Where things are and which model/embedder to use."""

    store_path: Path | None = None
    """The SQLite store; ``None`` means the bundled corpus's cached store."""
    model: str = "offline"
    """Chat model spec for ``make_chat_model``."""
    embedder: str | None = None
    """Embedder spec for ``make_embedder``; ``None`` is keyword search only."""
    cache_dir: Path = Path.home() / ".cache" / "groundgate"
    """Where the bundled corpus's store is cached."""
    backend: str = "embedded"
    """Which backend ``knowledge.backends.open_backend`` opens: ``embedded`` (SQLite) or ``azure``."""

    @classmethod
    def from_env(cls) -> Settings:
        """Settings from the environment.

        Reads ``GROUNDGATE_STORE``, ``GROUNDGATE_MODEL``, ``GROUNDGATE_EMBEDDER`` and
        ``GROUNDGATE_CACHE``.
        """
        store = os.environ.get("GROUNDGATE_STORE")
        cache = os.environ.get("GROUNDGATE_CACHE")
        return cls(
            store_path=Path(store) if store else None,
            model=os.environ.get("GROUNDGATE_MODEL", "offline"),
            embedder=os.environ.get("GROUNDGATE_EMBEDDER") or None,
            cache_dir=Path(cache) if cache else cls.cache_dir,
        )

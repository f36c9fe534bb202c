"""BM25 parameters and field weights, defined once for every backend.

The embedded store gives the weights to FTS5's ``bm25()`` (column order matters there: the
mappings are in column order); the AI Search indexes declare them in a scoring profile.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

__all__ = ["B", "CHUNK_WEIGHTS", "ENTITY_WEIGHTS", "K1"]

K1: Final = 1.2
"""BM25 ``k1`` (fixed in SQLite's FTS5; AI Search's default)."""

B: Final = 0.75
"""BM25 ``b`` (fixed in SQLite's FTS5; AI Search's default)."""

CHUNK_WEIGHTS: Final = MappingProxyType({"title": 2.0, "heading": 1.5, "text": 1.0})
"""BM25 weights of the chunk index's fields, in column order."""

ENTITY_WEIGHTS: Final = MappingProxyType({"name": 3.0, "aliases": 2.0, "description": 1.0})
"""BM25 weights of the entity index's fields, in column order."""

"""Reciprocal-rank fusion: several rankings of the same keys made one, as a pure function.

A key's fused score is the sum, over the rankings it appears in, of ``1 / (k + rank)`` with
ranks counted from 1. The embedded store fuses its keyword and vector rankings this way; a
backend whose service fuses by itself (AI Search's hybrid queries) need not call it.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import TypeVar

__all__ = ["RRF_K", "fuse", "rrf_scores"]

RRF_K = 60
"""Reciprocal-rank fusion constant (the value AI Search uses too)."""

K = TypeVar("K", bound=Hashable)


def rrf_scores(rankings: Iterable[Sequence[K]], k: int = RRF_K) -> dict[K, float]:
    """Each key's fused score, in the order keys are first met.

    Args:
        rankings: Rankings of keys, best first.
        k: The fusion constant.

    Returns:
        The keys with their summed ``1 / (k + rank)``; a key's terms are added in the order
        of ``rankings``.
    """
    fused: dict[K, float] = {}
    for ranking in rankings:
        for rank, key in enumerate(ranking):
            fused[key] = fused.get(key, 0.0) + 1.0 / (k + rank + 1)
    return fused


def fuse(rankings: Iterable[Sequence[K]], limit: int, k: int = RRF_K) -> list[tuple[K, float]]:
    """The best ``limit`` keys by fused score, ties by key.

    Args:
        rankings: Rankings of keys, best first.
        limit: How many keys to keep.
        k: The fusion constant.

    Returns:
        ``(key, score)`` pairs, best first.
    """
    fused = rrf_scores(rankings, k)
    return sorted(fused.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]

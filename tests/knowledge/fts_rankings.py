"""Rankings as one plain FTS5 query computes them, for tests of the faster paths."""

import pytest

from groundgate.knowledge.embedded.bm25 import match_any as _fts_query
from groundgate.knowledge.embedded.store import SQLiteStore


def plain_ranking(store: SQLiteStore, terms: list[str], limit: int, fts: str = "chunks_fts",
                  weights: str = "2.0, 1.5, 1.0") -> list[tuple[int, float]]:
    """(rowid, score) of the best ``limit`` rows of an OR of ``terms``, as FTS5 ranks them."""
    rows = store._rows(
        f"SELECT rowid, -bm25({fts}, {weights}) AS s FROM {fts} WHERE {fts} MATCH ? "
        "ORDER BY s DESC, rowid LIMIT ?",
        [_fts_query(terms), limit],
    )
    return [(r["rowid"], r["s"]) for r in rows]


def assert_same_ranking(kept, plain) -> None:
    """Same rows in the same order; scores equal up to the last bits of a double."""
    assert [r for r, _ in kept] == [r for r, _ in plain]
    assert [s for _, s in kept] == pytest.approx([s for _, s in plain], rel=1e-12)

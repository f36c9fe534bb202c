"""Every table's rows of an SQLite store, for comparing two ingests of the same corpus."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def table_rows(path: Path) -> dict[str, list[tuple]]:
    """Every table's rows, in any order (FTS5's own segment tables aside: how it packs its
    index depends on how many inserts it was given at once, not on what it holds)."""
    conn = sqlite3.connect(path)
    tables = [
        r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        if "_fts_" not in r[0]
    ]
    out = {t: sorted(conn.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in tables}
    conn.close()
    return out

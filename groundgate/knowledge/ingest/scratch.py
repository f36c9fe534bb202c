"""What pass 1 collects for the whole corpus, kept in a temporary SQLite file, not in objects.

An ingest compares every value statement of the corpus with the others, logs every new
resolution decision, and writes every declared relationship and document description
only in pass 2: a million chunks state about 850,000 values, and as Python objects they
alone were a fifth of the ingest's memory. ``Scratch`` holds them in a private temporary
database (SQLite's ``""`` file name: a file of its own in SQLite's temporary directory,
unlinked as soon as it is open, with a small page cache), and gives them back a unit, a
group or a batch at a time.

It is never the store: an ingest that fails, or is stopped, leaves the store as it was, and
the scratch file goes with the connection or the process, however that ends.
"""

from __future__ import annotations

import pickle
import sqlite3
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from groundgate.knowledge.ingest.extract import ValueStatement
from groundgate.knowledge.model import Relationship, ResolutionDecision, trusted

__all__ = ["Scratch", "StatementRow"]

CACHE_KIB = 8 * 1024
"""SQLite's page cache for the scratch file; the rest of it stays on disk."""

_WINDOW = 500
"""Ids per ``IN (...)`` query (below SQLite's limit on bound parameters)."""

_SCHEMA = """
CREATE TABLE statements (
    id INTEGER PRIMARY KEY, doc_id TEXT NOT NULL, unit TEXT NOT NULL, vals TEXT NOT NULL,
    subject TEXT NOT NULL, sentence TEXT NOT NULL
);
CREATE TABLE decisions (
    id INTEGER PRIMARY KEY, mention TEXT NOT NULL, candidate_id TEXT NOT NULL,
    score REAL NOT NULL, decision TEXT NOT NULL, zone TEXT NOT NULL, reason TEXT NOT NULL,
    new INTEGER NOT NULL,
    UNIQUE (mention, candidate_id, score, decision, zone, reason)
);
CREATE TABLE edges (id INTEGER PRIMARY KEY, edge BLOB NOT NULL);
CREATE TABLE descriptions (id INTEGER PRIMARY KEY, doc_id TEXT NOT NULL, text TEXT NOT NULL);
"""


@dataclass(frozen=True, slots=True)
class StatementRow:
    """A value statement as the detector compares it: values in one spelling, as a string."""

    id: int
    """Its place in the corpus: statements are numbered in reading order."""
    doc_id: str
    sentence: str
    vals: str
    """Its distinct values in one spelling (``normal_value``), sorted, joined by ``\\x1f``."""
    subject: tuple[str, ...]


class Scratch:
    """A private temporary SQLite database for one ingest's statements and decisions."""

    def __init__(self) -> None:
        self._conn = sqlite3.connect("")
        for pragma in ("journal_mode = OFF", "synchronous = OFF", f"cache_size = -{CACHE_KIB}"):
            self._conn.execute(f"PRAGMA {pragma}")
        self._conn.executescript(_SCHEMA)
        self.statements = 0
        """How many statements were added."""
        self.decisions = 0
        """How many new decisions were logged."""

    def close(self) -> None:
        """Let the file go (SQLite deletes it)."""
        self._conn.close()

    # ---- value statements ---------------------------------------------------------------

    def add_statements(self, found: Iterable[ValueStatement], vals: Iterable[str]) -> None:
        """Keep ``found``, after those added before, each with its values as ``vals`` spells them."""
        rows = [
            (s.doc_id, s.unit, v, " ".join(s.subject), s.sentence)
            for s, v in zip(found, vals, strict=True)
        ]
        self._conn.executemany(
            "INSERT INTO statements (doc_id, unit, vals, subject, sentence) VALUES (?,?,?,?,?)", rows
        )
        self.statements += len(rows)

    def units(self) -> list[str]:
        """The units stated, in the order they first occur."""
        return [u for u, in self._conn.execute(
            "SELECT unit FROM statements GROUP BY unit ORDER BY min(id)"
        )]

    def groups(self, unit: str) -> Iterator[tuple[tuple[str, ...], str, str]]:
        """``(subject, vals, ids)`` for each subject and values stated in ``unit``.

        ``ids`` is a comma-separated string (see :meth:`ids`): most groups are never asked
        for their statements.
        """
        intern = sys.intern
        for subject, vals, ids in self._conn.execute(
            "SELECT subject, vals, group_concat(id) FROM statements WHERE unit = ? "
            "GROUP BY subject, vals ORDER BY min(id)", (unit,),
        ):
            yield tuple(intern(w) for w in subject.split()), vals, ids

    @staticmethod
    def ids(group_ids: str) -> list[int]:
        """The statement ids of a group, ascending."""
        return sorted(int(i) for i in group_ids.split(","))

    def doc_ids(self, ids: list[int]) -> dict[int, str]:
        """The document of each statement of ``ids``."""
        found: dict[int, str] = {}
        for start in range(0, len(ids), _WINDOW):
            window = ids[start : start + _WINDOW]
            found.update(self._conn.execute(
                f"SELECT id, doc_id FROM statements WHERE id IN ({','.join('?' * len(window))})",
                window,
            ))
        return found

    def rows(self, ids: list[int]) -> dict[int, StatementRow]:
        """The statements of ``ids``."""
        found: dict[int, StatementRow] = {}
        for start in range(0, len(ids), _WINDOW):
            window = ids[start : start + _WINDOW]
            for sid, doc_id, sentence, vals, subject in self._conn.execute(
                "SELECT id, doc_id, sentence, vals, subject FROM statements "
                f"WHERE id IN ({','.join('?' * len(window))})", window,
            ):
                found[sid] = StatementRow(sid, doc_id, sentence, vals, tuple(subject.split()))
        return found

    # ---- declared relationships and document descriptions -------------------------------

    def add_edge(self, edge: Relationship) -> None:
        """Keep ``edge`` (pickled: it comes back the very object it was) after the others."""
        self._conn.execute("INSERT INTO edges (edge) VALUES (?)", (pickle.dumps(edge),))

    def edges(self, size: int) -> Iterator[list[Relationship]]:
        """The edges in the order they were added, ``size`` at a time."""
        cursor = self._conn.execute("SELECT edge FROM edges ORDER BY id")
        while rows := cursor.fetchmany(size):
            yield [pickle.loads(edge) for edge, in rows]

    def describe(self, doc_id: str, text: str) -> None:
        """Keep a document's description after the others."""
        self._conn.execute("INSERT INTO descriptions (doc_id, text) VALUES (?, ?)", (doc_id, text))

    def descriptions(self) -> Iterator[tuple[str, str]]:
        """``(doc_id, description)`` in the order they were kept."""
        yield from self._conn.execute("SELECT doc_id, text FROM descriptions ORDER BY id")

    # ---- resolution decisions -----------------------------------------------------------

    def know(self, decisions: Iterable[ResolutionDecision]) -> None:
        """Decisions already logged (the store's): never logged again."""
        self._conn.executemany(
            "INSERT OR IGNORE INTO decisions (mention, candidate_id, score, decision, zone, "
            "reason, new) VALUES (?,?,?,?,?,?,0)",
            ((d.mention, d.candidate_id, d.score, d.decision, d.zone, d.reason) for d in decisions),
        )

    def log(self, decision: ResolutionDecision) -> None:
        """Log ``decision`` unless it is known or logged already."""
        cursor = self._conn.execute(
            "INSERT OR IGNORE INTO decisions (mention, candidate_id, score, decision, zone, "
            "reason, new) VALUES (?,?,?,?,?,?,1)",
            (decision.mention, decision.candidate_id, decision.score, decision.decision,
             decision.zone, decision.reason),
        )
        self.decisions += cursor.rowcount

    def logged(self, size: int) -> Iterator[list[ResolutionDecision]]:
        """The new decisions in the order they were logged, ``size`` at a time."""
        cursor = self._conn.execute(
            "SELECT mention, candidate_id, score, decision, zone, reason FROM decisions "
            "WHERE new = 1 ORDER BY id"
        )
        fields = ("mention", "candidate_id", "score", "decision", "zone", "reason")
        while rows := cursor.fetchmany(size):
            yield [trusted(ResolutionDecision, dict(zip(fields, row, strict=True))) for row in rows]

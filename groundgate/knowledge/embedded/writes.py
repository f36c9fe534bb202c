"""The embedded store's write: an ingest batch (or a stream of parts) in one transaction."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from groundgate.knowledge.embedded.connection import Connected
from groundgate.knowledge.embedded.write_documents import write_documents
from groundgate.knowledge.embedded.write_knowledge import (
    upsert_contradiction,
    write_entities,
    write_relationships,
)
from groundgate.knowledge.port import IngestBatch, WriteReport
from groundgate.knowledge.text import STOPWORDS

__all__ = ["Writes"]


class Writes(Connected):
    """``apply`` and ``apply_parts``."""

    def apply(self, batch: IngestBatch, *, now: datetime) -> WriteReport:
        """Write ``batch`` atomically.

        Unchanged documents and edges are left untouched; changed edges are retired and
        re-recorded, so ``known_at`` still sees the past.
        """
        return self.apply_parts([batch], now=now)

    def apply_parts(self, parts: Iterable[IngestBatch], *, now: datetime) -> WriteReport:
        """Write each batch of ``parts`` in order, in one transaction (as ``apply`` does one).

        A part is taken only once the one before it is written, so a caller can make the
        parts as they are written; an error while ``parts`` is iterated rolls back all.
        """
        stamp = now.isoformat()
        totals = [0] * 7
        with self._transaction() as conn:
            for batch in parts:
                written, unchanged, chunks = write_documents(conn, batch)
                write_entities(conn, batch.entities)
                rels, retired = write_relationships(conn, batch.relationships, stamp)
                opened = 0
                for entry in batch.contradictions:
                    opened += upsert_contradiction(conn, entry)
                conn.executemany(
                    "INSERT INTO resolution_log (mention, candidate_id, score, decision, zone, "
                    "reason) VALUES (?,?,?,?,?,?)",
                    [(d.mention, d.candidate_id, d.score, d.decision, d.zone, d.reason)
                     for d in batch.resolution_log],
                )
                counts = (written, unchanged, chunks, len(batch.entities), rels, retired, opened)
                totals = [total + count for total, count in zip(totals, counts, strict=True)]
            # A no-op unless this write (or an earlier one by other code) changed the text.
            for index in (self._chunk_impacts, self._entity_impacts):
                index.refresh_stored(conn, skip_words=STOPWORDS)
        return WriteReport(*totals)

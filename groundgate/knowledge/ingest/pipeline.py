"""``ingest(store, folder)``: read, validate, extract, detect, then write in one transaction.

The reading happens in two passes (``plan.py``, ``parts.py``): the first validates the whole folder and
writes nothing; the second reads the documents again in groups that a ``StreamingWriter``
store writes as they come, inside its one transaction, so memory holds a group's bodies
and chunks rather than the whole corpus's.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from groundgate.errors import ConfigError
from groundgate.knowledge.embed import Embedder
from groundgate.knowledge.ingest.parts import IngestPlan, Progress
from groundgate.knowledge.ingest.plan import plan_ingest
from groundgate.knowledge.port import IngestBatch, KnowledgeStore, StreamingWriter, WritableStore, WriteReport

__all__ = ["IngestReport", "Progress", "build_batch", "ingest"]


@dataclass(frozen=True)
class IngestReport:
    """What one ingest read and wrote."""

    root: str
    files_read: int
    files_skipped: int
    documents: int
    chunks: int
    entities: int
    relationships: int
    contradictions_declared: int
    contradictions_detected: int
    resolution_decisions: int
    write: WriteReport
    skipped: tuple[str, ...] = field(default_factory=tuple)


def build_batch(
    store: KnowledgeStore,
    root: Path,
    *,
    now: datetime,
    embedder: Embedder | None = None,
    progress: Progress | None = None,
) -> tuple[IngestBatch, IngestReport]:
    """Read and validate a folder into one batch without writing anything.

    The whole corpus is then in memory; ``ingest`` streams it into stores that can take it
    in parts.
    """
    with _cyclic_gc_paused():
        plan = plan_ingest(store, Path(root), now=now, progress=progress)
        try:
            batch = _merged(plan.parts(embedder=embedder, progress=progress))
        finally:
            plan.close()
    return batch, _report(plan, WriteReport(0, 0, 0, 0, 0, 0, 0))


def ingest(
    store: WritableStore,
    root: Path | str,
    *,
    now: datetime | None = None,
    embedder: Embedder | None = None,
    progress: Progress | None = None,
    detector: Any = None,
    batch_documents: int | None = None,
) -> IngestReport:
    """Ingest a corpus folder into ``store`` in one transaction.

    ``store`` is read to plan against what it holds (the read port), then written (the write
    port): in parts when it is a ``StreamingWriter``, else in one merged ``apply``.

    ``detector`` (a ``groundgate.policies.detectors`` detector: semantic, a model judge)
    also reads the chunks for disagreements and files them as detected, open entries;
    without one, the lexical reading of value statements does (as it always does).

    ``batch_documents`` (default ``PART_DOCUMENTS``, 1,000) is how many documents, with
    their chunks, vectors and edges, are in memory at once while a store that streams
    (the SQLite one) writes them; what the store holds afterwards does not depend on it.

    Raises:
        CorpusError: A file is malformed; nothing of this ingest was written.
        ConfigError: ``batch_documents`` is below 1.
    """
    if batch_documents is not None and batch_documents < 1:
        raise ConfigError(f"batch_documents must be 1 or more, not {batch_documents}")
    moment = now or datetime.now(UTC).replace(microsecond=0)
    with _cyclic_gc_paused():
        plan = plan_ingest(store, Path(root), now=moment, progress=progress)
        plan.detector = detector
        parts = plan.parts(embedder=embedder, progress=progress, batch_documents=batch_documents)
        try:
            if isinstance(store, StreamingWriter):
                written = store.apply_parts(parts, now=moment)
            else:
                written = store.apply(_merged(parts), now=moment)
        finally:
            plan.close()
    return _report(plan, written)


def _merged(parts: Iterable[IngestBatch]) -> IngestBatch:
    batch = IngestBatch()
    for part in parts:
        batch.documents += part.documents
        batch.chunks += part.chunks
        batch.entities += part.entities
        batch.relationships += part.relationships
        batch.contradictions += part.contradictions
        batch.resolution_log += part.resolution_log
        batch.vectors.update(part.vectors)
    return batch


def _report(plan: IngestPlan, written: WriteReport) -> IngestReport:
    return IngestReport(
        root=str(plan.root),
        files_read=plan.files_read,
        files_skipped=len(plan.skipped),
        documents=len(plan.documents),
        chunks=plan.chunks,
        entities=plan.entities,
        relationships=plan.relationships,
        contradictions_declared=len(plan.contradictions_declared),
        contradictions_detected=len(plan.contradictions_detected),
        resolution_decisions=plan.resolution_decisions,
        write=written,
        skipped=plan.skipped,
    )


@contextmanager
def _cyclic_gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a corpus is read.

    A corpus of 100k chunks is millions of long-lived objects and no cycles; the collector
    walks all of them every time the heap grows by a quarter, a fifth of the build's CPU
    time for nothing. Reference counting still frees everything as usual.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()

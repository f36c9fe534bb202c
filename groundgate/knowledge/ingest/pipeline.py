"""``ingest(store, folder)``: read, validate, extract, detect, then write in one transaction."""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from groundgate.errors import CorpusError
from groundgate.knowledge.embed import Embedder
from groundgate.knowledge.ingest.chunking import chunk_document
from groundgate.knowledge.ingest.contradictions import detect_contradictions
from groundgate.knowledge.ingest.declared import read_contradiction, read_entity, read_relationship
from groundgate.knowledge.ingest.extract import (
    IDENTIFIER,
    MentionIndex,
    ValueStatement,
    defined_terms,
    term_entity,
    value_statements,
)
from groundgate.knowledge.ingest.files import walk_corpus
from groundgate.knowledge.ingest.reader import line_of_key, read_document, read_knowledge
from groundgate.knowledge.model import Contradiction, Document, Entity, Relationship
from groundgate.knowledge.port import IngestBatch, KnowledgeStore, WriteReport
from groundgate.knowledge.resolution import CandidateIndex, match_against

__all__ = ["IngestReport", "build_batch", "ingest"]

Progress = Callable[[str, int, int], None]
"""Called as ``progress(stage, done, total)``."""


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
    """Read and validate a folder into a batch without writing anything."""
    with _cyclic_gc_paused():
        return _build_batch(store, root, now=now, embedder=embedder, progress=progress)


@contextmanager
def _cyclic_gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a batch is built.

    A batch of 100k chunks is millions of long-lived objects and no cycles; the collector
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


def _build_batch(
    store: KnowledgeStore,
    root: Path,
    *,
    now: datetime,
    embedder: Embedder | None,
    progress: Progress | None,
) -> tuple[IngestBatch, IngestReport]:
    root = Path(root)
    if not root.is_dir():
        raise CorpusError(root, None, "no such folder" if not root.exists() else "not a folder")
    files = walk_corpus(root)
    doc_paths, knowledge_paths, skipped = files.documents, files.knowledge, files.skipped
    if not doc_paths and not knowledge_paths:
        raise CorpusError(root, None, "no .md, .txt or .yaml files found")

    documents: dict[str, Document] = {}
    origins: dict[str, Path] = {}
    file_names = Counter(path.stem for path in doc_paths)
    for index, path in enumerate(doc_paths, start=1):
        doc = read_document(path, root, shared_name=file_names[path.stem] > 1)
        if doc.id in documents:
            raise CorpusError(
                path, line_of_key(path, "id"), f"duplicate document id {doc.id!r} (also in {origins[doc.id]})"
            )
        documents[doc.id] = doc
        origins[doc.id] = path
        if progress:
            progress("read", index, len(doc_paths))

    sections = {p: read_knowledge(p) for p in knowledge_paths}
    entities: dict[str, Entity] = {}
    entity_lines: dict[str, tuple[Path, int]] = {}
    for path, parsed in sections.items():
        for item in parsed.get("entities", []):
            record = read_entity(item, path)
            eid = record.id
            if eid in entities or eid in documents:
                first = entity_lines[eid] if eid in entities else (origins[eid], 1)
                raise CorpusError(
                    path, item.at("id"), f"duplicate id {eid!r} (also in {first[0]}:{first[1]})"
                )
            entities[eid] = record
            entity_lines[eid] = (path, item.line)

    # Documents are entities too, and superseded documents end where their successor begins.
    for doc_id, doc in list(documents.items()):
        for old_id in doc.supersedes:
            old = documents.get(old_id)
            if old is None and store.get_document(old_id) is None:
                raise CorpusError(
                    origins[doc_id],
                    line_of_key(origins[doc_id], "supersedes"),
                    f"'supersedes' names unknown document {old_id!r}",
                )
            if old is not None and old.effective_to is None and doc.effective_from:
                documents[old_id] = old.model_copy(update={"effective_to": doc.effective_from})
    doc_entities = {
        d.id: Entity(
            id=d.id, kind="document", name=d.title, owner=d.owner,
            description=d.body[:240], source_ids=(d.id,), origin="document",
        )
        for d in documents.values()
    }

    def known(eid: str) -> bool:
        return eid in entities or eid in doc_entities or store.get_entity(eid) is not None

    for eid, (path, line) in entity_lines.items():
        for sid in entities[eid].source_ids:
            if not known(sid):
                raise CorpusError(path, line, f"source id {sid!r} names no document or entity")
    for doc in documents.values():
        for eid in doc.entity_ids:
            if not known(eid):
                raise CorpusError(
                    origins[doc.id],
                    line_of_key(origins[doc.id], "entities"),
                    f"'entities' names unknown id {eid!r}",
                )

    relationships: dict[str, Relationship] = {}
    for path, parsed in sections.items():
        for item in parsed.get("relationships", []):
            edge = read_relationship(item, path, now, known)
            if edge.id in relationships:
                raise CorpusError(path, item.line, f"duplicate relationship {edge.id!r}")
            relationships[edge.id] = edge
    for doc in documents.values():
        for old_id in doc.supersedes:
            _add_derived(relationships, doc.id, "supersedes", old_id, doc, now)
        for eid in doc.entity_ids:
            _add_derived(relationships, doc.id, "about", eid, doc, now)

    declared: list[Contradiction] = []
    entry_lines: dict[str, tuple[Path, int]] = {}
    for path, parsed in sections.items():
        for item in parsed.get("contradictions", []):
            entry = read_contradiction(item, path, known)
            if entry.id in entry_lines:
                first = entry_lines[entry.id]
                raise CorpusError(
                    path, item.at("id"),
                    f"duplicate contradiction id {entry.id!r} (also in {first[0]}:{first[1]})",
                )
            entry_lines[entry.id] = (path, item.at("id"))
            declared.append(entry)

    # Extraction: mentions, defined terms (resolved against what is declared), values.
    all_entities = {**entities, **doc_entities}
    names: dict[str, str] = {}
    for entity in all_entities.values():
        for name in (entity.name, *entity.aliases):
            key = " ".join(name.lower().split())
            if len(key) >= 3:
                names.setdefault(key, entity.id)
        if entity.kind != "document":
            names.setdefault(entity.id.lower(), entity.id)
    resolution_log = []
    logged = set(store.resolution_log())
    extracted: dict[str, Entity] = {}
    # Terms are scored only against the declared entities that share a word with them;
    # the others could only be logged as "below" (see CandidateIndex).
    candidates = CandidateIndex(entities.values())
    mention_index = MentionIndex(names)
    statements: list[ValueStatement] = []
    for doc in documents.values():
        for target in sorted(mention_index.find(doc.body, doc.id)):
            if f"{doc.id}|about|{target}|" in relationships:
                continue
            _add_derived(relationships, doc.id, "mentions", target, doc, now, origin="extracted")
        for term, sentence in defined_terms(doc):
            matches, decisions = match_against(term, candidates.block(term))
            for decision in decisions:  # each decision is logged once, whatever re-ingests it
                if decision not in logged:
                    logged.add(decision)
                    resolution_log.append(decision)
            target_id = matches[0].entity.id if matches else None
            if target_id is None:
                entity = term_entity(term, sentence, doc)
                target_id = entity.id
                if entity.id not in all_entities:
                    extracted.setdefault(entity.id, entity)
            _add_derived(relationships, doc.id, "mentions", target_id, doc, now, origin="extracted")
        # Right after defined_terms, which split the same body into sentences.
        statements.extend(value_statements(doc))

    chunks = []
    for index, doc in enumerate(documents.values(), start=1):
        chunks.extend(chunk_document(doc))
        if progress:
            progress("chunk", index, len(documents))

    covered = {
        frozenset((a, b))
        for entry in declared
        for a in entry.source_ids
        for b in entry.source_ids
        if a != b
    }
    related = {frozenset((d.id, old)) for d in documents.values() for old in d.supersedes}
    detected = detect_contradictions(
        statements,
        titles={d.id: d.title for d in documents.values()},
        related=related,
        covered=covered,
        entity_ids={d.id: d.entity_ids for d in documents.values()},
        today=now.date(),
        subjects={
            d.id: frozenset(
                {m.group(0) for m in IDENTIFIER.finditer(d.title) if m.group(0) != d.id}
                | set(d.entity_ids)
            )
            for d in documents.values()
        },
    )

    vectors: dict[str, list[float]] = {}
    if embedder is not None and chunks:
        texts = [f"{c.heading}\n{c.text}" for c in chunks]
        for start in range(0, len(texts), 256):
            batch_vectors = embedder.embed_documents(texts[start : start + 256])
            for chunk, vector in zip(chunks[start : start + 256], batch_vectors, strict=True):
                vectors[chunk.id] = vector
            if progress:
                progress("embed", min(start + 256, len(texts)), len(texts))

    batch = IngestBatch(
        documents=list(documents.values()),
        chunks=chunks,
        entities=[*entities.values(), *doc_entities.values(), *extracted.values()],
        relationships=list(relationships.values()),
        contradictions=[*declared, *detected],
        resolution_log=resolution_log,
        vectors=vectors,
    )
    empty = WriteReport(0, 0, 0, 0, 0, 0, 0)
    report = IngestReport(
        root=str(root),
        files_read=len(doc_paths) + len(knowledge_paths),
        files_skipped=len(skipped),
        documents=len(documents),
        chunks=len(chunks),
        entities=len(batch.entities),
        relationships=len(relationships),
        contradictions_declared=len(declared),
        contradictions_detected=len(detected),
        resolution_decisions=len(resolution_log),
        write=empty,
        skipped=tuple(skipped),
    )
    return batch, report


def ingest(
    store: KnowledgeStore,
    root: Path | str,
    *,
    now: datetime | None = None,
    embedder: Embedder | None = None,
    progress: Progress | None = None,
) -> IngestReport:
    """Ingest a corpus folder into ``store`` in one transaction.

    Raises:
        CorpusError: A file is malformed; nothing of this ingest was written.
    """
    moment = now or datetime.now(UTC).replace(microsecond=0)
    batch, report = build_batch(store, Path(root), now=moment, embedder=embedder, progress=progress)
    written = store.apply(batch, now=moment)
    return IngestReport(**{**report.__dict__, "write": written})


def _add_derived(
    edges: dict[str, Relationship],
    source: str,
    kind: str,
    target: str,
    doc: Document,
    now: datetime,
    origin: str = "document",
) -> None:
    edge_id = f"{source}|{kind}|{target}|"
    if edge_id in edges or source == target:
        return
    edges[edge_id] = Relationship(
        id=edge_id,
        source=source,
        type=kind,
        target=target,
        recorded_at=now,
        source_ids=(doc.id,),
        origin=origin,  # type: ignore[arg-type]
    )

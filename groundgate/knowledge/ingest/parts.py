"""Pass 2 of an ingest: the documents read again, in parts a store writes as they come.

See ``plan.py`` for the two passes. ``IngestPlan`` is what pass 1 leaves: every record of
the corpus but the documents' bodies and chunks, which ``IngestPlan.parts`` makes
``PART_DOCUMENTS`` documents at a time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, datetime
from itertools import chain, islice
from pathlib import Path
from typing import Any

from groundgate.errors import CorpusError
from groundgate.knowledge.embed import Embedder
from groundgate.knowledge.ingest.chunking import chunk_document
from groundgate.knowledge.ingest.extract import MentionIndex
from groundgate.knowledge.ingest.files import read_text
from groundgate.knowledge.ingest.reader import parse_document
from groundgate.knowledge.ingest.scratch import Scratch
from groundgate.knowledge.model import (
    Chunk,
    Contradiction,
    Document,
    Entity,
    Relationship,
    Validity,
)
from groundgate.knowledge.port import IngestBatch

__all__ = ["PART_DOCUMENTS", "DocumentRecord", "IngestPlan", "Progress"]

Progress = Callable[[str, int, int], None]
"""Called as ``progress(stage, done, total)``."""

PART_DOCUMENTS = 1_000
"""Documents per batch of pass 2: their bodies, chunks and edges are what memory holds."""


@dataclass(slots=True)
class DocumentRecord:
    """What pass 1 keeps of a document: enough to check, date, name and describe it.

    One is held for every document until the ingest ends, so it is kept small: the path
    as a string, and owners, entity ids and dates shared between records (``plan.py``).
    """

    where: str
    """The file's path (``path`` as a string: a ``Path`` object costs 400 bytes)."""
    shared_name: bool
    text_hash: int
    """``hash()`` of the file's text, to tell that pass 2 reads what pass 1 read."""
    title: str
    owner: str | None
    """Its description (the body's opening) waits in the scratch file for pass 2's end."""
    entity_ids: tuple[str, ...]
    supersedes: tuple[str, ...]
    effective_from: date | None
    effective_to: date | None
    """As read, or where a successor begins."""

    @property
    def path(self) -> Path:
        """The file."""
        return Path(self.where)

    @property
    def validity(self) -> Validity:
        """The effective window."""
        return Validity(valid_from=self.effective_from, valid_to=self.effective_to)


@dataclass
class IngestPlan:
    """What pass 1 learned of a corpus: everything but the documents' bodies and chunks."""

    root: Path
    now: datetime
    files_read: int
    skipped: tuple[str, ...]
    documents: dict[str, DocumentRecord]
    """In reading order."""
    declared_entities: list[Entity]
    extracted_entities: list[Entity]
    declared_edges: set[str]
    """The ids of the declared relationships; the edges wait in ``scratch``, and ``parts``
    writes them first, ``batch_documents`` at a time."""
    term_targets: dict[str, list[str]]
    """Document id to the entities its defined terms resolved to, in order."""
    names: dict[str, str]
    contradictions_declared: list[Contradiction]
    contradictions_detected: list[Contradiction]
    scratch: Scratch
    """The value statements (compared already), the new resolution decisions, the declared
    relationships and the documents' descriptions."""
    chunks: int = 0
    """Chunks pass 2 has made so far."""
    relationships: int = 0
    """Relationships pass 2 has yielded so far."""
    detector: Any = None
    """A detector of the gate's protocol that also reads the chunks at ingest (``detected.py``);
    ``None``: the lexical reading of value statements only."""

    @property
    def resolution_decisions(self) -> int:
        """How many resolution decisions the ingest logs (the ones the store has not)."""
        return self.scratch.decisions

    def close(self) -> None:
        """Let the scratch file go; ``parts`` cannot run after."""
        self.scratch.close()

    @property
    def entities(self) -> int:
        """How many entities the ingest writes (declared, one per document, extracted)."""
        return len(self.declared_entities) + len(self.documents) + len(self.extracted_entities)

    def parts(
        self,
        embedder: Embedder | None = None,
        progress: Progress | None = None,
        batch_documents: int | None = None,
    ) -> Iterator[IngestBatch]:
        """Pass 2: batches of ``batch_documents`` documents with their chunks, then the rest.

        The rest (the entities, the resolution log, the register) comes in batches of at
        most ``batch_documents`` entities or decisions too, the register with the last.
        ``None``: ``PART_DOCUMENTS``.

        Raises:
            CorpusError: A document cannot be read again, or changed since pass 1.
        """
        size = PART_DOCUMENTS if batch_documents is None else batch_documents
        mentions = MentionIndex(self.names)
        ids = list(self.documents)
        declared = self.declared_edges
        for edges in self.scratch.edges(size):
            self.relationships += len(edges)
            yield IngestBatch(relationships=edges)
        read: list[tuple[Chunk, str, Validity]] = []  # what a detector reads, when one is given
        for start in range(0, len(ids), size):
            docs = [self._read_again(doc_id) for doc_id in ids[start : start + size]]
            done = start + len(docs)
            if progress:
                progress("chunk", done, len(ids))
            part = self._part(docs, self._edges(docs, mentions, declared), embedder, progress, done)
            if self.detector is not None:
                read.extend((c, self.documents[c.doc_id].title, self.documents[c.doc_id].validity)
                            for c in part.chunks)
            yield part
        if self.detector is not None:
            self.contradictions_detected += self._detected(read)
        entities = chain(self.declared_entities, self._document_entities(), self.extracted_entities)
        # One document entity per document: made a batch at a time, never all at once.
        group = list(islice(entities, size))
        while True:
            after = list(islice(entities, size))
            if not after:
                break
            yield IngestBatch(entities=group)
            group = after
        for decisions in self.scratch.logged(size):
            yield IngestBatch(resolution_log=decisions)
        yield IngestBatch(
            entities=group,
            contradictions=[*self.contradictions_declared, *self.contradictions_detected],
        )

    def _detected(self, read: list[tuple[Chunk, str, Validity]]) -> list[Contradiction]:
        """What the detector finds in the chunks, as detected, open entries (``detected.py``)."""
        from groundgate.knowledge.ingest.detected import detect_with

        declared = self.contradictions_declared
        return detect_with(
            self.detector, read,
            related={frozenset((i, old)) for i, d in self.documents.items() for old in d.supersedes},
            covered={
                frozenset((a, b)) for e in declared for a in e.source_ids for b in e.source_ids if a != b
            },
            entity_ids={i: d.entity_ids for i, d in self.documents.items()},
            today=self.now.date(), already=self.contradictions_detected,
        )

    def _read_again(self, doc_id: str) -> Document:
        record = self.documents[doc_id]
        text = read_text(record.path)
        if hash(text) != record.text_hash:
            raise CorpusError(record.path, None, "the file changed while the corpus was read")
        doc = parse_document(text, record.path, self.root, shared_name=record.shared_name)
        if doc.effective_to != record.effective_to:  # ended by its successor in pass 1
            doc = doc.model_copy(update={"effective_to": record.effective_to})
        return doc

    def _edges(
        self, docs: list[Document], mentions: MentionIndex, declared: set[str]
    ) -> list[Relationship]:
        """The edges ``docs`` imply: supersession and aboutness, then mentions.

        Each edge's id starts with its document's id, so only a declared edge or one of the
        same document can share it.
        """
        edges: dict[str, Relationship] = {}

        def add(source: str, kind: str, target: str, origin: str = "document") -> None:
            edge_id = f"{source}|{kind}|{target}|"
            if edge_id in edges or edge_id in declared or source == target:
                return
            edges[edge_id] = Relationship(
                id=edge_id, source=source, type=kind, target=target, recorded_at=self.now,
                source_ids=(source,), origin=origin,  # type: ignore[arg-type]
            )

        for doc in docs:
            for old_id in doc.supersedes:
                add(doc.id, "supersedes", old_id)
            for eid in doc.entity_ids:
                add(doc.id, "about", eid)
        for doc in docs:
            for target in sorted(mentions.find(doc.body, doc.id)):
                about = f"{doc.id}|about|{target}|"
                if about not in edges and about not in declared:
                    add(doc.id, "mentions", target, origin="extracted")
            for target in self.term_targets.get(doc.id, ()):
                add(doc.id, "mentions", target, origin="extracted")
        return list(edges.values())

    def _document_entities(self) -> Iterator[Entity]:
        for doc_id, description in self.scratch.descriptions():
            record = self.documents[doc_id]
            yield Entity(
                id=doc_id, kind="document", name=record.title, owner=record.owner,
                description=description, source_ids=(doc_id,), origin="document",
            )

    def _part(
        self,
        docs: list[Document],
        edges: list[Relationship],
        embedder: Embedder | None,
        progress: Progress | None,
        done: int,
    ) -> IngestBatch:
        chunks = [chunk for doc in docs for chunk in chunk_document(doc)]
        self.chunks += len(chunks)
        self.relationships += len(edges)
        vectors: dict[str, list[float]] = {}
        if embedder is not None and chunks:
            for start in range(0, len(chunks), 256):
                window = chunks[start : start + 256]
                embedded = embedder.embed_documents([f"{c.heading}\n{c.text}" for c in window])
                vectors.update({c.id: v for c, v in zip(window, embedded, strict=True)})
            if progress:
                progress("embed", done, len(self.documents))
        return IngestBatch(documents=docs, chunks=chunks, relationships=edges, vectors=vectors)

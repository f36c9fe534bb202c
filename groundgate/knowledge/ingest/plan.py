"""Ingest in two passes over the documents, so that only a few bodies are held at a time.

Pass 1 (``plan_ingest``) reads and validates everything: the declared knowledge, then
every document, from whose body it takes what the whole corpus needs (defined terms and
their resolution, value statements) before letting the body go; then it ends superseded
documents, checks every id and detects contradictions. It writes nothing to the store, so
a bad file stops the ingest before any write. Of each document it keeps a small
``DocumentRecord``; what else grows with the corpus (value statements, new resolution
decisions, declared relationships, descriptions) goes to a temporary SQLite file of its
own (``scratch.py``), never the store, and comes back a group or a batch at a time.

Pass 2 (``IngestPlan.parts``) yields the declared relationships first, ``PART_DOCUMENTS``
at a time; then it reads the documents again, as many at a time, finds their mentions
(which need every name of the corpus, known only after pass 1), chunks and embeds them,
and yields each group as a batch with the edges its documents imply; the entities and the
resolution log come after every document (as ``apply`` writes them), the register last.
A store that writes the parts in one transaction as they come (``StreamingWriter``) holds
one group's bodies, chunks and edges, not the corpus's. A file that changed between the
passes is an error.

For a corpus of at most ``PART_DOCUMENTS`` documents the records, and their order, are
those of one batch built at once; for a larger one, edges are written group by group.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from groundgate.errors import CorpusError
from groundgate.knowledge.ingest.contradictions import detect_contradictions, values_key
from groundgate.knowledge.ingest.declared import read_contradiction, read_entity, read_relationship
from groundgate.knowledge.ingest.extract import (
    IDENTIFIER,
    defined_terms,
    term_entity,
    value_statements,
)
from groundgate.knowledge.ingest.files import read_text, walk_corpus
from groundgate.knowledge.ingest.parts import DocumentRecord, IngestPlan, Progress
from groundgate.knowledge.ingest.reader import Located, line_of_key, parse_document, read_knowledge
from groundgate.knowledge.ingest.scratch import Scratch
from groundgate.knowledge.model import Contradiction, Entity
from groundgate.knowledge.port import KnowledgeStore
from groundgate.knowledge.resolution import CandidateIndex, match_against

__all__ = ["plan_ingest"]

T = TypeVar("T")
V = TypeVar("V")


def plan_ingest(
    store: KnowledgeStore, root: Path, *, now: datetime, progress: Progress | None = None
) -> IngestPlan:
    """Pass 1: read and validate a folder; nothing is written.

    The plan keeps the value statements and new resolution decisions in a temporary file
    (``scratch.py``): ``IngestPlan.close`` lets it go.

    Raises:
        CorpusError: A file is malformed, or an id names nothing; names file and line.
    """
    scratch = Scratch()
    try:
        return _plan(store, Path(root), scratch, now=now, progress=progress)
    except BaseException:
        scratch.close()
        raise


def _plan(
    store: KnowledgeStore, root: Path, scratch: Scratch, *, now: datetime, progress: Progress | None
) -> IngestPlan:
    if not root.is_dir():
        raise CorpusError(root, None, "no such folder" if not root.exists() else "not a folder")
    files = walk_corpus(root)
    if not files.documents and not files.knowledge:
        raise CorpusError(root, None, "no .md, .txt or .yaml files found")

    sections = {p: read_knowledge(p) for p in files.knowledge}
    entities: dict[str, Entity] = {}
    entity_lines: dict[str, tuple[Path, int]] = {}
    id_lines: dict[str, int] = {}
    for path, parsed in sections.items():
        for item in _taken(parsed, "entities"):
            entity = read_entity(item, path)
            if entity.id in entities:
                first = entity_lines[entity.id]
                raise CorpusError(
                    path, item.at("id"), f"duplicate id {entity.id!r} (also in {first[0]}:{first[1]})"
                )
            entities[entity.id] = entity
            entity_lines[entity.id] = (path, item.line)
            id_lines[entity.id] = item.at("id")

    scratch.know(store.resolution_log())
    reading = _Reading(CandidateIndex(entities.values()), scratch)
    documents: dict[str, DocumentRecord] = {}
    file_names = Counter(path.stem for path in files.documents)
    for index, path in enumerate(files.documents, start=1):
        doc_id, record = reading.read(path, root, shared_name=file_names[path.stem] > 1)
        if doc_id in documents:
            raise CorpusError(
                path, line_of_key(path, "id"),
                f"duplicate document id {doc_id!r} (also in {documents[doc_id].path})",
            )
        documents[doc_id] = record
        if progress:
            progress("read", index, len(files.documents))
    files_read, skipped = len(files.documents) + len(files.knowledge), tuple(files.skipped)
    del files  # a Path per file; the records keep their paths as strings
    for eid, (path, _) in entity_lines.items():
        if eid in documents:
            raise CorpusError(path, id_lines[eid], f"duplicate id {eid!r} (also in {documents[eid].path}:1)")

    # Superseded documents end where their successor begins (and so do their statements,
    # which the detector dates by their document).
    for doc in documents.values():  # an end is set on the superseded, never on its successor
        for old_id in doc.supersedes:
            old = documents.get(old_id)
            if old is None and store.get_document(old_id) is None:
                path = doc.path
                raise CorpusError(
                    path, line_of_key(path, "supersedes"),
                    f"'supersedes' names unknown document {old_id!r}",
                )
            if old is not None and old.effective_to is None and doc.effective_from:
                old.effective_to = doc.effective_from

    def known(eid: str) -> bool:
        return eid in entities or eid in documents or store.get_entity(eid) is not None

    for eid, (path, line) in entity_lines.items():
        for sid in entities[eid].source_ids:
            if not known(sid):
                raise CorpusError(path, line, f"source id {sid!r} names no document or entity")
    for record in documents.values():
        for eid in record.entity_ids:
            if not known(eid):
                raise CorpusError(
                    record.path, line_of_key(record.path, "entities"), f"'entities' names unknown id {eid!r}"
                )

    edge_ids: set[str] = set()
    for path, parsed in sections.items():
        for item in _taken(parsed, "relationships"):
            edge = read_relationship(item, path, now, known)
            if edge.id in edge_ids:
                raise CorpusError(path, item.line, f"duplicate relationship {edge.id!r}")
            edge_ids.add(edge.id)
            scratch.add_edge(edge)

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
    del sections  # the YAML as read, with its line marks: not needed any more

    extracted = [e for eid, e in reading.terms.items() if eid not in entities and eid not in documents]
    return IngestPlan(
        root=root,
        now=now,
        files_read=files_read,
        skipped=skipped,
        documents=documents,
        declared_entities=list(entities.values()),
        extracted_entities=extracted,
        declared_edges=edge_ids,
        term_targets=reading.term_targets,
        names=_names(entities.values(), documents),
        contradictions_declared=declared,
        contradictions_detected=_detect(documents, scratch, declared, now),
        scratch=scratch,
    )


class _Reading:
    """Pass 1 over one document at a time: what its body tells the whole corpus."""

    def __init__(self, candidates: CandidateIndex, scratch: Scratch) -> None:
        # Defined terms are resolved against the declared entities that share a word with
        # them (the others could only be logged as "below", see CandidateIndex).
        self.candidates = candidates
        self.scratch = scratch
        """Where the value statements and the new resolution decisions go (``scratch.py``)."""
        self.terms: dict[str, Entity] = {}
        self.term_targets: dict[str, list[str]] = {}
        self._shared: dict[Any, Any] = {}
        """Equal owners, entity ids and dates of many records as one object each."""

    def _one(self, value: T) -> T:
        return self._shared.setdefault(value, value)

    def read(self, path: Path, root: Path, *, shared_name: bool) -> tuple[str, DocumentRecord]:
        text = read_text(path)
        doc = parse_document(text, path, root, shared_name=shared_name)
        for term, sentence in defined_terms(doc):
            matches, decisions = match_against(term, self.candidates.block(term))
            for decision in decisions:  # each decision is logged once, whatever re-ingests it
                self.scratch.log(decision)
            target = matches[0].entity if matches else term_entity(term, sentence, doc)
            if not matches:
                self.terms.setdefault(target.id, target)
            self.term_targets.setdefault(doc.id, []).append(target.id)
        # A duplicate id is refused by the caller (before anything is compared or written).
        found = value_statements(doc)  # after defined_terms: the same sentences
        self.scratch.add_statements(found, map(values_key, found))
        self.scratch.describe(doc.id, doc.body[:240])
        one = self._one
        return doc.id, DocumentRecord(
            where=str(path), shared_name=shared_name, text_hash=hash(text), title=doc.title,
            owner=one(doc.owner),
            entity_ids=tuple(one(e) for e in doc.entity_ids),
            supersedes=tuple(one(d) for d in doc.supersedes),
            effective_from=one(doc.effective_from), effective_to=one(doc.effective_to),
        )


def _taken(parsed: dict[str, list[Located]], section: str) -> Iterator[Located]:
    """The items of one section of a knowledge file, in order, each let go once read.

    A declared entity or relationship is then held once (as a record), never twice (as
    YAML with its line marks too): a corpus can declare hundreds of thousands.
    """
    items = parsed.get(section, [])
    items.reverse()
    while items:
        yield items.pop()


def _names(entities: Iterable[Entity], documents: dict[str, DocumentRecord]) -> dict[str, str]:
    """Lower-cased names and aliases (and declared ids) to the entity or document they name."""
    names: dict[str, str] = {}
    for entity in entities:
        for name in (entity.name, *entity.aliases):
            key = " ".join(name.lower().split())
            if len(key) >= 3:
                names.setdefault(key, entity.id)
        if entity.kind != "document":
            names.setdefault(entity.id.lower(), entity.id)
    for doc_id, record in documents.items():
        key = " ".join(record.title.lower().split())
        if len(key) >= 3:
            names.setdefault(key, doc_id)
    return names


def _detect(
    documents: dict[str, DocumentRecord],
    scratch: Scratch,
    declared: list[Contradiction],
    now: datetime,
) -> list[Contradiction]:
    """Open register entries for documents that state conflicting values."""
    covered = {
        frozenset((a, b))
        for entry in declared
        for a in entry.source_ids
        for b in entry.source_ids
        if a != b
    }
    related = {frozenset((i, old)) for i, d in documents.items() for old in d.supersedes}

    def subject(doc_id: str, d: DocumentRecord) -> frozenset[str]:
        ids = {m.group(0) for m in IDENTIFIER.finditer(d.title) if m.group(0) != doc_id}
        return frozenset(ids | set(d.entity_ids))

    # Views over the records, not dicts of every document: the detector looks up only the
    # documents of the statements it compares.
    return detect_contradictions(
        scratch,
        validity=_View(documents, lambda i, d: d.validity),
        titles=_View(documents, lambda i, d: d.title),
        related=related,
        covered=covered,
        entity_ids=_View(documents, lambda i, d: d.entity_ids),
        today=now.date(),
        subjects=_View(documents, subject),
    )


class _View(Mapping[str, V]):
    """A read-only mapping of document id to something computed from its record when asked."""

    def __init__(
        self, documents: dict[str, DocumentRecord], make: Callable[[str, DocumentRecord], V]
    ) -> None:
        self._documents = documents
        self._make = make

    def __getitem__(self, doc_id: str) -> V:
        return self._make(doc_id, self._documents[doc_id])

    def __iter__(self) -> Iterator[str]:
        return iter(self._documents)

    def __len__(self) -> int:
        return len(self._documents)

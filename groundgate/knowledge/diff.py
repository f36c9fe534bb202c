"""Diffs of two versions of a document (or of the text behind two entities)."""

from __future__ import annotations

import difflib

from groundgate.errors import StoreError
from groundgate.knowledge.ingest.extract import sentences
from groundgate.knowledge.model import DocumentDiff
from groundgate.knowledge.port import KnowledgeStore

__all__ = ["diff_versions", "previous_version"]


def previous_version(store: KnowledgeStore, doc_id: str) -> str | None:
    """The id of the document ``doc_id`` supersedes, if any."""
    doc = store.get_document(doc_id)
    return doc.supersedes[0] if doc and doc.supersedes else None


def _text(store: KnowledgeStore, ref: str) -> str:
    doc = store.get_document(ref)
    if doc is not None:
        return doc.body
    entity = store.get_entity(ref)
    if entity is not None:
        return entity.description
    raise StoreError(f"nothing with id {ref!r}")


def diff_versions(store: KnowledgeStore, old_id: str, new_id: str) -> DocumentDiff:
    """Sentences added and removed between two versions, plus a unified diff."""
    old_sentences = sentences(_text(store, old_id))
    new_sentences = sentences(_text(store, new_id))
    old_set, new_set = set(old_sentences), set(new_sentences)
    unified = "\n".join(
        difflib.unified_diff(old_sentences, new_sentences, old_id, new_id, lineterm="", n=0)
    )
    return DocumentDiff(
        old_id=old_id,
        new_id=new_id,
        added=tuple(s for s in new_sentences if s not in old_set),
        removed=tuple(s for s in old_sentences if s not in new_set),
        unified=unified,
    )

"""Supersession disclosure: an answer citing a superseded source says so, and by which document.

A document that declares ``supersedes: OLD`` in its front matter ends OLD's validity where
it begins, so ``as_of`` searches stop finding OLD. One file can retire another that way;
the answer must not let it happen silently. Whenever the answer cites a source that some
document declares it supersedes (a position's source from the register included), the
answer names the superseding document and the date it takes effect.
"""

from __future__ import annotations

from collections.abc import Iterable

from groundgate.knowledge.model import Document
from groundgate.knowledge.port import KnowledgeStore

__all__ = ["superseded_note", "successors"]


def successors(store: KnowledgeStore, source_ids: Iterable[str]) -> dict[str, tuple[Document, ...]]:
    """For each cited source some document declares it supersedes, those documents.

    Only a front-matter declaration counts (the successor's ``supersedes`` names the
    source), whatever the ``as_of`` date: the disclosure is about the documents, not the day.
    """
    found: dict[str, tuple[Document, ...]] = {}
    for sid in dict.fromkeys(source_ids):
        newer: dict[str, Document] = {}
        for edge in store.relationships(sid, types=["supersedes"]):
            if edge.target != sid or edge.source in newer:
                continue
            doc = store.get_document(edge.source)
            if doc is not None and sid in doc.supersedes:
                newer[doc.id] = doc
        if newer:
            found[sid] = tuple(sorted(newer.values(), key=lambda d: (str(d.effective_from or ""), d.id)))
    return found


def superseded_note(source_id: str, title: str, newer: Iterable[Document]) -> str:
    """The sentence that says a cited source was superseded, by which document and from when."""
    by = "; ".join(
        f"{doc.id} ({doc.title})"
        + (f", in force from {doc.effective_from.isoformat()}" if doc.effective_from else "")
        for doc in newer
    )
    named = f"{source_id} ({title})" if title else source_id
    return f"Superseded: {named} is declared superseded by {by}."

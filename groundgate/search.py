"""The plain search surface (``groundgate search`` and its Python form)."""

from __future__ import annotations

from datetime import date

from groundgate.knowledge.backends import open_backend
from groundgate.knowledge.embed import make_embedder
from groundgate.knowledge.model import EvidenceHit
from groundgate.knowledge.port import KnowledgeStore
from groundgate.settings import Settings

__all__ = ["best_per_document", "search_documents", "search_store"]


def best_per_document(hits: list[EvidenceHit], top_k: int) -> list[EvidenceHit]:
    """Keep each document's best chunk, in rank order, at most ``top_k``."""
    seen: set[str] = set()
    out = []
    for hit in hits:
        if hit.doc_id in seen:
            continue
        seen.add(hit.doc_id)
        out.append(hit)
        if len(out) == top_k:
            break
    return out


def search_store(
    store: KnowledgeStore, query: str, *, top_k: int = 5, as_of: date | None = None,
    query_vector: list[float] | None = None,
) -> list[EvidenceHit]:
    """Document-level hits from a store: best chunk per document, best first."""
    hits = store.search_evidence(query, top_k=top_k * 4, as_of=as_of, query_vector=query_vector)
    return best_per_document(hits, top_k)


def search_documents(
    settings: Settings, query: str, *, top_k: int = 5, as_of: date | None = None
) -> list[EvidenceHit]:
    """Search the store ``settings`` name (the bundled corpus by default)."""
    embedder = make_embedder(settings.embedder)
    store = open_backend(settings, embedder=embedder)
    try:
        vector = embedder.embed_query(query) if embedder else None
        return search_store(store, query, top_k=top_k, as_of=as_of, query_vector=vector)
    finally:
        store.close()

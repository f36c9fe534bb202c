"""A read-port (``KnowledgeStore``) wrapper that opens a ``retrieval`` span for every evidence search."""

from __future__ import annotations

import json
from typing import Any

from opentelemetry.trace import SpanKind, Tracer

from groundgate.knowledge.port import KnowledgeStore
from groundgate.telemetry import attributes as a

__all__ = ["TracedStore"]


class TracedStore:
    """Delegates every read-port operation to ``store``; ``search_evidence`` also records a span.

    The span carries the query (when content is recorded), ``top_k``, and the hits as
    document ids with their scores, best first.
    """

    def __init__(self, store: KnowledgeStore, tracer: Tracer, *, record_content: bool = True) -> None:
        self._store = store
        self._tracer = tracer
        self._record_content = record_content

    @property
    def inner(self) -> KnowledgeStore:
        """The wrapped store."""
        return self._store

    def search_evidence(self, query: str, **kwargs: Any) -> Any:
        """Evidence search inside a ``retrieval evidence`` span."""
        attributes: dict[str, Any] = {
            a.OPERATION_NAME: "retrieval",
            a.DATA_SOURCE_ID: "evidence",
            a.REQUEST_TOP_K: int(kwargs.get("top_k", 8)),
        }
        if self._record_content:
            attributes[a.RETRIEVAL_QUERY_TEXT] = query
        with self._tracer.start_as_current_span(
            "retrieval evidence", kind=SpanKind.INTERNAL, attributes=attributes
        ) as span:
            hits = self._store.search_evidence(query, **kwargs)
            docs = [
                {"id": h.chunk_id, "document_id": h.doc_id, "score": round(float(h.score), 4)} for h in hits
            ]
            span.set_attributes({
                a.RETRIEVAL_DOCUMENTS: json.dumps(docs),
                a.GG_DOCUMENT_IDS: [h.doc_id for h in hits],
                a.GG_SCORES: [round(float(h.score), 4) for h in hits],
                a.GG_RESULT_COUNT: len(hits),
            })
        return hits

    def search_knowledge(self, *args: Any, **kwargs: Any) -> Any:
        """Delegated."""
        return self._store.search_knowledge(*args, **kwargs)

    def get_entity(self, *args: Any, **kwargs: Any) -> Any:
        """Delegated."""
        return self._store.get_entity(*args, **kwargs)

    def get_document(self, *args: Any, **kwargs: Any) -> Any:
        """Delegated."""
        return self._store.get_document(*args, **kwargs)

    def find_entities(self, *args: Any, **kwargs: Any) -> Any:
        """Delegated."""
        return self._store.find_entities(*args, **kwargs)

    def all_entities(self, *args: Any, **kwargs: Any) -> Any:
        """Delegated."""
        return self._store.all_entities(*args, **kwargs)

    def relationships(self, *args: Any, **kwargs: Any) -> Any:
        """Delegated."""
        return self._store.relationships(*args, **kwargs)

    def traverse(self, *args: Any, **kwargs: Any) -> Any:
        """Delegated."""
        return self._store.traverse(*args, **kwargs)

    def contradictions(self, *args: Any, **kwargs: Any) -> Any:
        """Delegated."""
        return self._store.contradictions(*args, **kwargs)

    def documents_about(self, *args: Any, **kwargs: Any) -> Any:
        """Delegated."""
        return self._store.documents_about(*args, **kwargs)

    def resolution_log(self, *args: Any, **kwargs: Any) -> Any:
        """Delegated."""
        return self._store.resolution_log(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        # Backend extras beyond the port (e.g. ``close``) stay reachable.
        return getattr(self._store, name)

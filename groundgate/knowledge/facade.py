"""``ReadFacade``: the read port's keyword methods, written once for every backend.

A backend subclasses it and implements the typed operations behind the five methods that
take filters: each gets its arguments already normalised (bounds held, sequences made
tuples) in one of the port's query types, and the register filter is applied here:

```
search_evidence(query, top_k=..., ...)  ->  _search_evidence(EvidenceQuery)
search_knowledge(query, top_k=..., ...) ->  _search_knowledge(KnowledgeQuery)
relationships(entity_id, types=..., ...) -> _relationships(entity_id, EdgeFilter)
traverse(start, hops=..., ...)          ->  _traverse(PathQuery)   (default: walk _relationships)
contradictions(entity_ids=..., topic=..., status=...)
                                        ->  select_entries(_contradictions(status), ...)
```

The other six lookups of the port (``get_entity`` ...) take no options and are implemented
as they stand. The port's docstrings (``knowledge.port.KnowledgeStore``) say what each returns.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from datetime import date, datetime

from typing_extensions import override

from groundgate.knowledge.model import Contradiction, EvidenceHit, KnowledgeHit, Relationship, TraversalPath
from groundgate.knowledge.port import EdgeFilter, EvidenceQuery, KnowledgeQuery, KnowledgeStore, PathQuery
from groundgate.knowledge.register import select_entries
from groundgate.knowledge.traversal import walk

__all__ = ["ReadFacade"]


class ReadFacade(KnowledgeStore):
    """The keyword read methods over typed operations a backend implements."""

    @override
    def search_evidence(
        self,
        query: str,
        *,
        top_k: int = 8,
        as_of: date | None = None,
        kinds: Sequence[str] = (),
        query_vector: Sequence[float] | None = None,
    ) -> list[EvidenceHit]:
        return self._search_evidence(
            EvidenceQuery(query, top_k=top_k, as_of=as_of, kinds=tuple(kinds), vector=query_vector)
        )

    @override
    def search_knowledge(
        self, query: str, *, top_k: int = 8, kinds: Sequence[str] = ()
    ) -> list[KnowledgeHit]:
        return self._search_knowledge(KnowledgeQuery(query, top_k=top_k, kinds=tuple(kinds)))

    @override
    def relationships(
        self,
        entity_id: str,
        *,
        types: Sequence[str] = (),
        as_of: date | None = None,
        known_at: datetime | None = None,
    ) -> list[Relationship]:
        return self._relationships(entity_id, EdgeFilter(tuple(types), as_of, known_at))

    @override
    def traverse(
        self,
        start: str,
        *,
        hops: int = 2,
        types: Sequence[str] = (),
        as_of: date | None = None,
        known_at: datetime | None = None,
        limit: int = 50,
    ) -> list[TraversalPath]:
        return self._traverse(
            PathQuery(start, hops=hops, limit=limit, edges=EdgeFilter(tuple(types), as_of, known_at))
        )

    @override
    def contradictions(
        self,
        *,
        entity_ids: Sequence[str] = (),
        topic: str | None = None,
        status: str | None = "open",
    ) -> list[Contradiction]:
        return select_entries(self._contradictions(status), entity_ids=entity_ids, topic=topic)

    # ---- what a backend implements ------------------------------------------------------

    @abstractmethod
    def _search_evidence(self, query: EvidenceQuery) -> list[EvidenceHit]:
        """Evidence hits for ``query``, best first, the best scored 1.0."""

    @abstractmethod
    def _search_knowledge(self, query: KnowledgeQuery) -> list[KnowledgeHit]:
        """Entity hits for ``query``, best first, the best scored 1.0."""

    @abstractmethod
    def _relationships(self, entity_id: str, edges: EdgeFilter) -> list[Relationship]:
        """The edges touching ``entity_id`` that pass ``edges``, in the port's order."""

    @abstractmethod
    def _contradictions(self, status: str | None) -> list[Contradiction]:
        """Every register entry of ``status`` (every entry when ``None``), by id."""

    def _traverse(self, query: PathQuery) -> list[TraversalPath]:
        """Paths walked over ``_relationships``; a backend that walks natively overrides this."""
        return walk(
            query.start,
            hops=query.hops,
            limit=query.limit,
            edges_of=lambda nodes: {node: self._relationships(node, query.edges) for node in nodes},
            other_end=lambda edge, tail: edge.target if edge.source == tail else edge.source,
            as_relationship=lambda edge: edge,
        )

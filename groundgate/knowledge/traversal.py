"""Breadth-first simple paths over a graph given by an edge lookup, as a pure function.

A backend hands :func:`walk` the way to read nodes' edges: one node at a time (the embedded
store, and ``ReadFacade``'s default traversal) or all of a hop's new nodes in one request
(Gremlin, ``per_hop=True``). Either way the paths, and so what ``limit`` cuts, are the same.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from groundgate.knowledge.model import Relationship, TraversalPath

__all__ = ["walk"]

E = TypeVar("E")


def walk(
    start: str,
    *,
    hops: int,
    limit: int,
    edges_of: Callable[[Sequence[str]], Mapping[str, Sequence[E]]],
    other_end: Callable[[E, str], str],
    as_relationship: Callable[[E], Relationship],
    per_hop: bool = False,
) -> list[TraversalPath]:
    """Simple paths of 1..``hops`` edges from ``start``, shortest first, at most ``limit``.

    Args:
        start: The node the paths start from.
        hops: The longest path, in edges.
        limit: How many paths to return at most.
        edges_of: The edges of each of the given nodes, in the order paths should take
            them. No node is asked for twice.
        other_end: The node an edge reaches from the given one.
        as_relationship: The edge as a path holds it; called only for edges a path walks.
        per_hop: Ask ``edges_of`` once a hop, for every node the hop starts from that was
            not read yet; otherwise one node at a time, only when a path reaches it.

    Returns:
        Paths in breadth-first order; no path visits a node twice.
    """
    paths: list[TraversalPath] = []
    frontier = [TraversalPath(nodes=(start,), edges=())]
    # Each node's edges are read once, and an edge becomes a Relationship only when a
    # path walks it: most edges read at the last hop are never walked.
    touching: dict[str, Sequence[E]] = {}
    for _ in range(hops):
        if per_hop:
            tails = list(dict.fromkeys(p.nodes[-1] for p in frontier if p.nodes[-1] not in touching))
            if tails:
                found = edges_of(tails)
                touching.update({tail: found.get(tail, ()) for tail in tails})
        next_frontier = []
        for path in frontier:
            tail = path.nodes[-1]
            if tail not in touching:
                touching[tail] = edges_of([tail]).get(tail, ())
            for raw in touching[tail]:
                other = other_end(raw, tail)
                if other in path.nodes:
                    continue
                edge = as_relationship(raw)
                walked = TraversalPath(nodes=(*path.nodes, other), edges=(*path.edges, edge))
                paths.append(walked)
                next_frontier.append(walked)
                if len(paths) >= limit:
                    return paths
        frontier = next_frontier
    return paths

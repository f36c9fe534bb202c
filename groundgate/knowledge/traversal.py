"""Breadth-first simple paths over a graph given by an edge lookup, as a pure function.

A backend that cannot walk paths natively (the embedded store) hands :func:`walk` the way
to read a node's edges; one that can (Gremlin) runs its own query instead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from groundgate.knowledge.model import Relationship, TraversalPath

__all__ = ["walk"]

E = TypeVar("E")


def walk(
    start: str,
    *,
    hops: int,
    limit: int,
    edges_of: Callable[[str], Sequence[E]],
    other_end: Callable[[E, str], str],
    as_relationship: Callable[[E], Relationship],
) -> list[TraversalPath]:
    """Simple paths of 1..``hops`` edges from ``start``, shortest first, at most ``limit``.

    Args:
        start: The node the paths start from.
        hops: The longest path, in edges.
        limit: How many paths to return at most.
        edges_of: A node's edges, in the order paths should take them. Called once a node.
        other_end: The node an edge reaches from the given one.
        as_relationship: The edge as a path holds it; called only for edges a path walks.

    Returns:
        Paths in breadth-first order; no path visits a node twice.
    """
    paths: list[TraversalPath] = []
    frontier = [TraversalPath(nodes=(start,), edges=())]
    # Each node's edges are read once, and an edge becomes a Relationship only when a
    # path walks it: most edges read at the last hop are never walked.
    touching: dict[str, Sequence[E]] = {}
    for _ in range(hops):
        next_frontier = []
        for path in frontier:
            tail = path.nodes[-1]
            if tail not in touching:
                touching[tail] = edges_of(tail)
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

"""``place``: a layered (Sugiyama-style) drawing of a directed graph, in pure Python.

The SVG, PNG and ASCII renderers share it, so drawing needs no layout package:

1. Cycles are broken by reversing the edges a depth-first walk finds going back up.
2. Each node's layer is its longest path from a root; an edge spanning several layers gets
   a dummy node in each layer it crosses, which becomes a bend of its route.
3. The order inside each layer is improved by barycentre sweeps, keeping the order with
   the fewest crossings.
4. Each node moves toward the mean of its neighbours, left-to-right and right-to-left
   passes are averaged, and nodes never come closer than ``x_space``.

Units are the caller's (pixels for SVG, characters for ASCII): sizes are given per node.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["Placement", "place"]

Point = tuple[float, float]

_SWEEPS = 8
"""Barycentre sweeps (down and up) to reduce crossings."""
_PASSES = 12
"""Refinement passes of the horizontal coordinates."""


@dataclass(frozen=True)
class Placement:
    """Where each node's centre is, and each edge's route (source centre, bends, target centre)."""

    centres: dict[str, Point]
    routes: tuple[tuple[Point, ...], ...]
    """One per input edge, in input order, running from its source to its target."""


def _back_edges(nodes: Sequence[str], edges: Sequence[tuple[str, str]]) -> set[int]:
    """Indexes of the edges a depth-first walk from the roots finds closing a cycle."""
    out: dict[str, list[int]] = {n: [] for n in nodes}
    for i, (u, _) in enumerate(edges):
        out[u].append(i)
    has_in = {v for u, v in edges if u != v}
    roots = [n for n in nodes if n not in has_in] + [n for n in nodes if n in has_in]
    state: dict[str, int] = {}  # 1: on the stack, 2: done
    back: set[int] = set()
    for root in roots:
        if root in state:
            continue
        state[root] = 1
        stack = [(root, iter(out[root]))]
        while stack:
            node, pending = stack[-1]
            step = next(pending, None)
            if step is None:
                state[node] = 2
                stack.pop()
                continue
            target = edges[step][1]
            if state.get(target) == 1:
                back.add(step)
            elif target not in state:
                state[target] = 1
                stack.append((target, iter(out[target])))
    return back


def _layers(nodes: Sequence[str], dag: Sequence[tuple[str, str]]) -> dict[str, int]:
    """Longest-path layering of an acyclic edge list (Kahn's order, ties by input order)."""
    preds: dict[str, list[str]] = {n: [] for n in nodes}
    indegree = dict.fromkeys(nodes, 0)
    for u, v in dag:
        preds[v].append(u)
        indegree[v] += 1
    layer: dict[str, int] = {}
    ready = [n for n in nodes if indegree[n] == 0]
    succ: dict[str, list[str]] = {n: [] for n in nodes}
    for u, v in dag:
        succ[u].append(v)
    while ready:
        node = ready.pop(0)
        layer[node] = max((layer[p] + 1 for p in preds[node]), default=0)
        for v in succ[node]:
            indegree[v] -= 1
            if indegree[v] == 0:
                ready.append(v)
    return layer


def _crossings(rows: list[list[str]], links: list[tuple[str, str]]) -> int:
    pos = {n: i for row in rows for i, n in enumerate(row)}
    level = {n: k for k, row in enumerate(rows) for n in row}
    total = 0
    for k in range(len(rows) - 1):
        between = [(pos[u], pos[v]) for u, v in links if level[u] == k]
        total += sum(
            1 for i, (a, b) in enumerate(between) for c, d in between[i + 1:] if (a - c) * (b - d) < 0
        )
    return total


def _order(rows: list[list[str]], links: list[tuple[str, str]]) -> list[list[str]]:
    """Barycentre sweeps; the ordering with the fewest crossings wins (the first, on a tie)."""
    up: dict[str, list[str]] = {n: [] for row in rows for n in row}
    down: dict[str, list[str]] = {n: [] for row in rows for n in row}
    for u, v in links:
        down[u].append(v)
        up[v].append(u)
    best, fewest = [list(r) for r in rows], _crossings(rows, links)
    current = [list(r) for r in rows]
    for sweep in range(_SWEEPS):
        downward = sweep % 2 == 0
        indexes = range(1, len(current)) if downward else range(len(current) - 2, -1, -1)
        for k in indexes:
            fixed = {n: i for i, n in enumerate(current[k - 1 if downward else k + 1])}
            near = up if downward else down

            def key(item: tuple[int, str], fixed: dict[str, int] = fixed, near: dict = near) -> float:
                at, node = item
                seen = [fixed[m] for m in near[node] if m in fixed]
                return sum(seen) / len(seen) if seen else float(at)

            current[k] = [n for _, n in sorted(enumerate(current[k]), key=key)]
        count = _crossings(current, links)
        if count < fewest:
            best, fewest = [list(r) for r in current], count
    return best


def _spread(row: list[str], want: dict[str, float], width: Mapping[str, float], gap: float) -> None:
    """Move ``row``'s nodes as near ``want`` as the minimum gaps allow (in place)."""
    if not row:
        return
    need = [(width[a] + width[b]) / 2 + gap for a, b in zip(row, row[1:], strict=False)]
    left = [want[row[0]]]
    for i, node in enumerate(row[1:]):
        left.append(max(want[node], left[-1] + need[i]))
    right = [want[row[-1]]]
    for i in range(len(row) - 2, -1, -1):
        right.insert(0, min(want[row[i]], right[0] - need[i]))
    for node, a, b in zip(row, left, right, strict=True):
        want[node] = (a + b) / 2  # the mean of two placements that keep the gaps keeps them too


def place(
    nodes: Sequence[str],
    sizes: Mapping[str, tuple[float, float]],
    edges: Sequence[tuple[str, str]],
    *,
    x_space: float,
    y_space: float,
    bend_width: float = 0.0,
) -> Placement:
    """Lay ``nodes`` (with ``sizes`` as width, height) out in layers, top to bottom.

    Args:
        nodes: Node ids, in the order to prefer when nothing else decides.
        sizes: Each node's (width, height).
        edges: (source, target) pairs; cycles and self-loops are allowed.
        x_space: The least horizontal gap between two nodes (or bends) of a layer.
        y_space: The vertical gap between layers.
        bend_width: The width a long edge takes in each layer it crosses.
    """
    back = _back_edges(nodes, edges)
    chains: list[list[str]] = []
    dag = [(v, u) if i in back else (u, v) for i, (u, v) in enumerate(edges)]
    layer = _layers(nodes, [e for e in dag if e[0] != e[1]])
    width = {n: sizes[n][0] for n in nodes}
    links: list[tuple[str, str]] = []
    for i, (u, v) in enumerate(dag):
        chain = [u]
        for k in range(layer[u] + 1, layer[v]):
            dummy = f"\0bend{i}:{k}"
            layer[dummy], width[dummy] = k, bend_width
            chain.append(dummy)
        chain.append(v)
        if u != v:
            links += list(zip(chain, chain[1:], strict=False))
        chains.append(chain)
    rows: list[list[str]] = [[] for _ in range(max(layer.values(), default=-1) + 1)]
    for node in [*nodes, *(n for c in chains for n in c[1:-1])]:
        rows[layer[node]].append(node)
    rows = _order(rows, links)

    heights = [max((sizes[n][1] for n in row if n in sizes), default=0.0) for row in rows]
    ys, top = [], 0.0
    for h in heights:
        ys.append(top + h / 2)
        top += h + y_space
    x: dict[str, float] = {}
    for row in rows:
        at = 0.0
        for node in row:
            x[node] = at + width[node] / 2
            at += width[node] + x_space
    near: dict[str, list[str]] = {n: [] for n in x}
    for u, v in links:
        near[u].append(v)
        near[v].append(u)
    for step in range(_PASSES):
        order = rows if step % 2 == 0 else rows[::-1]
        for row in order:
            want = {n: sum(x[m] for m in near[n]) / len(near[n]) if near[n] else x[n] for n in row}
            _spread(row, want, width, x_space)
            x.update(want)
    level = {n: k for k, row in enumerate(rows) for n in row}
    centre = {n: (x[n], ys[level[n]]) for n in x}
    routes: list[tuple[Point, ...]] = []
    for i, chain in enumerate(chains):
        if chain[0] == chain[-1]:  # a self-loop: out of the right side and back in
            (cx, cy), (w, h) = centre[chain[0]], sizes[chain[0]]
            side, out = cx + w / 2, cx + w / 2 + x_space * 0.4
            routes.append(((side, cy - h / 4), (out, cy - h / 4), (out, cy + h / 4), (side, cy + h / 4)))
            continue
        points = tuple(centre[n] for n in chain)
        routes.append(points[::-1] if i in back else points)
    return Placement({n: centre[n] for n in nodes}, tuple(routes))

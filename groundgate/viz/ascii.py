"""The graph as ASCII art, from the same layered placement as the SVG (no layout package).

Boxes are ``+---+ / | name | / +---+``; solid edges are drawn with ``*``, conditional
ones with ``.``, and each edge ends in an arrowhead (``v ^ < >``) at its target's border.
"""

from __future__ import annotations

from typing import Any

from groundgate.viz.layered import place
from groundgate.viz.layout import node_label

__all__ = ["render_ascii"]

BOX_H = 3
X_SPACE = 3
Y_SPACE = 3


def _cells(x0: int, y0: int, x1: int, y1: int) -> list[tuple[int, int]]:
    """The character cells of a straight line, one per step of its longer axis."""
    steps = max(abs(x1 - x0), abs(y1 - y0))
    if steps == 0:
        return [(x0, y0)]
    return [(round(x0 + (x1 - x0) * i / steps), round(y0 + (y1 - y0) * i / steps)) for i in range(steps + 1)]


def _arrow(dx: int, dy: int) -> str:
    if dy:  # edges run between layers: they reach a box through its top or bottom
        return "v" if dy > 0 else "^"
    return ">" if dx > 0 else "<"


def render_ascii(graph: Any) -> str:
    """ASCII art of a ``langchain_core`` drawable graph (``compiled.get_graph(xray=...)``)."""
    labels = {node_id: node_label(node) for node_id, node in graph.nodes.items()}
    sizes = {n: (float(len(label) + 4), float(BOX_H)) for n, label in labels.items()}
    edges = list(graph.edges)
    placed = place(list(labels), sizes, [(e.source, e.target) for e in edges],
                   x_space=X_SPACE, y_space=Y_SPACE, bend_width=1.0)
    boxes = {}  # node -> (left, top, width)
    for node, (x, y) in placed.centres.items():
        width = len(labels[node]) + 4
        boxes[node] = (int(x - width / 2 + 0.5), int(y - BOX_H / 2 + 0.5), width)
    routes = [[(int(x + 0.5), int(y + 0.5)) for x, y in route] for route in placed.routes]
    points = [p for r in routes for p in r]
    shift = -min([left for left, _, _ in boxes.values()] + [x for x, _ in points], default=0)
    right = max([left + w for left, _, w in boxes.values()] + [x + 1 for x, _ in points], default=1)
    bottom = max([top + BOX_H for _, top, _ in boxes.values()] + [y + 1 for _, y in points], default=1)
    canvas = [[" "] * (right + shift) for _ in range(bottom)]

    def inside(cell: tuple[int, int], node: str) -> bool:
        left, top, width = boxes[node]
        return left <= cell[0] - shift < left + width and top <= cell[1] < top + BOX_H

    for edge, route in zip(edges, routes, strict=True):
        mark = "." if edge.conditional else "*"
        cells: list[tuple[int, int]] = []
        for (x0, y0), (x1, y1) in zip(route, route[1:], strict=False):
            cells += _cells(x0 + shift, y0, x1 + shift, y1)
        cells = [c for c in cells if not inside(c, edge.source) and not inside(c, edge.target)]
        for x, y in cells:
            canvas[y][x] = mark
        if cells and len(route) >= 2:
            (x0, y0), (x1, y1) = route[-2], route[-1]
            x, y = cells[-1]
            canvas[y][x] = _arrow(x1 - x0, y1 - y0)
    for node, (left, top, width) in boxes.items():
        left += shift
        canvas[top][left:left + width] = "+" + "-" * (width - 2) + "+"
        canvas[top + 1][left:left + width] = "| " + labels[node] + " |"
        canvas[top + 2][left:left + width] = "+" + "-" * (width - 2) + "+"
    return "\n".join("".join(row).rstrip() for row in canvas) + "\n"

"""A layered layout of a LangGraph drawable graph, for the SVG and PNG renderers (pure Python)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from groundgate.viz.layered import place

__all__ = ["Box", "Layout", "Route", "layout_graph", "node_label"]

CHAR_W = 7.6
"""Approximate width of one character of the label font (px)."""
BOX_H = 34.0
PAD_X = 18.0
X_SPACE = 36.0
Y_SPACE = 64.0
MARGIN = 24.0
CLUSTER_PAD = 16.0
BEND_W = 8.0
"""The width a long edge takes in each layer it crosses."""


@dataclass(frozen=True)
class Box:
    """A node's box, by its centre."""

    id: str
    label: str
    x: float
    y: float
    w: float
    h: float
    terminal: bool
    """``__start__`` or ``__end__`` (drawn as a stadium)."""
    cluster: str | None
    """The subgraph it belongs to (``--xray``), if any."""


@dataclass(frozen=True)
class Route:
    """An edge as a polyline from the source box's border to the target's."""

    source: str
    target: str
    points: tuple[tuple[float, float], ...]
    conditional: bool


@dataclass(frozen=True)
class Layout:
    """Boxes, routes, subgraph frames and the canvas size."""

    boxes: dict[str, Box]
    routes: tuple[Route, ...]
    clusters: dict[str, tuple[float, float, float, float]]
    """Subgraph name -> (x0, y0, x1, y1)."""
    width: float
    height: float


def node_label(node: Any) -> str:
    """The text in a node's box: its name, with ``start`` and ``end`` for the two terminals."""
    name = getattr(node, "name", None) or str(node.id)
    return "start" if name == "__start__" else "end" if name == "__end__" else name


def _cluster(node_id: str) -> str | None:
    return node_id.rsplit(":", 1)[0] if ":" in node_id else None


def layout_graph(graph: Any) -> Layout:
    """Lay out a ``langchain_core`` drawable graph (``compiled.get_graph(xray=...)``)."""
    sizes = {n: (len(node_label(node)) * CHAR_W + 2 * PAD_X, BOX_H) for n, node in graph.nodes.items()}
    placed = place(list(graph.nodes), sizes, [(e.source, e.target) for e in graph.edges],
                   x_space=X_SPACE, y_space=Y_SPACE, bend_width=BEND_W)
    vertices = placed.centres
    bends = [pt for route in placed.routes for pt in route[1:-1]]  # long edges bend around the boxes
    xs = [x - sizes[n][0] / 2 for n, (x, _) in vertices.items()] + [x for x, _ in bends]
    ys = [y - sizes[n][1] / 2 for n, (_, y) in vertices.items()] + [y for _, y in bends]
    has_clusters = any(_cluster(i) for i in vertices)
    shift_x = MARGIN - min(xs) + (CLUSTER_PAD if has_clusters else 0)
    shift_y = MARGIN - min(ys) + (CLUSTER_PAD * 2 if has_clusters else 0)

    boxes = {}
    for node_id, (x, y) in vertices.items():
        node = graph.nodes[node_id]
        w, h = sizes[node_id]
        boxes[node_id] = Box(
            id=node_id, label=node_label(node), x=x + shift_x, y=y + shift_y, w=w, h=h,
            terminal=getattr(node, "name", node_id) in ("__start__", "__end__"), cluster=_cluster(node_id),
        )
    routes: list[Route] = []
    for edge, placed_route in zip(graph.edges, placed.routes, strict=True):
        pts = [(px + shift_x, py + shift_y) for px, py in placed_route]
        src, dst = boxes[edge.source], boxes[edge.target]
        pts[0] = _border(src, pts[1])
        pts[-1] = _border(dst, pts[-2])
        routes.append(Route(edge.source, edge.target, tuple(pts), bool(edge.conditional)))

    clusters: dict[str, tuple[float, float, float, float]] = {}
    for box in boxes.values():
        if box.cluster is None:
            continue
        x0, y0, x1, y1 = clusters.get(box.cluster, (float("inf"), float("inf"), float("-inf"), float("-inf")))
        clusters[box.cluster] = (
            min(x0, box.x - box.w / 2 - CLUSTER_PAD), min(y0, box.y - box.h / 2 - CLUSTER_PAD * 1.8),
            max(x1, box.x + box.w / 2 + CLUSTER_PAD), max(y1, box.y + box.h / 2 + CLUSTER_PAD),
        )
    for route in routes:  # a subgraph's own edges stay inside its frame
        name = boxes[route.source].cluster
        if name is not None and name == boxes[route.target].cluster:
            x0, y0, x1, y1 = clusters[name]
            for x, y in route.points:
                x0, y0, x1, y1 = min(x0, x - CLUSTER_PAD), min(y0, y), max(x1, x + CLUSTER_PAD), max(y1, y)
            clusters[name] = (x0, y0, x1, y1)
    points = [pt for r in routes for pt in r.points]
    right = max(
        [b.x + b.w / 2 for b in boxes.values()] + [c[2] for c in clusters.values()] + [x for x, _ in points]
    )
    bottom = max(
        [b.y + b.h / 2 for b in boxes.values()] + [c[3] for c in clusters.values()] + [y for _, y in points]
    )
    return Layout(boxes, tuple(routes), clusters, right + MARGIN, bottom + MARGIN)


def _border(box: Box, toward: tuple[float, float]) -> tuple[float, float]:
    """Where the segment from the box's centre toward ``toward`` leaves the box."""
    dx, dy = toward[0] - box.x, toward[1] - box.y
    if dx == 0 and dy == 0:
        return box.x, box.y
    scale = min(
        (box.w / 2) / abs(dx) if dx else float("inf"),
        (box.h / 2) / abs(dy) if dy else float("inf"),
    )
    return box.x + dx * scale, box.y + dy * scale

"""A layered layout of a LangGraph drawable graph, for the SVG and PNG renderers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from groundgate.errors import ConfigError

__all__ = ["Box", "Layout", "Route", "layout_graph"]

CHAR_W = 7.6
"""Approximate width of one character of the label font (px)."""
BOX_H = 34.0
PAD_X = 18.0
X_SPACE = 36.0
Y_SPACE = 64.0
MARGIN = 24.0
CLUSTER_PAD = 16.0


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


def _label(node: Any) -> str:
    name = getattr(node, "name", None) or str(node.id)
    return "start" if name == "__start__" else "end" if name == "__end__" else name


def _cluster(node_id: str) -> str | None:
    return node_id.rsplit(":", 1)[0] if ":" in node_id else None


def layout_graph(graph: Any) -> Layout:
    """Lay out a ``langchain_core`` drawable graph (``compiled.get_graph(xray=...)``)."""
    try:
        from grandalf.graphs import Edge, Graph, Vertex
        from grandalf.layouts import SugiyamaLayout
        from grandalf.routing import route_with_lines
    except ImportError as exc:
        raise ConfigError("drawing images needs grandalf: pip install 'groundgate[draw]'") from exc

    class _View:
        def __init__(self, w: float, h: float) -> None:
            self.w, self.h, self.xy = w, h, (0.0, 0.0)

    class _EdgeView:
        def __init__(self) -> None:
            self._pts: list[tuple[float, float]] = []

        def setpath(self, pts: list[tuple[float, float]]) -> None:
            self._pts = pts

    vertices = {}
    for node_id, node in graph.nodes.items():
        vertex = Vertex(node_id)
        vertex.view = _View(len(_label(node)) * CHAR_W + 2 * PAD_X, BOX_H)
        vertices[node_id] = vertex
    edges = []
    for edge in graph.edges:
        e = Edge(vertices[edge.source], vertices[edge.target], data=edge)
        e.view = _EdgeView()
        edges.append(e)
    g = Graph(list(vertices.values()), edges)
    for component in g.C:
        sug = SugiyamaLayout(component)
        roots = [v for v in component.sV if not v.e_in()]
        sug.init_all(roots=roots, optimize=True)
        sug.xspace, sug.yspace = X_SPACE, Y_SPACE
        sug.route_edge = route_with_lines
        sug.draw()

    bends = [pt for e in edges for pt in e.view._pts]  # long edges bend around the boxes
    xs = [v.view.xy[0] - v.view.w / 2 for v in vertices.values()] + [x for x, _ in bends]
    ys = [v.view.xy[1] - v.view.h / 2 for v in vertices.values()] + [y for _, y in bends]
    has_clusters = any(_cluster(i) for i in vertices)
    shift_x = MARGIN - min(xs) + (CLUSTER_PAD if has_clusters else 0)
    shift_y = MARGIN - min(ys) + (CLUSTER_PAD * 2 if has_clusters else 0)

    boxes = {}
    for node_id, vertex in vertices.items():
        x, y = vertex.view.xy
        node = graph.nodes[node_id]
        boxes[node_id] = Box(
            id=node_id, label=_label(node), x=x + shift_x, y=y + shift_y, w=vertex.view.w, h=vertex.view.h,
            terminal=getattr(node, "name", node_id) in ("__start__", "__end__"), cluster=_cluster(node_id),
        )
    routes = []
    for e in edges:
        pts = [(px + shift_x, py + shift_y) for px, py in e.view._pts]
        src, dst = boxes[e.data.source], boxes[e.data.target]
        if len(pts) < 2:
            pts = [(src.x, src.y), (dst.x, dst.y)]
        if _dist(pts[0], (src.x, src.y)) > _dist(pts[-1], (src.x, src.y)):
            pts.reverse()  # grandalf routes a cycle's back edge the other way round
        pts[0] = _border(src, pts[1])
        pts[-1] = _border(dst, pts[-2])
        routes.append(Route(e.data.source, e.data.target, tuple(pts), bool(e.data.conditional)))

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


def _dist(p: tuple[float, float], q: tuple[float, float]) -> float:
    return ((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2) ** 0.5


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

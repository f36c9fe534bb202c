"""The graph as a standalone SVG (no fonts or scripts fetched; it renders offline)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from xml.sax.saxutils import escape

from groundgate.viz.layout import Box, Layout

__all__ = ["render_svg"]

FONT = "ui-monospace, SFMono-Regular, Menlo, Consolas, 'DejaVu Sans Mono', monospace"
NODE_FILL = "#f2f0ff"
NODE_STROKE = "#6c5ce7"
HOT_FILL = "#ffe8a3"
HOT_STROKE = "#c27c0e"
EDGE = "#555"
HOT_EDGE = "#c27c0e"


def _box(box: Box, visits: int) -> str:
    hot = visits > 0
    radius = box.h / 2 if box.terminal else 6
    fill = HOT_FILL if hot else ("#ffffff" if box.terminal else NODE_FILL)
    stroke = HOT_STROKE if hot else NODE_STROKE
    x, y = box.x - box.w / 2, box.y - box.h / 2
    parts = [
        f'<g class="node{" visited" if hot else ""}" data-node="{escape(box.id)}">',
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{box.w:.1f}" height="{box.h:.1f}" rx="{radius:.1f}" '
        f'fill="{fill}" stroke="{stroke}" stroke-width="{2 if hot else 1.4}"/>',
        f'<text x="{box.x:.1f}" y="{box.y + 4.5:.1f}" text-anchor="middle" font-size="13" '
        f'fill="#222">{escape(box.label)}</text>',
    ]
    if visits > 1 or (hot and not box.terminal):
        bx, by = x + box.w - 2, y + 2
        parts.append(
            f'<circle cx="{bx:.1f}" cy="{by:.1f}" r="9" fill="{HOT_STROKE}"/>'
            f'<text x="{bx:.1f}" y="{by + 4:.1f}" text-anchor="middle" font-size="11" fill="#fff">'
            f"{visits}</text>"
        )
    parts.append("</g>")
    return "".join(parts)


def _arrowhead(p: tuple[float, float], q: tuple[float, float], color: str) -> str:
    angle = math.atan2(q[1] - p[1], q[0] - p[0])
    size = 8.0
    left = (q[0] - size * math.cos(angle - 0.4), q[1] - size * math.sin(angle - 0.4))
    right = (q[0] - size * math.cos(angle + 0.4), q[1] - size * math.sin(angle + 0.4))
    return (
        f'<polygon points="{q[0]:.1f},{q[1]:.1f} {left[0]:.1f},{left[1]:.1f} {right[0]:.1f},{right[1]:.1f}" '
        f'fill="{color}"/>'
    )


def render_svg(
    layout: Layout,
    *,
    visits: Mapping[str, int] | None = None,
    hot_edges: Mapping[tuple[str, str], int] | None = None,
    title: str | None = None,
) -> str:
    """The SVG text. ``visits`` highlights nodes (with a count); ``hot_edges`` highlights edges taken."""
    visits = visits or {}
    hot_edges = hot_edges or {}
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{layout.width:.0f}" height="{layout.height:.0f}" '
        f'viewBox="0 0 {layout.width:.0f} {layout.height:.0f}" font-family="{FONT}" role="img">',
    ]
    if title:
        out.append(f"<title>{escape(title)}</title>")
    out.append('<rect width="100%" height="100%" fill="#ffffff"/>')
    for name, (x0, y0, x1, y1) in sorted(layout.clusters.items()):
        out.append(
            f'<g class="subgraph"><rect x="{x0:.1f}" y="{y0:.1f}" '
            f'width="{x1 - x0:.1f}" height="{y1 - y0:.1f}" '
            f'rx="10" fill="#fafafa" stroke="#999" stroke-dasharray="6 4"/>'
            f'<text x="{x0 + 10:.1f}" y="{y0 + 16:.1f}" font-size="12" fill="#666">{escape(name)}</text></g>'
        )
    for route in layout.routes:
        taken = hot_edges.get((route.source, route.target), 0)
        color = HOT_EDGE if taken else EDGE
        dash = ' stroke-dasharray="5 4"' if route.conditional else ""
        points = " ".join(f"{x:.1f},{y:.1f}" for x, y in route.points)
        out.append(
            f'<g class="edge{" taken" if taken else ""}" '
            f'data-edge="{escape(route.source)}->{escape(route.target)}">'
            f'<polyline points="{points}" fill="none" stroke="{color}" '
            f'stroke-width="{2.2 if taken else 1.3}"{dash}/>'
            + _arrowhead(route.points[-2], route.points[-1], color)
            + "</g>"
        )
    for box in layout.boxes.values():
        out.append(_box(box, visits.get(box.id, 0)))
    out.append("</svg>")
    return "\n".join(out)

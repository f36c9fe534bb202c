"""The graph as a PNG, drawn locally with Pillow from the same layout as the SVG."""

from __future__ import annotations

import io
import math

from groundgate.errors import ConfigError
from groundgate.viz.layout import Layout

__all__ = ["render_png"]

SCALE = 2
"""Pixels per layout unit (a crisp image on high-density screens)."""


def render_png(layout: Layout) -> bytes:
    """PNG bytes of the graph (needs Pillow: ``pip install 'groundgate[draw]'``)."""
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError as exc:
        raise ConfigError("PNG output needs Pillow: pip install 'groundgate[draw]'") from exc
    s = SCALE
    image = Image.new("RGB", (int(layout.width * s), int(layout.height * s)), "white")
    draw = ImageDraw.Draw(image)
    try:
        font = ImageFont.load_default(size=13 * s)
        small = ImageFont.load_default(size=11 * s)
    except TypeError:  # pragma: no cover - Pillow < 10.1 has only the fixed bitmap font
        font = small = ImageFont.load_default()
    for name, (x0, y0, x1, y1) in sorted(layout.clusters.items()):
        _dashed_rect(draw, (x0 * s, y0 * s, x1 * s, y1 * s), "#999999", s)
        draw.text(((x0 + 10) * s, (y0 + 5) * s), name, fill="#666666", font=small)
    for route in layout.routes:
        pts = [(x * s, y * s) for x, y in route.points]
        for p, q in zip(pts, pts[1:], strict=False):
            if route.conditional:
                _dashed_line(draw, p, q, "#555555", s)
            else:
                draw.line([p, q], fill="#555555", width=max(1, int(1.3 * s)))
        p, q = pts[-2], pts[-1]
        angle = math.atan2(q[1] - p[1], q[0] - p[0])
        size = 8 * s
        draw.polygon([
            q,
            (q[0] - size * math.cos(angle - 0.4), q[1] - size * math.sin(angle - 0.4)),
            (q[0] - size * math.cos(angle + 0.4), q[1] - size * math.sin(angle + 0.4)),
        ], fill="#555555")
    for box in layout.boxes.values():
        left, top = (box.x - box.w / 2) * s, (box.y - box.h / 2) * s
        rect = (left, top, left + box.w * s, top + box.h * s)
        radius = (box.h / 2 if box.terminal else 6) * s
        draw.rounded_rectangle(rect, radius=radius, fill="white" if box.terminal else "#f2f0ff",
                               outline="#6c5ce7", width=max(1, int(1.4 * s)))
        draw.text((box.x * s, box.y * s), box.label, fill="#222222", font=font, anchor="mm")
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def _dashed_line(draw: object, p: tuple[float, float], q: tuple[float, float], color: str, s: int) -> None:
    length = math.dist(p, q)
    if length == 0:
        return
    dash, gap = 5 * s, 4 * s
    ux, uy = (q[0] - p[0]) / length, (q[1] - p[1]) / length
    at = 0.0
    while at < length:
        end = min(at + dash, length)
        draw.line([(p[0] + ux * at, p[1] + uy * at), (p[0] + ux * end, p[1] + uy * end)],  # type: ignore[attr-defined]
                  fill=color, width=max(1, int(1.3 * s)))
        at = end + gap


def _dashed_rect(draw: object, rect: tuple[float, float, float, float], color: str, s: int) -> None:
    x0, y0, x1, y1 = rect
    for p, q in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
        _dashed_line(draw, p, q, color, s)

"""``draw_graph``: the agent graph (or any compiled graph) in four formats, offline."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from typing import Any, Literal

from groundgate.errors import ConfigError

__all__ = ["FORMATS", "Format", "agent_wiring", "draw_graph", "load_graph"]

Format = Literal["mermaid", "ascii", "svg", "png"]
FORMATS: tuple[str, ...] = ("mermaid", "ascii", "svg", "png")


def agent_wiring() -> Any:
    """The agent's compiled wiring (no store or model needed to draw it)."""
    from groundgate.graph.build import build_graph

    return build_graph().compile(name="groundgate")


def load_graph(target: str) -> Any:
    """A compiled graph from ``module:attr`` or ``path/to/file.py:attr`` (as ``langgraph.json`` names one).

    ``attr`` may be a compiled graph, an uncompiled ``StateGraph``, or a function of no
    arguments returning either.
    """
    where, _, attr = target.rpartition(":")
    if not where or not attr:
        raise ConfigError(f"--graph expects module:attr or file.py:attr, got {target!r}")
    if where.endswith(".py"):
        path = Path(where)
        if not path.exists():
            raise ConfigError(f"no such file: {where}")
        spec = importlib.util.spec_from_file_location(f"_groundgate_drawn_{path.stem}", path)
        if spec is None or spec.loader is None:
            raise ConfigError(f"cannot import {where}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    else:
        try:
            module = importlib.import_module(where)
        except ImportError as exc:
            raise ConfigError(f"cannot import {where}: {exc}") from exc
    try:
        obj = getattr(module, attr)
    except AttributeError:
        raise ConfigError(f"{where} has no {attr!r}") from None
    if callable(obj) and not hasattr(obj, "get_graph") and not hasattr(obj, "compile"):
        obj = obj()
    if hasattr(obj, "compile") and not hasattr(obj, "get_graph"):
        obj = obj.compile()
    if not hasattr(obj, "get_graph"):
        raise ConfigError(f"{target} is not a LangGraph graph")
    return obj


def draw_graph(graph: Any, fmt: str = "mermaid", *, xray: bool = False) -> str | bytes:
    """Draw ``graph`` (compiled) as Mermaid text, ASCII art, SVG text or PNG bytes; all offline."""
    if fmt not in FORMATS:
        raise ConfigError(f"--format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    drawable = graph.get_graph(xray=xray)
    if fmt == "mermaid":
        return str(drawable.draw_mermaid())
    if fmt == "ascii":
        from groundgate.viz.ascii import render_ascii

        return render_ascii(drawable)
    from groundgate.viz.layout import layout_graph

    layout = layout_graph(drawable)
    if fmt == "svg":
        from groundgate.viz.svg import render_svg

        return render_svg(layout, title=getattr(graph, "name", None) or "graph")
    from groundgate.viz.png import render_png

    return render_png(layout)

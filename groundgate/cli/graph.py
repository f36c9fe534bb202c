"""``groundgate graph``: draw the agent graph offline (Mermaid, ASCII, SVG or PNG)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from groundgate.cli.terminal import err, error
from groundgate.errors import ConfigError

__all__ = ["graph"]


def graph(
    fmt: Annotated[str, typer.Option("--format", "-f", help="mermaid, ascii, svg or png.")] = "mermaid",
    xray: Annotated[bool, typer.Option("--xray", help="Expand subgraphs into their own nodes.")] = False,
    target: Annotated[
        str | None,
        typer.Option("--graph", help="Draw another graph: module:attr or file.py:attr (default: the agent)."),
    ] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write to this file.")] = None,
) -> None:
    """Draw the agent's state machine locally (no web service); --xray expands subgraphs."""
    from groundgate.viz.draw import agent_wiring, draw_graph, load_graph

    try:
        compiled = load_graph(target) if target else agent_wiring()
        drawn = draw_graph(compiled, fmt, xray=xray)
    except ConfigError as exc:
        error(str(exc))
        raise typer.Exit(2) from None
    if output is not None:
        if isinstance(drawn, bytes):
            output.write_bytes(drawn)
        else:
            output.write_text(drawn if drawn.endswith("\n") else drawn + "\n")
        err.print(f"wrote {output}")
    elif isinstance(drawn, bytes):
        if sys.stdout.isatty():
            error("PNG is binary: give --output FILE or redirect stdout")
            raise typer.Exit(2)
        sys.stdout.buffer.write(drawn)
    else:
        sys.stdout.write(drawn if drawn.endswith("\n") else drawn + "\n")

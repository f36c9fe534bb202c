"""``groundgate mcp``: the eight tools over the Model Context Protocol (stdio or HTTP)."""

from __future__ import annotations

from typing import Annotated

import typer

from groundgate.cli.common import StoreOpt, settings
from groundgate.cli.terminal import err, error
from groundgate.errors import GroundgateError

__all__ = ["mcp"]


def mcp(
    transport: Annotated[str, typer.Option(help="stdio (for a host that starts it) or http.")] = "stdio",
    host: Annotated[str, typer.Option(help="HTTP: interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="HTTP: port.")] = 8000,
    store: StoreOpt = None,
) -> None:
    """Serve the eight read-only tools over MCP, with their schemas and the structured envelope."""
    if transport not in ("stdio", "http"):
        error(f"--transport must be stdio or http, not {transport!r}")
        raise typer.Exit(2)
    try:
        import anyio

        from groundgate.mcp.server import make_server, serve_http, serve_stdio
    except ImportError:
        error("groundgate mcp needs the mcp extra: pip install 'groundgate[mcp]'")
        raise typer.Exit(2) from None
    from groundgate.knowledge.backends import open_backend
    from groundgate.knowledge.embed import make_embedder

    chosen = settings(store)
    try:
        embedder = make_embedder(chosen.embedder)
        opened = open_backend(chosen, embedder=embedder)
    except GroundgateError as exc:
        error(str(exc))
        raise typer.Exit(2) from None
    server = make_server(opened, embedder=embedder)
    try:
        if transport == "stdio":
            anyio.run(serve_stdio, server)  # stdout carries the protocol: nothing else is printed there
        else:
            err.print(f"serving the groundgate tools over MCP at http://{host}:{port}/mcp (Ctrl-C stops it)")
            serve_http(server, host=host, port=port)
    except KeyboardInterrupt:
        pass
    finally:
        opened.close()

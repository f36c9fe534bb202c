"""``groundgate mcp``: the eight tools over the Model Context Protocol (stdio or HTTP)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape

from groundgate.cli import StoreOpt, _settings, err
from groundgate.cli import app as cli_app
from groundgate.errors import GroundgateError

__all__ = ["mcp"]


@cli_app.command("mcp")
def mcp(
    transport: Annotated[str, typer.Option(help="stdio (for a host that starts it) or http.")] = "stdio",
    host: Annotated[str, typer.Option(help="HTTP: interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="HTTP: port.")] = 8000,
    store: StoreOpt = None,
) -> None:
    """Serve the eight read-only tools over MCP, with their schemas and the structured envelope."""
    if transport not in ("stdio", "http"):
        err.print(f"[bold red]error:[/] --transport must be stdio or http, not {transport!r}")
        raise typer.Exit(2)
    try:
        import anyio

        from groundgate.mcp.server import make_server, serve_http, serve_stdio
    except ImportError:
        err.print("[bold red]error:[/] groundgate mcp needs the mcp extra: pip install 'groundgate\\[mcp]'")
        raise typer.Exit(2) from None
    from groundgate.knowledge.default import open_store
    from groundgate.knowledge.embed import make_embedder

    settings = _settings(store)
    try:
        embedder = make_embedder(settings.embedder)
        opened = open_store(settings.store_path, cache_dir=settings.cache_dir, embedder=embedder)
    except GroundgateError as exc:
        err.print(f"[bold red]error:[/] {escape(str(exc))}")
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

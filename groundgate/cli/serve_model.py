"""``groundgate serve-model``: the offline planner as an OpenAI-compatible endpoint."""

from __future__ import annotations

from typing import Annotated

import typer

from groundgate.cli.terminal import err, error, out

__all__ = ["serve_model"]


def _log(line: str) -> None:
    err.print(line)


def serve_model(
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port (0: any free one).")] = 8000,
    host: Annotated[str, typer.Option("--host", help="Interface to listen on.")] = "127.0.0.1",
    model_id: Annotated[str, typer.Option("--model-id", help="The model id clients ask for.")] = "offline",
    quiet: Annotated[bool, typer.Option("--quiet", help="Do not log requests.")] = False,
) -> None:
    """Serve the offline planner as an OpenAI-compatible Chat Completions endpoint."""
    from groundgate.serve import ModelServer

    try:
        server = ModelServer(host, port, model_id=model_id, log=None if quiet else _log)
    except OSError as exc:
        error(f"cannot listen on {host}:{port}: {exc.strerror or exc}")
        raise typer.Exit(2) from None
    out.print(
        f"serving the offline planner at {server.base_url} (model {model_id!r})\n"
        f"  groundgate ask \"...\" --model compatible:{server.base_url}#{model_id}\n"
        "  Ctrl-C stops it."
    )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()

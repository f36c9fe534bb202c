"""The ``groundgate`` command line: ingest, search, ask, and the tools around them.

One module per command (``groundgate/cli/<command>.py``), a plain function registered here,
in the order ``groundgate --help`` lists them; ``common`` holds what they share and
``terminal`` how they print. ``main`` is the console script and ``python -m groundgate``.
"""

from __future__ import annotations

import sys

import typer

from groundgate.cli import ask, azure, eval, graph, ingest, mcp, replay, search, serve_model, trace
from groundgate.cli.terminal import err, error, out
from groundgate.errors import ConfigError, RunError

__all__ = ["app", "err", "main", "out"]

app = typer.Typer(
    name="groundgate",
    help="Answer questions over a knowledge layer with a bounded, gated agent.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

app.command("ingest")(ingest.ingest)
app.command("search")(search.search)
app.command("ask")(ask.ask)
app.command("eval")(eval.eval_command)
app.command("graph")(graph.graph)
app.command("mcp")(mcp.mcp)
app.command("replay")(replay.replay)
app.command("serve-model")(serve_model.serve_model)
app.add_typer(azure.azure_app, name="azure")
app.add_typer(trace.trace_app, name="trace")


def main() -> None:  # pragma: no cover - the console script and `python -m groundgate`
    """Run the CLI, turning a developer error (or a run error no command handled) into a clean message."""
    try:
        app()
    except (ConfigError, RunError) as exc:  # exit 2 for both, as when ModelUnavailable was a ConfigError
        error(str(exc))
        sys.exit(2)

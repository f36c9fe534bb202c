"""``groundgate azure ...``: provision the Azure backend, and search or ask over it.

Settings come from ``GROUNDGATE_AZURE_*`` variables (``AzureSettings.from_env``), read when a
command runs. ``azure search`` and ``azure ask`` are aliases of the main commands with
``--backend azure`` (``knowledge.backends``); ``groundgate ingest --backend azure`` writes to
the same services, and ``azure provision`` is the backend's own ``provision``.
"""

from __future__ import annotations

import functools
import inspect
import os
from collections.abc import Callable
from typing import Annotated, Any

import typer

from groundgate.cli.ask import ask as ask_command
from groundgate.cli.common import fail
from groundgate.cli.search import AsOfFilterOpt, SearchJsonOpt, TopKOpt, run_search
from groundgate.cli.terminal import out
from groundgate.errors import GroundgateError

__all__ = ["azure_app", "provision", "search", "with_backend"]

azure_app = typer.Typer(
    name="azure",
    help="The Azure backend (AI Search, Cosmos DB NoSQL, Cosmos DB for Gremlin): provision, search, ask.",
    no_args_is_help=True,
)


@azure_app.command()
def provision(
    dimensions: Annotated[
        int | None,
        typer.Option("--dimensions", min=1, help="Vector field size (default: the embedder's, else 1536)."),
    ] = None,
) -> None:
    """Create the search indexes, the Cosmos database and containers, and check the graph (idempotent)."""
    from groundgate.knowledge.backends import get_backend
    from groundgate.knowledge.embed import make_embedder
    from groundgate.settings import Settings

    chosen = Settings.from_env()
    backend = get_backend("azure")
    try:
        embedder = make_embedder(chosen.embedder)
        made = backend.provision(chosen, embedder=embedder, env=os.environ, dimensions=dimensions)
        where = backend.describe(chosen, os.environ)
    except GroundgateError as exc:
        raise fail(str(exc)) from None
    out.print("provisioned " + where)
    for line in made:
        out.print(f"  {line}")


@azure_app.command()
def search(
    query: Annotated[str, typer.Argument(help="What to look for.")],
    top_k: TopKOpt = 5,
    as_of: AsOfFilterOpt = None,
    as_json: SearchJsonOpt = False,
) -> None:
    """Search the evidence on Azure: one line per document, best first, scores 0..1."""
    run_search(query, top_k=top_k, as_of=as_of, as_json=as_json, store=None, backend="azure")


def with_backend(command: Callable[..., None], backend: str) -> Callable[..., None]:
    """``command`` with ``--backend`` fixed to ``backend`` and no ``--store``; every other option kept.

    Typer reads the options from the signature, so the alias offers exactly what ``command``
    does, with the same defaults and help, and runs exactly what ``command --backend`` runs.
    """
    fixed = ("backend", "store")
    kept = [p for p in inspect.signature(command, eval_str=True).parameters.values() if p.name not in fixed]

    @functools.wraps(command)
    def alias(**options: Any) -> None:
        command(**options, backend=backend)

    alias.__signature__ = inspect.Signature(kept)  # type: ignore[attr-defined]
    alias.__doc__ = f"{(command.__doc__ or '').strip()} The same as: {command.__name__} --backend {backend}."
    return alias


azure_app.command("ask")(with_backend(ask_command, "azure"))

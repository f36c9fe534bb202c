"""``groundgate azure ...``: provision the Azure backend, and search or ask over it.

Settings come from ``GROUNDGATE_AZURE_*`` variables (``AzureSettings.from_env``), read here,
once, when a command runs. ``groundgate ingest --backend azure`` writes to the same services.
"""

from __future__ import annotations

import json
import os
from typing import Annotated, cast

import typer

from groundgate.cli import _fail, _parse_date, app, check_question_arg, out, print_hits
from groundgate.commands.terminal import print_answer
from groundgate.errors import GroundgateError

__all__ = ["azure_app"]

azure_app = typer.Typer(
    name="azure",
    help="The Azure backend (AI Search, Cosmos DB NoSQL, Cosmos DB for Gremlin): provision, search, ask.",
    no_args_is_help=True,
)
app.add_typer(azure_app, name="azure")

AGENT_MODES = ("agent", "search-agent")


def open_azure(dimensions: int | None = None):  # noqa: ANN201 - AzureStore, imported lazily
    """The Azure store named by ``GROUNDGATE_AZURE_*`` (the caller closes it)."""
    return _open(dimensions)[0]


def _open(dimensions: int | None = None):  # noqa: ANN202 - AzureStore, imported lazily
    from groundgate.knowledge.azure.store import AzureStore
    from groundgate.knowledge.embed import make_embedder
    from groundgate.settings import Settings

    embedder = make_embedder(Settings.from_env().embedder)
    return AzureStore.from_env(os.environ, embedder=embedder, dimensions=dimensions), embedder


@azure_app.command()
def provision(
    dimensions: Annotated[
        int | None,
        typer.Option("--dimensions", min=1, help="Vector field size (default: the embedder's, else 1536)."),
    ] = None,
) -> None:
    """Create the search indexes, the Cosmos database and containers, and check the graph (idempotent)."""
    try:
        store, _ = _open(dimensions)
        try:
            made = store.provision()
        finally:
            store.close()
    except GroundgateError as exc:
        raise _fail(str(exc)) from None
    out.print("provisioned " + str(store))
    for line in made:
        out.print(f"  {line}")


@azure_app.command()
def search(
    query: Annotated[str, typer.Argument(help="What to look for.")],
    top_k: Annotated[int, typer.Option("--top-k", min=1, max=50, help="How many hits.")] = 5,
    as_of: Annotated[str | None, typer.Option("--as-of", help="Only sources valid on this date.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Search the evidence on Azure: one line per document, best first, scores 0..1."""
    from groundgate.search import search_store

    day = _parse_date(as_of, "--as-of")
    try:
        store, embedder = _open()
        try:
            vector = embedder.embed_query(query) if embedder else None
            hits = search_store(store.read_only_view(), query, top_k=top_k, as_of=day, query_vector=vector)
        finally:
            store.close()
    except GroundgateError as exc:
        raise _fail(str(exc)) from None
    print_hits(hits, as_json=as_json)


@azure_app.command()
def ask(
    question: Annotated[str, typer.Argument(help="The question, in plain words.")],
    mode: Annotated[str, typer.Option(help="agent (all eight tools) or search-agent.")] = "agent",
    model: Annotated[
        str | None, typer.Option(help="offline, openai:<m>, azure:<d>, compatible:<url>#<m>.")
    ] = None,
    as_of: Annotated[str | None, typer.Option("--as-of", help="Answer as of this date (YYYY-MM-DD).")] = None,
    max_rounds: Annotated[int, typer.Option("--max-rounds", min=1, help="Tool rounds bound.")] = 8,
    token_budget: Annotated[int, typer.Option("--token-budget", min=1, help="Model token bound.")] = 60_000,
    timeout: Annotated[float, typer.Option("--timeout", min=0.1, help="Wall-clock bound, seconds.")] = 60.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    show_trace: Annotated[bool, typer.Option("--show-trace", help="Print the tool calls.")] = False,
) -> None:
    """Answer a question with the bounded, gated agent over the Azure backend (read-only).

    The same run as ``groundgate ask --backend azure --mode agent|search-agent``.
    """
    from groundgate.ask import Mode
    from groundgate.ask import ask as run_ask
    from groundgate.graph.context import Bounds
    from groundgate.settings import Settings

    check_question_arg(question)
    if mode not in AGENT_MODES:
        raise _fail(f"--mode must be one of {', '.join(AGENT_MODES)}, not {mode!r}")
    _parse_date(as_of, "--as-of")
    settings = Settings.from_env()
    if model:
        settings = Settings(store_path=settings.store_path, model=model,
                            embedder=settings.embedder, cache_dir=settings.cache_dir)
    bounds = Bounds(max_rounds=max_rounds, token_budget=token_budget, wall_clock_s=timeout)
    try:
        store = open_azure()
        try:
            run = run_ask(question, settings=settings, mode=cast(Mode, mode), as_of=as_of, bounds=bounds,
                          store=store.read_only_view())
        finally:
            store.close()
    except GroundgateError as exc:
        raise _fail(str(exc)) from None
    if as_json:
        out.print_json(json.dumps(run.to_json(), default=str))
        return
    print_answer(run.to_json(), show_trace)

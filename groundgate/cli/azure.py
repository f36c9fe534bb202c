"""``groundgate azure ...``: provision the Azure backend, and search or ask over it.

Settings come from ``GROUNDGATE_AZURE_*`` variables (``AzureSettings.from_env``), read when a
command runs. ``azure search`` and ``azure ask`` are the main commands with ``--backend azure``
(``knowledge.backends``); ``groundgate ingest --backend azure`` writes to the same services.
"""

from __future__ import annotations

import os
from typing import Annotated

import typer

from groundgate.cli.ask import answer
from groundgate.cli.common import (
    BOUNDS,
    AsOfOpt,
    JsonOpt,
    MaxRoundsOpt,
    ModelOpt,
    ShowTraceOpt,
    TimeoutOpt,
    TokenBudgetOpt,
    check_question_arg,
    fail,
)
from groundgate.cli.search import AsOfFilterOpt, SearchJsonOpt, TopKOpt, run_search
from groundgate.cli.terminal import out
from groundgate.errors import GroundgateError
from groundgate.graph.bounds import Bounds

__all__ = ["AGENT_MODES", "ask", "azure_app", "provision", "search"]

azure_app = typer.Typer(
    name="azure",
    help="The Azure backend (AI Search, Cosmos DB NoSQL, Cosmos DB for Gremlin): provision, search, ask.",
    no_args_is_help=True,
)

AGENT_MODES = ("agent", "search-agent")
"""The modes ``azure ask`` offers (the agent's; ``ask --backend azure`` offers lane A too)."""


@azure_app.command()
def provision(
    dimensions: Annotated[
        int | None,
        typer.Option("--dimensions", min=1, help="Vector field size (default: the embedder's, else 1536)."),
    ] = None,
) -> None:
    """Create the search indexes, the Cosmos database and containers, and check the graph (idempotent)."""
    from groundgate.knowledge.azure.store import AzureStore
    from groundgate.knowledge.embed import make_embedder
    from groundgate.settings import Settings

    try:
        embedder = make_embedder(Settings.from_env().embedder)
        store = AzureStore.from_env(os.environ, embedder=embedder, dimensions=dimensions)
        try:
            made = store.provision()
        finally:
            store.close()
    except GroundgateError as exc:
        raise fail(str(exc)) from None
    out.print("provisioned " + str(store))
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


@azure_app.command()
def ask(
    question: Annotated[str, typer.Argument(help="The question, in plain words.")],
    mode: Annotated[str, typer.Option(help="agent (all eight tools) or search-agent.")] = "agent",
    model: ModelOpt = None,
    as_of: AsOfOpt = None,
    max_rounds: MaxRoundsOpt = BOUNDS.max_rounds,
    token_budget: TokenBudgetOpt = BOUNDS.token_budget,
    timeout: TimeoutOpt = BOUNDS.wall_clock_s,
    as_json: JsonOpt = False,
    show_trace: ShowTraceOpt = False,
) -> None:
    """Answer a question with the bounded, gated agent over the Azure backend (read-only).

    The same run as ``groundgate ask --backend azure --mode agent|search-agent``.
    """
    check_question_arg(question)
    if mode not in AGENT_MODES:
        raise fail(f"--mode must be one of {', '.join(AGENT_MODES)}, not {mode!r}")
    answer(
        question, mode=mode, model=model, as_of=as_of, backend="azure", as_json=as_json,
        show_trace=show_trace,
        bounds=Bounds(max_rounds=max_rounds, token_budget=token_budget, wall_clock_s=timeout),
    )

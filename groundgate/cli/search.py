"""``groundgate search``: the evidence, one line per document, best first."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from groundgate.cli.common import StoreOpt, fail, parse_date, settings
from groundgate.cli.terminal import print_hits
from groundgate.errors import GroundgateError

__all__ = ["AsOfFilterOpt", "SearchJsonOpt", "TopKOpt", "run_search", "search"]

TopKOpt = Annotated[int, typer.Option("--top-k", min=1, max=50, help="How many hits.")]
AsOfFilterOpt = Annotated[str | None, typer.Option("--as-of", help="Only sources valid on this date.")]
SearchJsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON.")]


def search(
    query: Annotated[str, typer.Argument(help="What to look for.")],
    top_k: TopKOpt = 5,
    as_of: AsOfFilterOpt = None,
    as_json: SearchJsonOpt = False,
    store: StoreOpt = None,
) -> None:
    """Search the evidence: one line per document, best first, scores 0..1."""
    run_search(query, top_k=top_k, as_of=as_of, as_json=as_json, store=store, backend="embedded")


def run_search(
    query: str, *, top_k: int, as_of: str | None, as_json: bool, store: Path | None, backend: str
) -> None:
    """Search the backend named, and print the hits (what ``search`` and ``azure search`` do)."""
    from groundgate.search import search_documents

    chosen = settings(store, backend=backend)
    day = parse_date(as_of, "--as-of")
    try:
        hits = search_documents(chosen, query, top_k=top_k, as_of=day)
    except GroundgateError as exc:
        raise fail(str(exc)) from None
    print_hits(hits, as_json=as_json)

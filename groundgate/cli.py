"""The ``groundgate`` command line: ingest, search, ask, and the tools around them."""

from __future__ import annotations

import json
import sys
from datetime import date
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from groundgate.errors import ConfigError, CorpusError, GroundgateError
from groundgate.settings import Settings

__all__ = ["app"]

app = typer.Typer(
    name="groundgate",
    help="Answer questions over a knowledge layer with a bounded, gated agent.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False)

StoreOpt = Annotated[
    Path | None,
    typer.Option("--store", help="SQLite store path (default: the bundled corpus's cached store)."),
]


def _settings(store: Path | None = None) -> Settings:
    base = Settings.from_env()
    if store is not None:
        return Settings(
            store_path=store, model=base.model, embedder=base.embedder, cache_dir=base.cache_dir
        )
    return base


def _fail(message: str, code: int = 2) -> typer.Exit:
    err.print(f"[bold red]error:[/] {message}")
    return typer.Exit(code)


def _parse_date(value: str | None, flag: str) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise _fail(f"{flag} expects a date as YYYY-MM-DD, got {value!r}") from None


@app.command()
def ingest(
    folder: Annotated[
        Path | None, typer.Argument(help="Corpus folder (default: the bundled corpus).")
    ] = None,
    store: Annotated[
        Path, typer.Option("--store", help="SQLite store to write (created if missing).")
    ] = Path("groundgate.sqlite"),
    embedder: Annotated[
        str | None, typer.Option(help="none, hashing, local[:path] or openai:<model>.")
    ] = None,
) -> None:
    """Ingest a folder of documents and declared knowledge into a store, in one transaction."""
    from groundgate.knowledge.default import bundled_corpus
    from groundgate.knowledge.embed import make_embedder
    from groundgate.knowledge.embedded.store import SQLiteStore
    from groundgate.knowledge.ingest.pipeline import ingest as run_ingest

    source = folder or bundled_corpus()
    try:
        embed = make_embedder(embedder)
        target = SQLiteStore.from_path(store)
        target.setup()
        with Progress(
            TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
            TimeElapsedColumn(), console=err, transient=True, disable=not err.is_terminal,
        ) as bar:
            tasks: dict[str, int] = {}

            def progress(stage: str, done: int, total: int) -> None:
                if stage not in tasks:
                    tasks[stage] = bar.add_task(stage, total=total)
                bar.update(tasks[stage], completed=done)

            report = run_ingest(target, source, embedder=embed, progress=progress)
    except CorpusError as exc:
        raise _fail(f"{exc}\nnothing was written to {store}") from None
    except GroundgateError as exc:
        raise _fail(str(exc)) from None
    w = report.write
    out.print(
        f"ingested {source} into {store}\n"
        f"  documents      {report.documents} ({w.documents_written} written, "
        f"{w.documents_unchanged} unchanged)\n"
        f"  chunks         {w.chunks_written} written\n"
        f"  entities       {report.entities}\n"
        f"  relationships  {report.relationships} ({w.relationships_written} written, "
        f"{w.relationships_retired} retired)\n"
        f"  contradictions {report.contradictions_declared} declared, "
        f"{report.contradictions_detected} detected, {w.contradictions_opened} newly opened\n"
        f"  resolution     {report.resolution_decisions} decisions logged"
        + (f"\n  skipped        {report.files_skipped} files" if report.files_skipped else "")
    )


@app.command()
def search(
    query: Annotated[str, typer.Argument(help="What to look for.")],
    top_k: Annotated[int, typer.Option("--top-k", min=1, max=50, help="How many hits.")] = 5,
    as_of: Annotated[str | None, typer.Option("--as-of", help="Only sources valid on this date.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    store: StoreOpt = None,
) -> None:
    """Search the evidence: one line per document, best first, scores 0..1."""
    from groundgate.search import search_documents

    settings = _settings(store)
    day = _parse_date(as_of, "--as-of")
    try:
        hits = search_documents(settings, query, top_k=top_k, as_of=day)
    except GroundgateError as exc:
        raise _fail(str(exc)) from None
    if as_json:
        out.print_json(json.dumps([h.model_dump(mode="json") for h in hits]))
        return
    if not hits:
        out.print("No articles matched.")
        return
    for hit in hits:
        out.print(f"[{hit.score:.2f}] {hit.title} ({hit.kind}) {hit.doc_id}")


def main() -> None:  # pragma: no cover - console entry for `python -m groundgate`
    """Run the CLI, turning a developer error into a clean message."""
    try:
        app()
    except ConfigError as exc:
        err.print(f"[bold red]error:[/] {exc}")
        sys.exit(2)

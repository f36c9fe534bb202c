"""The ``groundgate`` command line: ingest, search, ask, and the tools around them."""

from __future__ import annotations

import json
import sys
from datetime import date
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

from groundgate.commands.terminal import err, error, out, print_answer
from groundgate.errors import ConfigError, CorpusError, GroundgateError
from groundgate.settings import Settings

__all__ = ["app", "err", "out"]

app = typer.Typer(
    name="groundgate",
    help="Answer questions over a knowledge layer with a bounded, gated agent.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

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
    error(message)
    return typer.Exit(code)


def check_question_arg(question: str) -> None:
    """A usage error (exit 2) for a question too short to ask, before anything is opened."""
    from groundgate.ask import check_question

    try:
        check_question(question)
    except ConfigError as exc:
        raise typer.BadParameter(str(exc), param_hint="QUESTION") from None


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
        str | None,
        typer.Option(help="none, hashing, local[:folder], sentence-transformers[:model] or openai:<model>."),
    ] = None,
    backend: Annotated[
        str,
        typer.Option(
            "--backend", help="embedded (SQLite at --store) or azure (GROUNDGATE_AZURE_* settings)."
        ),
    ] = "embedded",
) -> None:
    """Ingest a folder of documents and declared knowledge into a store, in one transaction."""
    from groundgate.knowledge.default import bundled_corpus, ingest_to_path
    from groundgate.knowledge.embed import make_embedder
    from groundgate.knowledge.ingest.pipeline import ingest as run_ingest

    source = folder or bundled_corpus()
    where: object = store
    try:
        embed = make_embedder(embedder)
        if backend not in ("embedded", "azure"):
            raise _fail(f"--backend must be embedded or azure, not {backend!r}")
        with Progress(
            TextColumn("{task.description}", markup=False), BarColumn(),
            TextColumn("{task.completed}/{task.total}"),
            TimeElapsedColumn(), console=err, transient=True, disable=not err.is_terminal,
        ) as bar:
            tasks: dict[str, TaskID] = {}

            def progress(stage: str, done: int, total: int) -> None:
                if stage not in tasks:
                    tasks[stage] = bar.add_task(stage, total=total)
                bar.update(tasks[stage], completed=done)

            if backend == "azure":
                import os

                from groundgate.knowledge.azure.store import AzureStore

                target = AzureStore.from_env(os.environ, embedder=embed)
                where = target
                report = run_ingest(target, source, embedder=embed, progress=progress)
                target.close()
            else:
                report = ingest_to_path(store, source, embedder=embed, progress=progress)
    except CorpusError as exc:
        raise _fail(f"{exc}\nnothing was written to {where}") from None
    except GroundgateError as exc:
        raise _fail(str(exc)) from None
    w = report.write
    out.print(  # markup off: paths and file names are the user's text
        f"ingested {source} into {where}\n"
        f"  documents      {report.documents} ({w.documents_written} written, "
        f"{w.documents_unchanged} unchanged)\n"
        f"  chunks         {w.chunks_written} written\n"
        f"  entities       {report.entities}\n"
        f"  relationships  {report.relationships} ({w.relationships_written} written, "
        f"{w.relationships_retired} retired)\n"
        f"  contradictions {report.contradictions_declared} declared, "
        f"{report.contradictions_detected} detected, {w.contradictions_opened} newly opened\n"
        f"  resolution     {report.resolution_decisions} decisions logged"
        + (f"\n  skipped        {len(report.skipped)} files, not read:" if report.skipped else "")
        + "".join(f"\n                 {name}" for name in report.skipped),
        markup=False,
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
    print_hits(hits, as_json=as_json)


def print_hits(hits: list, *, as_json: bool) -> None:
    """One ``[0.87] Title (kind) ID`` line per hit, best first, or the hits as JSON."""
    if as_json:
        out.print_json(json.dumps([h.model_dump(mode="json") for h in hits]))
        return
    if not hits:
        out.print("No articles matched.")
        return
    for hit in hits:
        out.print(f"[{hit.score:.2f}] {hit.title} ({hit.kind}) {hit.doc_id}")


@app.command()
def ask(
    question: Annotated[str, typer.Argument(help="The question, in plain words.")],
    mode: Annotated[str | None, typer.Option(
        help="auto (default: lane A, escalating to the agent on signals), pipeline, agent or search-agent.",
    )] = None,
    deep: Annotated[bool, typer.Option("--deep", help="With auto: go to the agent whatever lane A says.")]
    = False,
    model: Annotated[
        str | None, typer.Option(help="offline, openai:<m>, azure:<d>, compatible:<url>#<m>.")
    ] = None,
    as_of: Annotated[str | None, typer.Option("--as-of", help="Answer as of this date (YYYY-MM-DD).")] = None,
    max_rounds: Annotated[int, typer.Option("--max-rounds", min=1, help="Tool rounds bound.")] = 8,
    token_budget: Annotated[int, typer.Option("--token-budget", min=1, help="Model token bound.")] = 60_000,
    timeout: Annotated[float, typer.Option("--timeout", min=0.1, help="Wall-clock bound, seconds.")] = 60.0,
    store: StoreOpt = None,
    backend: Annotated[str, typer.Option(
        "--backend", help="embedded (SQLite, --store) or azure (GROUNDGATE_AZURE_* settings).",
    )] = "embedded",
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    show_trace: Annotated[bool, typer.Option("--show-trace", help="Print the tool calls.")] = False,
    save_run: Annotated[Path | None, typer.Option("--save-run", help="Save a run file for replay.")] = None,
    telemetry: Annotated[str, typer.Option(
        "--telemetry", envvar="GROUNDGATE_TELEMETRY",
        help="OpenTelemetry spans: none, console, otlp or azure.",
    )] = "none",
) -> None:
    """Answer a question: lane A first, the bounded, gated agent when a signal calls for it."""
    from groundgate.ask import MODES
    from groundgate.ask import ask as run_ask
    from groundgate.graph.context import Bounds

    check_question_arg(question)
    mode = mode or ("agent" if save_run is not None else "auto")
    if mode not in MODES:
        raise _fail(f"--mode must be one of {', '.join(MODES)}, not {mode!r}")
    if save_run is not None and mode not in ("agent", "search-agent"):
        raise _fail("--save-run records agent runs (replay plays back a model's decisions); "
                    "use --mode agent or search-agent")
    _parse_date(as_of, "--as-of")
    settings = _settings(store)
    if model:
        settings = Settings(store_path=settings.store_path, model=model,
                            embedder=settings.embedder, cache_dir=settings.cache_dir)
    bounds = Bounds(max_rounds=max_rounds, token_budget=token_budget, wall_clock_s=timeout)
    if backend not in ("embedded", "azure"):
        raise _fail(f"--backend must be embedded or azure, not {backend!r}")
    opened = None
    try:
        if backend == "azure":
            from groundgate.commands.azure_cmd import open_azure

            opened = open_azure()
        spans = None
        if telemetry != "none":  # the otel extra is imported only when asked for
            from groundgate.telemetry import make_telemetry

            spans = make_telemetry(telemetry)
        result = run_ask(
            question, settings=settings, mode=mode, as_of=as_of, bounds=bounds, deep=deep,  # type: ignore[arg-type]
            telemetry=spans, store=opened.read_only_view() if opened is not None else None,
        )
    except GroundgateError as exc:
        raise _fail(str(exc)) from None
    finally:
        if opened is not None:
            opened.close()
    if save_run is not None:
        from groundgate.replay import run_record
        from groundgate.replay import save_run as write_run

        write_run(save_run, run_record(result, settings=settings, bounds=bounds))
    data = result.to_json()
    if as_json:
        out.print_json(json.dumps(data, default=str))
    else:
        print_answer(data, show_trace)
    if data["model_error"]:  # the answer says so; the exit code tells a script the model is down
        raise typer.Exit(1)


def main() -> None:  # pragma: no cover - the console script and `python -m groundgate`
    """Run the CLI, turning a developer error into a clean message."""
    try:
        app()
    except ConfigError as exc:
        error(str(exc))
        sys.exit(2)


import groundgate.commands.azure_cmd  # noqa: E402, F401 - registers `azure provision|search|ask`
import groundgate.commands.eval_cmd  # noqa: E402, F401 - registers `eval`
import groundgate.commands.graph_cmd  # noqa: E402, F401 - registers `graph`
import groundgate.commands.mcp_cmd  # noqa: E402, F401 - registers `mcp`
import groundgate.commands.replay_cmd  # noqa: E402, F401 - registers `replay`
import groundgate.commands.serve_cmd  # noqa: E402, F401 - registers `serve-model`
import groundgate.commands.trace_cmd  # noqa: E402, F401 - registers `trace show`

"""``groundgate eval``: the golden set through every configuration, and an honest report."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.text import Text

from groundgate.cli.common import BOUNDS, fail
from groundgate.cli.terminal import err, out, styled
from groundgate.errors import ConfigError, GroundgateError
from groundgate.settings import Settings

__all__ = ["eval_command"]


@contextmanager
def _store_and_questions(
    dataset: Path | None, settings: Settings, embedder: Any
) -> Iterator[tuple[Any, Path, str]]:
    """The store and questions file to evaluate, and how the report names them."""
    from groundgate.eval.dataset import dataset_store
    from groundgate.knowledge.backends import OpenedStore
    from groundgate.knowledge.default import bundled_questions, open_store

    store: OpenedStore
    if dataset is None:
        store = open_store(None, cache_dir=settings.cache_dir, embedder=embedder)
        try:
            yield store, bundled_questions(), "the bundled insurance golden set"
        finally:
            store.close()
        return
    with dataset_store(dataset, embedder=embedder) as (store, questions):
        yield store, questions, str(dataset)


def eval_command(
    dataset: Annotated[Path | None, typer.Option(
        "--dataset", help="A folder with corpus/ and questions.jsonl (default: the bundled golden set).",
    )] = None,
    configs: Annotated[str, typer.Option(
        "--configs", help="Any of A (lane A), B (search-box agent), C (full agent), router.",
    )] = "A,B,C,router",
    policies: Annotated[str, typer.Option("--policies", help="on, off or on,off.")] = "on,off",
    models: Annotated[str, typer.Option(
        "--models", help="Comma-separated model specs: offline, openai:<m>, azure:<d>, compatible:<url>#<m>.",
    )] = "offline",
    out_dir: Annotated[Path, typer.Option(
        "--out", help="Folder for results.jsonl, summary.json and the reports.",
    )] = Path("groundgate-eval"),
    timeout: Annotated[float, typer.Option(
        "--timeout", min=0.1, help="Wall-clock bound of each run, seconds (a slow local model needs more).",
    )] = BOUNDS.wall_clock_s,
    split: Annotated[str, typer.Option(
        "--split", help="dev (tune on it), test (report it) or all.",
    )] = "all",
) -> None:
    """Evaluate lane A, the search-box agent, the full agent and the router, policies on and off."""
    from groundgate.eval.dataset import SPLITS, load_questions, select_split
    from groundgate.eval.report import write_report
    from groundgate.eval.runner import CONFIGS, POLICIES, evaluate, parse_list
    from groundgate.eval.summary import summarise
    from groundgate.graph.context import Bounds
    from groundgate.knowledge.embed import make_embedder

    settings = Settings.from_env()
    try:
        chosen = parse_list(configs, list(CONFIGS), "--configs")
        split = split.strip().lower()
        if split not in SPLITS:
            raise ConfigError(f"--split: unknown value {split!r}; choose from {', '.join(SPLITS)}")
        settings_on = parse_list(policies, list(POLICIES), "--policies")
        specs = [m.strip() for m in models.split(",") if m.strip()] or ["offline"]
        embedder = make_embedder(settings.embedder)
        started = time.perf_counter()
        with _store_and_questions(dataset, settings, embedder) as (store, questions_file, label):
            questions = select_split(load_questions(questions_file, store), split)
            if split != "all":
                label = f"{label}, {split} split"
            with Progress(
                TextColumn("{task.description}", markup=False), BarColumn(), MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=err, transient=True, disable=not err.is_terminal,
            ) as bar:
                total = len(specs) * len(chosen) * len(settings_on) * len(questions)
                task = bar.add_task("evaluating", total=total)

                def progress(done: int, total: int, key: str) -> None:
                    bar.update(task, completed=done, description=key)

                rows = evaluate(store, questions, configs=chosen, policies=settings_on, models=specs,
                                embedder=embedder, bounds=Bounds(wall_clock_s=timeout), progress=progress)
        summary = summarise(rows, dataset=label)
        files = write_report(out_dir, rows, summary)
    except GroundgateError as exc:
        raise fail(str(exc)) from None
    elapsed = time.perf_counter() - started
    out.print(f"evaluated {summary['questions']} questions × {len(summary['runs'])} runs in {elapsed:.1f} s")
    for run in summary["runs"]:
        c = run["contested"]
        out.print(
            f"  {run['key']:<24} correct {_f(run['correctness'])}  citation R {_f(run['citation_recall'])}  "
            f"contested: {c['presented_both']} both / {c['chose_side']} chose a side  "
            f"{_f(run['tool_calls'], 1)} calls  {_f(run['tokens'], 0)} tokens"
        )
    if summary["blown_gates"]:
        out.print(_blown_gates(summary["blown_gates"]))
    out.print(f"wrote {files.results}, {files.summary}, {files.markdown}, {files.html}")
    if files.plots_skipped:
        out.print(styled(("plots skipped:", "yellow"),
                         " matplotlib is not installed (pip install 'groundgate[eval]')"))


def _blown_gates(gates: list[dict[str, Any]]) -> Text:
    """``N blown gates``, and which runs they come from, policies on first (those are the alarm)."""
    by_policies: dict[str, Counter[str]] = {}
    for gate in gates:
        by_policies.setdefault(gate["policies"], Counter())[gate["key"]] += 1
    parts = [
        f"{sum(runs.values())} with policies {policies} ("
        + ", ".join(f"{key} {n}" for key, n in runs.items()) + ")"
        for policies, runs in sorted(by_policies.items(), key=lambda item: item[0] != "on")
    ]
    where = ("all " + parts[0]) if len(parts) == 1 else "; ".join(parts)
    return styled((f"{len(gates)} blown gates", "bold red"),
                  f": runs that chose a side on a contested question, {where}; listed in the report")


def _f(value: float | None, digits: int = 2) -> str:
    return "–" if value is None else f"{value:.{digits}f}"

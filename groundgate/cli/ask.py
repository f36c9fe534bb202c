"""``groundgate ask``: one question, lane A first, the agent when a signal calls for it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from groundgate.cli.common import (
    BOUNDS,
    AsOfOpt,
    BackendOpt,
    JsonOpt,
    MaxRoundsOpt,
    ModelOpt,
    ShowTraceOpt,
    StoreOpt,
    TimeoutOpt,
    TokenBudgetOpt,
    check_backend,
    check_question_arg,
    fail,
    parse_date,
    settings,
)
from groundgate.cli.terminal import out, print_answer
from groundgate.errors import GroundgateError
from groundgate.graph.bounds import Bounds

__all__ = ["answer", "ask"]


def ask(
    question: Annotated[str, typer.Argument(help="The question, in plain words.")],
    mode: Annotated[str | None, typer.Option(
        help="auto (default: lane A, escalating to the agent on signals), pipeline, agent or search-agent.",
    )] = None,
    deep: Annotated[bool, typer.Option("--deep", help="With auto: go to the agent whatever lane A says.")]
    = False,
    model: ModelOpt = None,
    as_of: AsOfOpt = None,
    max_rounds: MaxRoundsOpt = BOUNDS.max_rounds,
    token_budget: TokenBudgetOpt = BOUNDS.token_budget,
    timeout: TimeoutOpt = BOUNDS.wall_clock_s,
    store: StoreOpt = None,
    backend: BackendOpt = "embedded",
    as_json: JsonOpt = False,
    show_trace: ShowTraceOpt = False,
    save_run: Annotated[Path | None, typer.Option("--save-run", help="Save a run file for replay.")] = None,
    telemetry: Annotated[str, typer.Option(
        "--telemetry", envvar="GROUNDGATE_TELEMETRY",
        help="OpenTelemetry spans: none, console, otlp or azure.",
    )] = "none",
) -> None:
    """Answer a question: lane A first, the bounded, gated agent when a signal calls for it."""
    from groundgate.ask import MODES

    check_question_arg(question)
    mode = mode or ("agent" if save_run is not None else "auto")
    if mode not in MODES:
        raise fail(f"--mode must be one of {', '.join(MODES)}, not {mode!r}")
    if save_run is not None and mode not in ("agent", "search-agent"):
        raise fail("--save-run records agent runs (replay plays back a model's decisions); "
                   "use --mode agent or search-agent")
    answer(
        question, mode=mode, deep=deep, model=model, as_of=as_of,
        bounds=Bounds(max_rounds=max_rounds, token_budget=token_budget, wall_clock_s=timeout),
        store=store, backend=backend, as_json=as_json, show_trace=show_trace, save_run=save_run,
        telemetry=telemetry,
    )


def answer(
    question: str, *, mode: str, model: str | None, as_of: str | None, bounds: Bounds, backend: str,
    as_json: bool, show_trace: bool, deep: bool = False, store: Path | None = None,
    save_run: Path | None = None, telemetry: str = "none",
) -> None:
    """Run a checked question and print the answer; exit 1 when the model was unreachable.

    What ``ask`` does once its arguments are checked, and all that ``azure ask`` does.
    """
    from groundgate.ask import ask as run_ask

    parse_date(as_of, "--as-of")
    chosen = settings(store, model=model, backend=backend)
    check_backend(backend)
    try:
        spans = None
        if telemetry != "none":  # the otel extra is imported only when asked for
            from groundgate.telemetry import make_telemetry

            spans = make_telemetry(telemetry)
        result = run_ask(
            question, settings=chosen, mode=mode, as_of=as_of, bounds=bounds, deep=deep,  # type: ignore[arg-type]
            telemetry=spans,
        )
    except GroundgateError as exc:
        raise fail(str(exc)) from None
    if save_run is not None:
        from groundgate.replay import run_record
        from groundgate.replay import save_run as write_run

        write_run(save_run, run_record(result, settings=chosen, bounds=bounds))
    data = result.to_json()
    if as_json:
        out.print_json(json.dumps(data, default=str))
    else:
        print_answer(data, show_trace)
    if data["model_error"]:  # the answer says so; the exit code tells a script the model is down
        raise typer.Exit(1)

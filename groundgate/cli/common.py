"""What the command modules share: settings, usage errors, and the options two commands take.

The option defaults of the bounds come from ``Bounds()``, the one place they are defined.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Annotated

import typer

from groundgate.cli.terminal import error
from groundgate.errors import ConfigError
from groundgate.graph.bounds import Bounds
from groundgate.settings import Settings

__all__ = [
    "BOUNDS",
    "AsOfOpt",
    "BackendOpt",
    "JsonOpt",
    "MaxRoundsOpt",
    "ModelOpt",
    "ShowTraceOpt",
    "StoreOpt",
    "TimeoutOpt",
    "TokenBudgetOpt",
    "check_backend",
    "check_question_arg",
    "fail",
    "parse_date",
    "settings",
]

BOUNDS = Bounds()
"""The default bounds, whose numbers the ``--max-rounds``/``--token-budget``/``--timeout`` defaults show."""

StoreOpt = Annotated[
    Path | None,
    typer.Option("--store", help="SQLite store path (default: the bundled corpus's cached store)."),
]
BackendOpt = Annotated[str, typer.Option(
    "--backend", help="embedded (SQLite, --store) or azure (GROUNDGATE_AZURE_* settings).",
)]
ModelOpt = Annotated[
    str | None, typer.Option(help="offline, openai:<m>, azure:<d>, compatible:<url>#<m>.")
]
AsOfOpt = Annotated[str | None, typer.Option("--as-of", help="Answer as of this date (YYYY-MM-DD).")]
MaxRoundsOpt = Annotated[int, typer.Option("--max-rounds", min=1, help="Tool rounds bound.")]
TokenBudgetOpt = Annotated[int, typer.Option("--token-budget", min=1, help="Model token bound.")]
TimeoutOpt = Annotated[float, typer.Option("--timeout", min=0.1, help="Wall-clock bound, seconds.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]
ShowTraceOpt = Annotated[bool, typer.Option("--show-trace", help="Print the tool calls.")]


def settings(store: Path | None = None, *, model: str | None = None, backend: str | None = None) -> Settings:
    """``Settings.from_env()``, with what the command line gave in place of the environment's."""
    base = Settings.from_env()
    return replace(
        base,
        store_path=base.store_path if store is None else store,
        model=model or base.model,
        backend=base.backend if backend is None else backend,
    )


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print ``error: message`` and return the exit to raise (2: a usage error)."""
    error(message)
    return typer.Exit(code)


def check_question_arg(question: str) -> None:
    """A usage error (exit 2) for a question too short to ask, before anything is opened."""
    from groundgate.ask import check_question

    try:
        check_question(question)
    except ConfigError as exc:
        raise typer.BadParameter(str(exc), param_hint="QUESTION") from None


def check_backend(name: str) -> None:
    """A usage error (exit 2) for a ``--backend`` no backend answers to."""
    from groundgate.knowledge.backends import BACKENDS, backend_names

    if name not in BACKENDS:
        raise fail(f"--backend must be {backend_names()}, not {name!r}")


def parse_date(value: str | None, flag: str) -> date | None:
    """``value`` as a date, or a usage error naming ``flag``."""
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise fail(f"{flag} expects a date as YYYY-MM-DD, got {value!r}") from None

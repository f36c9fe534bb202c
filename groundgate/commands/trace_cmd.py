"""``groundgate trace show``: a saved run in the terminal, or as a self-contained HTML page."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from groundgate.cli import app, err, out
from groundgate.errors import ConfigError

__all__ = ["show", "trace_app"]

trace_app = typer.Typer(
    help="Look at saved runs (`groundgate ask ... --json > run.json`).", no_args_is_help=True
)
app.add_typer(trace_app, name="trace")


def _load(file: Path) -> dict[str, Any]:
    from groundgate.viz.trace_html import validate_run

    try:
        text = sys.stdin.read() if str(file) == "-" else file.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read {file}: {exc.strerror or exc}") from None
    try:
        return validate_run(json.loads(text))
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{file} is not JSON ({exc.msg} at line {exc.lineno})") from None


@trace_app.command("show")
def show(
    file: Annotated[Path, typer.Argument(help="A saved run: `groundgate ask --json` output ('-': stdin).")],
    html: Annotated[
        Path | None, typer.Option("--html", help="Write the run page (self-contained HTML) here.")
    ] = None,
) -> None:
    """Show a saved run: its path, each round's tool calls, grounding, the gate, bound usage."""
    try:
        run = _load(file)
    except ConfigError as exc:
        err.print(f"[bold red]error:[/] {escape(str(exc))}")
        raise typer.Exit(2) from None
    if html is not None:
        from groundgate.viz.trace_html import render_run

        html.write_text(render_run(run), encoding="utf-8")
        out.print(f"wrote {html} (open it in a browser; it needs no network)")
        return
    _summary(run)


def _summary(run: dict[str, Any]) -> None:
    from rich.table import Table

    from groundgate.viz.trace_html import graph_path

    steps = run["trace"]["steps"]
    agent = [s for s in steps if s.get("lane", "agent") != "pipeline"]
    out.print(f"[bold]{run.get('question', '(question not saved)')}[/]")
    answer = run["answer"]
    out.print(answer if isinstance(answer, str) else answer.get("text", ""), markup=False)
    if any(s.get("kind") == "model" for s in agent):
        out.print("\n[bold]path[/] " + " → ".join(n.strip("_") for n in graph_path(agent)))
    lanes = any(s.get("lane") == "pipeline" for s in steps)
    table = Table(title="Tool calls")
    if lanes:
        table.add_column("lane", no_wrap=True)
    table.add_column("round", justify="right")
    table.add_column("tool", no_wrap=True)
    table.add_column("arguments", overflow="fold", ratio=1)
    for name in ("results", "top score", "ms"):
        table.add_column(name, justify="right", no_wrap=True)
    table.add_column("flags")
    for step in steps:
        if step.get("kind") != "tool":
            continue
        args = json.dumps({k: v for k, v in (step.get("args") or {}).items() if v not in (None, [], "")})
        hits = step.get("hits") or []
        flags = ", ".join(flag for flag in ("insufficient", "error") if step.get(flag))
        row = [str(step.get("round")), step.get("tool", ""), args, str(step.get("results", "")),
               f"{hits[0]['score']:.2f}" if hits else "", f"{float(step.get('ms') or 0):.1f}", flags]
        table.add_row(*([step.get("lane", "agent")] if lanes else []), *row)
    out.print(table)
    grounding = run.get("grounding") or {}
    out.print(
        f"[bold]grounding[/] {grounding.get('grounded', 0)} grounded, {grounding.get('flagged', 0)} flagged, "
        f"{grounding.get('removed', 0)} removed"
    )
    for note in run.get("policy_notes") or []:
        out.print("gate: " + note, markup=False)
    bound = run.get("bound_tripped")
    totals = run["trace"].get("totals") or {}
    out.print(
        f"[bold]bounds[/] {totals.get('rounds', 0)} rounds · {totals.get('tokens', 0)} tokens · "
        f"{(run.get('usage') or {}).get('latency_ms', 0):.0f} ms"
        + (f" · [red]{bound['bound']} tripped ({bound['used']} of {bound['limit']})[/]" if bound else "")
    )

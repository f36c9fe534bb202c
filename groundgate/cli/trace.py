"""``groundgate trace show``: a saved run in the terminal, or as a self-contained HTML page."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from groundgate.cli.terminal import error, out, styled, tool_table
from groundgate.errors import ConfigError

__all__ = ["show", "trace_app"]

trace_app = typer.Typer(
    help="Look at saved runs (`groundgate ask ... --json > run.json`).", no_args_is_help=True
)


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
        error(str(exc))
        raise typer.Exit(2) from None
    if html is not None:
        from groundgate.viz.trace_html import render_run

        html.write_text(render_run(run), encoding="utf-8")
        out.print(f"wrote {html} (open it in a browser; it needs no network)")
        return
    _summary(run)


def _summary(run: dict[str, Any]) -> None:
    from groundgate.viz.trace_html import graph_path, verdict_counts

    steps = run["trace"]["steps"]
    agent = [s for s in steps if s.get("lane", "agent") != "pipeline"]
    # Prose wraps at the terminal's width between words (soft_wrap off), not mid-word.
    out.print(styled((str(run.get("question", "(question not saved)")), "bold")), soft_wrap=False)
    answer = run["answer"]
    out.print(answer if isinstance(answer, str) else answer.get("text", ""), soft_wrap=False)
    if any(s.get("kind") == "model" for s in agent):
        out.print()
        out.print(styled(("path", "bold"), " " + " → ".join(n.strip("_") for n in graph_path(agent))),
                  soft_wrap=False)
    out.print(tool_table(steps))
    counts = verdict_counts(run)
    out.print(styled(
        ("grounding", "bold"),
        f" {counts['grounded']} grounded, {counts['flagged']} flagged, {counts['removed']} removed"
        + (f" ({counts['withheld']} of them withheld by the gate)" if counts["withheld"] else ""),
    ))
    for note in run.get("policy_notes") or []:
        out.print("gate: " + note, soft_wrap=False)
    bound = run.get("bound_tripped")
    totals = run["trace"].get("totals") or {}
    out.print(styled(
        ("bounds", "bold"),
        f" {totals.get('rounds', 0)} rounds · {totals.get('tokens', 0)} tokens · "
        f"{(run.get('usage') or {}).get('latency_ms', 0):.0f} ms",
        (f" · {bound['bound']} tripped ({bound['used']} of {bound['limit']})" if bound else "", "red"),
    ))

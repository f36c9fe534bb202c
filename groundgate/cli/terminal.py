"""The CLI's two consoles, and the one rule for them: every string prints as text.

Questions, model output, document titles, tool arguments and error messages reach the
terminal through ``out`` and ``err``, which have rich markup and emoji codes turned off:
``[annual-leave]``, ``pip install 'groundgate[draw]'`` and a title containing ``[/x]``
print as they are. Styles come only from ``rich.text.Text`` built here, never from
brackets inside a string.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

__all__ = ["err", "error", "out", "print_answer", "print_hits", "styled", "tool_table"]

out = Console(highlight=False, soft_wrap=True, markup=False, emoji=False)
"""Standard output: answers, tables, summaries."""
err = Console(stderr=True, highlight=False, soft_wrap=True, markup=False, emoji=False)
"""Standard error: errors, progress, server logs."""


def styled(*parts: str | tuple[str, str]) -> Text:
    """A line from plain strings and ``(text, style)`` pairs; nothing in them is parsed as markup."""
    return Text.assemble(*parts)


def error(message: str) -> None:
    """Print ``error: message`` on standard error, the message exactly as given."""
    err.print(styled(("error:", "bold red"), " ", message))


def print_hits(hits: list[Any], *, as_json: bool) -> None:
    """One ``[0.87] Title (kind) ID`` line per hit, best first, or the hits as JSON."""
    if as_json:
        out.print_json(json.dumps([h.model_dump(mode="json") for h in hits]))
        return
    if not hits:
        out.print("No articles matched.")
        return
    for hit in hits:
        out.print(f"[{hit.score:.2f}] {hit.title} ({hit.kind}) {hit.doc_id}")


def print_answer(data: dict[str, Any], show_trace: bool) -> None:
    """An answer (``RunResult.to_json()``), its sources, bounds, usage, and optionally its tool calls."""
    out.print(data["answer"])
    if data["citations"]:
        out.print()
        out.print(styled(("Sources", "bold")))
        for c in data["citations"]:
            marks = [f"superseded by {', '.join(c['superseded_by'])}"] if c.get("superseded_by") else []
            marks += [f"from the register, {c['supplied_by']}"] if c.get("supplied_by") else []
            out.print(f"  {c['source_id']}  {c['title']}" + (f"  ({'; '.join(marks)})" if marks else ""))
    if data["bound_tripped"]:
        b = data["bound_tripped"]
        out.print()
        out.print(styled(("bound tripped:", "yellow"), f" {b['bound']} ({b['used']} of {b['limit']})"))
    usage = data["usage"]
    out.print()
    out.print(styled((
        f"{data['mode']} · {data['model']} · {usage['tool_calls']} tool calls · "
        f"{usage['tokens']} tokens · {usage['latency_ms']:.0f} ms", "dim",
    )))
    if data.get("escalation") is not None:
        signals = data["escalation"]["signals"]
        lane = "lane A (pipeline)" if data["lane"] == "pipeline" else "the agent"
        why = ("; escalated: " + "; ".join(f"{s['signal']} ({s['reason']})" for s in signals)
               if signals else "; no escalation signal")
        out.print(styled((f"answered by {lane}{why}", "dim")))
    if show_trace:
        out.print(tool_table(data["trace"]["steps"]))


def _value(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False) if isinstance(value, str | list | dict) else str(value)


def _arguments(step: Mapping[str, Any]) -> Text:
    """One ``name=value`` line per argument given, then the call's error or insufficient flag."""
    args = {k: v for k, v in (step.get("args") or {}).items() if v not in (None, [], "", {})}
    cell = Text("\n".join(f"{k}={_value(v)}" for k, v in args.items()) or "(defaults)")
    if step.get("error"):
        cell.append("\nerror: " + str(step["error"]), style="red")
    elif step.get("insufficient"):
        cell.append("\ninsufficient", style="yellow")
    return cell


def tool_table(steps: Iterable[Mapping[str, Any]]) -> Table:
    """The tool calls of a run, one row each, readable at 80 columns.

    A ``lane`` column appears when lane A (the fixed pipeline) ran, so its calls and the
    agent's are told apart; arguments wrap in the one flexible column, one per line.
    """
    tools = [s for s in steps if s.get("kind") == "tool"]
    lanes = any(s.get("lane") == "pipeline" for s in tools)
    table = Table(
        title="Tool calls", box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, collapse_padding=True,
        caption="lane A: the fixed pipeline · agent: the agent's own calls" if lanes else None,
    )
    if lanes:
        table.add_column("lane", no_wrap=True)
    table.add_column("round", justify="right", no_wrap=True)
    table.add_column("tool", no_wrap=True)
    table.add_column("arguments", overflow="fold", ratio=1, min_width=16)
    for name in ("hits", "top", "ms"):
        table.add_column(name, justify="right", no_wrap=True)
    for step in tools:
        hits = step.get("hits") or []
        row = [Text(str(step.get("round", ""))), Text(str(step.get("tool", ""))), _arguments(step),
               Text(str(step.get("results", ""))), Text(f"{float(hits[0]['score']):.2f}" if hits else ""),
               Text(f"{float(step.get('ms') or 0):.1f}")]
        lane = [Text("A" if step.get("lane") == "pipeline" else "agent")] if lanes else []
        table.add_row(*lane, *row)
    return table

"""The CLI's two consoles, and the one rule for them: every string prints as text.

Questions, model output, document titles, tool arguments and error messages reach the
terminal through ``out`` and ``err``, which have rich markup and emoji codes turned off:
``[annual-leave]``, ``pip install 'groundgate[draw]'`` and a title containing ``[/x]``
print as they are. Styles come only from ``rich.text.Text`` built here, never from
brackets inside a string.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.text import Text

__all__ = ["err", "error", "out", "print_answer", "styled"]

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


def print_answer(data: dict[str, Any], show_trace: bool) -> None:
    """An answer (``RunResult.to_json()``), its sources, bounds, usage, and optionally its tool calls."""
    out.print(data["answer"])
    if data["citations"]:
        out.print()
        out.print(styled(("Sources", "bold")))
        for c in data["citations"]:
            out.print(f"  {c['source_id']}  {c['title']}")
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
        import json

        from rich.table import Table

        table = Table("round", "tool", "arguments", "results", "ms", "error", title="Tool calls")
        for step in data["trace"]["steps"]:
            if step["kind"] != "tool":
                continue
            args = json.dumps({k: v for k, v in step["args"].items() if v not in (None, [], "")})
            table.add_row(str(step["round"]), step["tool"], args, str(step["results"]),
                          f"{step['ms']:.1f}", step.get("error") or "")
        out.print(table)

"""``render_run``: one saved run (``groundgate ask --json``) as a self-contained HTML page.

Everything is inline (styles, the graph as SVG, no scripts), so the page opens offline and
can be attached to a ticket or linked from the eval report. It shows the path through the
graph, each round's tool calls (arguments, scores, timings, tokens), the grounding
verdicts, what the gate imposed and why, and how much of each bound the run used.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from groundgate.errors import ConfigError
from groundgate.viz.trace_style import CSS
from groundgate.viz.trace_verdicts import badge as _badge
from groundgate.viz.trace_verdicts import e as _e
from groundgate.viz.trace_verdicts import section_gate as _section_gate
from groundgate.viz.trace_verdicts import section_grounding as _section_grounding
from groundgate.viz.trace_verdicts import verdict_counts

__all__ = ["graph_path", "render_run", "validate_run", "verdict_counts"]

_TERMINAL_NODES = ("compose", "grounding_check", "gate")



def validate_run(run: Any) -> dict[str, Any]:
    """``run`` if it looks like ``groundgate ask --json`` output; a ``ConfigError`` naming what is missing."""
    if not isinstance(run, dict):
        raise ConfigError("a saved run is a JSON object (the output of `groundgate ask --json`)")
    missing = [k for k in ("answer", "trace") if k not in run]
    if missing or not isinstance(run.get("trace"), dict) or "steps" not in run["trace"]:
        raise ConfigError(
            f"not a saved run: missing {', '.join(missing) or 'trace.steps'} "
            "(save one with `groundgate ask ... --json > run.json`)"
        )
    return run


def graph_path(steps: Iterable[Mapping[str, Any]]) -> list[str]:
    """The nodes the run went through, in order, rebuilt from its trace steps."""
    path = ["__start__"]
    for step in steps:
        if step.get("kind") != "model":
            continue
        path.append("plan")
        if step.get("tool_calls"):
            path += ["tool_call", "bound_check"]
    return [*path, *_TERMINAL_NODES, "__end__"]


def _args(args: Mapping[str, Any]) -> str:
    shown = {k: v for k, v in args.items() if v not in (None, [], "", {})}
    if not shown:
        return '<span class="empty">defaults</span>'
    lines = [f"{k} = {json.dumps(v, ensure_ascii=False)}" for k, v in shown.items()]
    return f'<code>{_e(chr(10).join(lines))}</code>'


def _hits(step: Mapping[str, Any], limit: int = 5) -> str:
    hits = step.get("hits")
    if not hits:
        return '<span class="empty">no scores</span>' if step.get("results") else ""
    rows = []
    for hit in hits[:limit]:
        score = float(hit.get("score") or 0.0)
        width = max(0.0, min(1.0, score)) * 100
        rows.append(
            f'<div class="hit"><div class="barbox"><div class="bar" style="width:{width:.0f}%"></div></div>'
            f'<span class="mono">{score:.2f}</span> <span class="mono">{_e(hit.get("id"))}</span></div>'
        )
    more = len(hits) - limit
    if more > 0:
        rows.append(f'<div class="hit empty">… {more} more</div>')
    return "".join(rows)


def _graph_svg(path: list[str]) -> str:
    from groundgate.viz.draw import agent_wiring
    from groundgate.viz.layout import layout_graph
    from groundgate.viz.svg import render_svg

    layout = layout_graph(agent_wiring().get_graph())
    visits = Counter(path)
    edges = Counter(zip(path, path[1:], strict=False))
    return render_svg(layout, visits=visits, hot_edges=edges, title="The run's path through the agent graph")


def _section_path(path: list[str], entered: bool = True) -> str:
    if not entered:
        return (
            '<section id="path"><h2>Path through the graph</h2><div class="card"><p>The fixed pipeline '
            "(lane A) answered; the agent graph was not entered.</p></div></section>"
        )
    chips = '<span class="arrow">→</span>'.join(
        f'<span class="step">{_e(n.strip("_"))}</span>' for n in path
    )
    rounds = path.count("tool_call")
    return (
        '<section id="path"><h2>Path through the graph</h2><div class="cols">'
        f'<div class="graph card">{_graph_svg(path)}</div>'
        f'<div><p>{len(path) - 2} node visits, {rounds} tool round{"s" if rounds != 1 else ""}. '
        "Highlighted nodes were visited (the badge counts visits); highlighted edges were taken.</p>"
        f'<div class="path" aria-label="path">{chips}</div></div></div></section>'
    )


def _tool_table(calls: list[Mapping[str, Any]]) -> str:
    rows = []
    for call in calls:
        flags = []
        if call.get("error"):
            flags.append(_badge("error", "bad"))
        if call.get("insufficient"):
            flags.append(_badge("insufficient", "warn"))
        if not flags:
            flags.append(_badge("ok", "ok"))
        error = ""
        if call.get("error"):
            error = f'<div class="mono" style="color:var(--bad)">{_e(call["error"])}</div>'
        sources = " ".join(f'<span class="mono">{_e(s)}</span>' for s in call.get("source_ids") or [])
        rows.append(
            '<tr class="tool-call">'
            f'<td><b class="mono">{_e(call.get("tool"))}</b>'
            f'<div class="meta mono">{_e(call.get("call_id", ""))}</div></td>'
            f'<td class="args">{_args(call.get("args") or {})}</td>'
            f'<td>{"".join(flags)}{error}<div>{int(call.get("results") or 0)} results</div>'
            f'<div class="meta mono">digest {_e(call.get("digest", ""))}</div></td>'
            f"<td>{_hits(call)}<div>{sources}</div></td>"
            f'<td class="num">{int(call.get("tokens") or 0):,}</td>'
            f'<td class="num">{float(call.get("ms") or 0):.1f}</td></tr>'
        )
    return (
        "<table><thead><tr><th>tool</th><th>arguments</th><th>outcome</th><th>scores · sources</th>"
        '<th class="num">tokens</th><th class="num">ms</th></tr></thead><tbody>'
        + "".join(rows)
        + "</tbody></table>"
    )


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _section_pipeline(steps: list[Mapping[str, Any]]) -> str:
    if not steps:
        return ""
    parts = [
        '<section id="pipeline"><h2>Lane A: the fixed pipeline</h2>'
        '<p class="meta">Fixed tool calls, no model: what the router saw before deciding.</p>'
    ]
    for number in sorted({int(s.get("round") or 0) for s in steps}):
        calls = [s for s in steps if int(s.get("round") or 0) == number]
        parts.append(
            f'<details class="card round" open><summary><h3>Pipeline round {number}: '
            f"{_plural(len(calls), 'tool call')}</h3></summary>{_tool_table(calls)}</details>"
        )
    parts.append("</section>")
    return "".join(parts)


def _section_rounds(steps: list[Mapping[str, Any]]) -> str:
    parts = ['<section id="rounds"><h2>Agent rounds</h2>']
    models = [s for s in steps if s.get("kind") == "model"]
    if not models:
        parts.append('<p class="empty">the agent was not run: no model calls were recorded</p>')
    for model_step in models:
        number = int(model_step.get("round") or 0)
        calls = [s for s in steps if s.get("kind") == "tool" and int(s.get("round") or 0) == number + 1]
        requested = model_step.get("tool_calls") or []
        what = f"plan → {_plural(len(requested), 'tool call')}" if requested else "plan → answer"
        label = f"Round {number + 1}" if requested else "Final"
        head = (
            f"<h3>{label}: {what}</h3> "
            f'<span class="meta"><span>model {_e(model_step.get("model", ""))}</span>'
            f'<span>{int(model_step.get("tokens") or 0):,} tokens</span>'
            f'<span>{float(model_step.get("ms") or 0):.1f} ms</span></span>'
        )
        body = _tool_table(calls) if calls else ""
        parts.append(f'<details class="card round" open><summary>{head}</summary>{body}</details>')
    parts.append("</section>")
    return "".join(parts)


_LIMIT_KEYS = {"rounds": "max_rounds", "tokens": "token_budget", "wall_clock": "wall_clock_s"}
"""A tripped bound's name -> the ``Bounds`` field that limits it."""


def _meter(label: str, used: float, limit: float | None, unit: str, tripped: bool) -> str:
    shown = f"{used:,.0f}{unit}" + (f" of {limit:,.0f}{unit}" if limit else "")
    bar = ""
    if limit:
        share = max(0.0, min(1.0, used / limit)) * 100
        tone = " tripped" if tripped else ""
        bar = f'<div class="meter{tone}"><div style="width:{share:.0f}%"></div></div>'
    flag = _badge("tripped", "bad") if tripped else ""
    return (
        f'<tr class="bound"><td>{_e(label)} {flag}</td><td class="num">{_e(shown)}</td>'
        f'<td style="width:45%">{bar}</td></tr>'
    )


def _section_bounds(run: Mapping[str, Any]) -> str:
    trace = run.get("trace") or {}
    totals = trace.get("totals") or {}
    usage = run.get("usage") or {}
    limits = dict(trace.get("bounds") or run.get("bounds") or {})
    bound = run.get("bound_tripped") or trace.get("bound_tripped") or {}
    if isinstance(bound, dict) and bound.get("bound"):
        key = _LIMIT_KEYS.get(bound["bound"])
        if key:
            limits.setdefault(key, bound.get("limit"))
    tripped = bound.get("bound") if isinstance(bound, dict) else None
    wall = limits.get("wall_clock_s")
    rows = [
        _meter("rounds", float(totals.get("rounds") or 0), limits.get("max_rounds"), "",
               tripped == "rounds"),
        _meter("tokens", float(totals.get("tokens") or 0), limits.get("token_budget"), "",
               tripped == "tokens"),
        _meter("wall clock", float(usage.get("latency_ms") or 0), wall * 1000 if wall else None, " ms",
               tripped == "wall_clock"),
    ]
    detail = (
        f'{int(totals.get("tool_calls") or 0)} tool calls ({float(totals.get("tool_ms") or 0):.1f} ms), '
        f'{int(totals.get("model_calls") or 0)} model calls ({float(totals.get("model_ms") or 0):.1f} ms), '
        f'{int(totals.get("errors") or 0)} tool errors'
    )
    return (
        '<section id="bounds"><h2>Bound usage</h2>'
        f'<div class="card"><table><tbody>{"".join(rows)}</tbody></table>'
        f'<p class="meta">{_e(detail)}</p></div>'
        "</section>"
    )


def render_run(run: Mapping[str, Any], *, title: str | None = None) -> str:
    """The run page as one HTML string (no external resources)."""
    data = validate_run(dict(run))
    steps = list(data["trace"].get("steps") or [])
    pipeline = [st for st in steps if st.get("lane") == "pipeline"]
    agent = [st for st in steps if st.get("lane", "agent") != "pipeline"]
    path = graph_path(agent)
    question = str(data.get("question") or "")
    answered = data.get("answered")
    status = (
        _badge("answered", "ok") if answered else _badge("not answered", "warn") if answered is False else ""
    )
    if data.get("contested"):
        status += _badge("contested: both positions shown", "warn")
    if data.get("bound_tripped"):
        status += _badge("bound tripped", "bad")
    if data.get("lane"):
        lane = "lane A (fixed pipeline)" if data["lane"] == "pipeline" else "the agent"
        status += _badge("answered by " + lane, "info")
    escalation = data.get("escalation") or {}
    signals = "".join(
        f"<li><b>{_e(sig.get('signal', ''))}</b>: {_e(sig.get('reason', ''))}</li>"
        for sig in escalation.get("signals") or []
        if isinstance(sig, dict)
    )
    routed = f'<div class="meta">Escalated to the agent because:</div><ul>{signals}</ul>' if signals else ""
    meta = "".join(
        f"<span>{_e(v)}</span>"
        for v in (
            f"mode {data.get('mode', 'agent')}",
            f"model {data.get('model') or data['trace'].get('model', '')}",
            f"as of {data['as_of']}" if data.get("as_of") else None,
            f"{int((data.get('usage') or {}).get('tool_calls') or 0)} tool calls",
            f"{int((data.get('usage') or {}).get('tokens') or 0):,} tokens",
            f"{float((data.get('usage') or {}).get('latency_ms') or 0):,.0f} ms",
        )
        if v
    )
    citations = "".join(
        f'<li><span class="mono">{_e(c.get("source_id"))}</span> {_e(c.get("title", ""))} '
        f'<span class="meta">{_e(c.get("kind", ""))}</span></li>'
        for c in data.get("citations") or []
    )
    answer = data["answer"]
    answer_text = answer if isinstance(answer, str) else (answer or {}).get("text", "")
    page_title = title or (f"groundgate run: {question}" if question else "groundgate run")
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(page_title)}</title><style>{CSS}</style></head><body><main>"
        '<header><div class="meta">groundgate run</div>'
        f'<h1 id="question">{_e(question or "(question not saved)")}</h1>'
        f'<div class="meta">{meta}</div></header>'
        f'<section id="answer"><h2>Answer</h2><div class="card"><p>{status}</p>'
        f'<div class="answer">{_e(answer_text)}</div>{routed}'
        + (f"<h3>Sources</h3><ul>{citations}</ul>" if citations else "")
        + "</div></section>"
        + _section_path(path, entered=any(st.get("kind") == "model" for st in agent))
        + _section_pipeline(pipeline)
        + _section_rounds(agent)
        + _section_grounding(data)
        + _section_gate(data)
        + _section_bounds(data)
        + "<footer>Rendered offline by groundgate from a saved run; "
        "every tool call above is in the run's trace.</footer></main></body></html>\n"
    )

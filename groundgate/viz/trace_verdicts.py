"""The run page's verdict sections: grounding (counted from the rows shown) and the gate.

The grounding check counts what it decided; the gate may then withhold more claims, so
what the page says above the rows is counted from the rows themselves.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

__all__ = ["STATUSES", "badge", "e", "section_gate", "section_grounding", "verdict_counts"]


def e(value: Any) -> str:
    """``value`` escaped for HTML; nothing for ``None`` (a missing field is not the word "None")."""
    return "" if value is None else escape(str(value), quote=True)


def badge(text: str, tone: str = "") -> str:
    """A small rounded label; ``tone`` is ok, warn, bad or info."""
    return f'<span class="badge {tone}">{e(text)}</span>'


_STATUS_TONE = {"grounded": "ok", "flagged": "warn", "removed": "bad"}
STATUSES = tuple(_STATUS_TONE)
"""A claim's final status, as the run's ``claims`` give it."""


def verdict_counts(run: Mapping[str, Any]) -> dict[str, int]:
    """The run's claims by final status (the rows a reader sees), and how many the gate withheld.

    ``grounding`` is what the grounding check decided; the gate then withholds claims that
    take a side in an open disagreement, so the rows are counted, and the removed rows the
    grounding check did not remove are the gate's (``withheld``).
    """
    grounding = run.get("grounding") or {}
    claims = run.get("claims") or []
    if not claims:  # no rows to count: the grounding report is all there is
        return {**{k: int(grounding.get(k) or 0) for k in STATUSES}, "withheld": 0}
    counts = {k: sum(1 for c in claims if c.get("status") == k) for k in STATUSES}
    return {**counts, "withheld": max(0, counts["removed"] - int(grounding.get("removed") or 0))}


def section_grounding(run: Mapping[str, Any]) -> str:
    """The grounding verdicts: counts that match the rows, then one row per claim."""
    grounding = run.get("grounding") or {}
    claims = run.get("claims") or []
    counts = verdict_counts(run)
    summary = " ".join(badge(f"{counts[k]} {k}", _STATUS_TONE[k]) for k in STATUSES)
    if counts["withheld"]:
        summary += badge(f"{counts['withheld']} of them withheld by the gate", "info")
    if grounding.get("revised"):
        summary += badge("revised once", "info")
    rows = []
    for claim in claims:
        status = str(claim.get("status", ""))
        cites = " ".join(f'<span class="mono">{e(c)}</span>' for c in claim.get("citations") or [])
        note = f'<div class="meta">{e(claim["note"])}</div>' if claim.get("note") else ""
        rows.append(
            f'<tr class="claim"><td>{e(claim.get("text", ""))}{note}</td>'
            f"<td>{badge(status, _STATUS_TONE.get(status, ''))}</td>"
            f'<td>{e(claim.get("grounded_by") or "")}</td><td>{cites}</td></tr>'
        )
    table = (
        "<table><thead><tr><th>claim</th><th>verdict</th><th>grounded by</th><th>citations</th></tr></thead>"
        f'<tbody>{"".join(rows)}</tbody></table>'
        if rows
        else '<p class="empty">the draft made no claims to check</p>'
    )
    removed = grounding.get("removed_citations") or []
    removed_html = (
        f'<p>Citations removed (not in the trace): {" ".join(e(r) for r in removed)}</p>' if removed else ""
    )
    return (
        '<section id="grounding"><h2>Grounding verdicts</h2>'
        f'<div class="card"><p>{summary}</p>{removed_html}{table}</div></section>'
    )


def section_gate(run: Mapping[str, Any]) -> str:
    """What the gate imposed: policy notes, every contested point with all positions, disclosures."""
    items = []
    for note in run.get("policy_notes") or []:
        items.append(f'<li class="policy-note">{e(note)}</li>')
    notes = f"<ul>{''.join(items)}</ul>" if items else '<p class="empty">no policy changed this answer</p>'
    contested = []
    for entry in run.get("contested") or []:
        positions = "".join(
            f'<div class="position">{e(p.get("statement", ""))} '
            + " ".join(f'<span class="mono">[{e(s)}]</span>' for s in p.get("source_ids") or [])
            + "</div>"
            for p in entry.get("positions") or []
        )
        entry_id = entry.get("contradiction_id")
        where = (f'owner: {e(entry.get("owner") or "unassigned")}' if entry_id else
                 "found in the retrieved sources; no register entry covers it")
        contested.append(
            f'<div class="card contested"><div>{badge(entry.get("status") or "open", "warn")}'
            f'<b>{e(entry_id or "not in the register")}</b> {e(entry.get("topic"))}</div>'
            f'<div class="meta">{where} · every position is shown; '
            f"none is chosen</div>{positions}</div>"
        )
    insufficient = "".join(f"<li>{e(i)}</li>" for i in run.get("insufficient") or [])
    bound = run.get("bound_tripped")
    bound_html = (
        f'<p>{badge("bound tripped", "bad")} {e(bound.get("bound"))}: used {e(bound.get("used"))} '
        f'of {e(bound.get("limit"))}; the answer was composed from what had been gathered.</p>'
        if isinstance(bound, dict)
        else ""
    )
    return (
        '<section id="gate"><h2>What the gate imposed, and why</h2>'
        f'<div class="card"><h3>Policy notes</h3>{notes}</div>'
        + "".join(contested)
        + (f'<div class="card"><h3>Disclosed as not known</h3><ul>{insufficient}</ul></div>'
           if insufficient else "")
        + bound_html
        + "</section>"
    )

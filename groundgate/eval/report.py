"""The output folder: ``results.jsonl``, ``summary.json``, ``report.md``, ``report.html``.

Both reports hold the same tables; the HTML one also embeds the figures (base64 PNGs,
no external files) when matplotlib is installed, and says so when it is not.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from groundgate.eval import plots
from groundgate.eval.runner import CONFIGS

__all__ = ["CAVEATS", "ReportFiles", "write_report"]

CAVEATS = (
    "Keyword correctness is a blunt proxy: an answer counts as correct when every keyword group "
    "of the label appears in its text (case-insensitive), so an answer that dumps evidence text "
    "can score well and a right answer in other words scores zero. Read the answers "
    "(results.jsonl) before trusting a difference.",
    "Citation precision is low whenever the labels list only the minimal sources; recall is the "
    "fairer of the two. Both are computed against the cited sources of the final answer.",
    "The trace-shape score is the longest common subsequence of the actual and expected tool "
    "sequences over the longer of the two: extra calls cost as much as missing ones.",
    "Leaks are internal strings in the answer text: a tool name used as one, a tool's error "
    "string, the INSUFFICIENT mark, a Python repr, an entity id outside the citations. Yes/No "
    "first is judged only where the labels give the expected lead. Off subject means the "
    "answer cites a source beyond the expected ones: where the labels list only the minimal "
    "sources, a second document that states the same fact counts too.",
    "Tokens are what the model reported (the offline planner estimates four characters a "
    "token); lane A offline makes no model call. Latency depends on the machine and is the "
    "only figure that changes between two offline runs.",
)


@dataclass(frozen=True)
class ReportFiles:
    """What was written."""

    results: Path
    summary: Path
    markdown: Path
    html: Path
    plots_skipped: bool
    """True when matplotlib is missing: the HTML report has tables but no figures."""


def _fmt(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


Table = tuple[list[str], list[list[Any]]]


def _summary_table(summary: dict[str, Any]) -> Table:
    head = ["run", "correct", "cit. P", "cit. R", "contested: both / side / declined", "refused wrongly",
            "unanswerable: said insufficient / answered", "gave up wrongly", "leaks", "Yes/No first",
            "off subject", "shape", "tool calls", "tokens", "latency ms", "answered by", "routing"]
    rows = []
    for r in summary["runs"]:
        c, u = r["contested"], r["unanswerable"]
        lanes = ", ".join(f"{k} {v}" for k, v in r["answered_by"].items())
        rows.append([
            r["key"], r["correctness"], r["citation_precision"], r["citation_recall"],
            f"{c['presented_both']} / {c['chose_side']} / {c['declined']} of {c['questions']}",
            r["refused_wrongly"], f"{u['said_insufficient']} / {u['answered_anyway']} of {u['questions']}",
            r["wrongly_insufficient"], r["leaks"], f"{r['lead']['ok']} of {r['lead']['questions']}",
            f"{r['off_subject']['off_subject']} of {r['off_subject']['questions']}",
            r["shape_score"], r["tool_calls"], r["tokens"],
            f"{r['latency_ms_mean']:.0f} (p50 {r['latency_ms_p50']:.0f})", lanes, r["routing_accuracy"],
        ])
    return head, rows


def _matrix(rows: Sequence[dict[str, Any]], keys: list[str], select: Any, cell: Any) -> Table:
    qids = list(dict.fromkeys(r["qid"] for r in rows if select(r)))
    index = {(r["key"], r["qid"]): r for r in rows}
    body = []
    for qid in qids:
        first = next(r for r in rows if r["qid"] == qid)
        body.append([qid, first["category"], *[cell(index[(k, qid)]) for k in keys]])
    return ["qid", "category", *keys], body


def _category_table(summary: dict[str, Any], metric: str) -> Table:
    keys = list(summary["by_category"])
    cats = list(next(iter(summary["by_category"].values()))) if keys else []
    body = [[k, *[summary["by_category"][k][c][metric] for c in cats]] for k in keys]
    counts = summary["by_category"][keys[0]] if keys else {}
    return ["run", *[f"{c} ({counts[c]['questions']})" for c in cats]], body


def _md_table(table: Table) -> str:
    head, body = table
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(_fmt(v).replace("|", "/") for v in row) + " |" for row in body]
    return "\n".join(lines)


_CELL_CLASS = {
    "chose_side": "bad", "refused_wrongly": "bad", "answered_anyway": "bad", "✗": "bad",
    "presented_both": "good", "said_insufficient": "good", "✓": "good", "declined": "meh",
}


def _html_table(table: Table) -> str:
    head, body = table
    heads = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    out = [f"<table><thead><tr>{heads}</tr></thead><tbody>"]
    for row in body:
        cells = []
        for v in row:
            text = _fmt(v)
            cls = _CELL_CLASS.get(text.split(" ")[0], "")
            opening = f'<td class="{cls}">' if cls else "<td>"
            cells.append(f"{opening}{html.escape(text)}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


Section = tuple[str, Table | list[str]]


def _sections(rows: Sequence[dict[str, Any]], summary: dict[str, Any]) -> list[Section]:
    keys = [r["key"] for r in summary["runs"]]
    runs = sorted({(r["config"]) for r in rows}, key=list(CONFIGS).index)
    sections: list[Section] = []
    naming = "Each run is named configuration/policies/model; policies `off` is `PolicySet.off()`."
    sections.append(("Configurations", [f"**{c}**: {CONFIGS[c]}" for c in runs] + [naming]))
    sections.append(("Read this first", list(CAVEATS)))
    sections.append(("Summary", _summary_table(summary)))
    gates = summary["blown_gates"]
    sections.append((
        "Blown gates: contested questions where a run chose a side",
        [f"**{g['key']}** on {g['qid']} ({g['question']}): {g['detail']}" for g in gates]
        or ["None: on every contested question every run presented both positions or declined."],
    ))
    contested = [r for r in rows if r["contested"]]
    if contested:
        sections.append(("Refusal test (contested questions)",
                         _matrix(rows, keys, lambda r: r["contested"], lambda r: r["refusal"])))
    wrong = summary["refused_wrongly"]
    sections.append((
        "Refused wrongly: a register disagreement presented on a question the labels call uncontested",
        [f"**{w['key']}** on {w['qid']} ({w['question']}): {w['detail']}" for w in wrong] or ["None."],
    ))
    sections.append((
        "Leaks: internal strings in the answer text",
        [f"**{leak['key']}** on {leak['qid']} ({leak['question']}): "
         + ", ".join(f"`{x}`" for x in leak["leaks"]) for leak in summary["leaks"]] or ["None."],
    ))
    if any(r["lead_ok"] is not None for r in rows):
        sections.append(("Yes/No first (questions with an expected lead)", _matrix(
            rows, keys, lambda r: r["lead_ok"] is not None,
            lambda r: f"✓ {r['expected_lead']}" if r["lead_ok"] else f"✗ want {r['expected_lead']}",
        )))
    if any(r["off_subject"] for r in rows):
        sections.append(("Off subject: sources cited beyond the expected ones", _matrix(
            rows, keys, lambda r: bool(r["off_subject"]),
            lambda r: ", ".join(r["off_subject_sources"]) or "–",
        )))
    if any(not r["answerable"] for r in rows):
        sections.append(("Unanswerable questions",
                         _matrix(rows, keys, lambda r: not r["answerable"], lambda r: r["insufficient"])))
    sections.append(("Correctness by category", _category_table(summary, "correctness")))
    sections.append(("Citation recall by category", _category_table(summary, "citation_recall")))
    routed = [r for r in rows if r["escalated"] is not None]
    if routed:
        head = ["run", "qid", "category", "needs agent", "escalated", "signals", "routing correct", "correct"]
        body = [[r["key"], r["qid"], r["category"], r["needs_agent"], r["escalated"],
                 ", ".join(r["signals"]) or "–", r["routing_correct"], r["correctness"]] for r in routed]
        sections.append(("Routing", (head, body)))
    sections.append(("Correctness per question (✓ all keyword groups, ✗ not; – unanswerable)", _matrix(
        rows, keys, lambda r: True,
        lambda r: "–" if r["correctness"] is None else ("✓" if r["correctness"] == 1.0 else "✗"),
    )))
    return sections


def _markdown(summary: dict[str, Any], sections: list[Section], plot_note: str) -> str:
    head = f"Dataset: {summary['dataset']} ({summary['questions']} questions). {plot_note}"
    out = [f"# groundgate evaluation\n\n{head}"]
    for title, content in sections:
        out.append(f"## {title}")
        if isinstance(content, tuple):
            out.append(_md_table(content))
        else:
            out.append("\n".join(f"- {line}" for line in content))
    return "\n\n".join(out) + "\n"


_CSS = """body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1200px;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:13px}
th,td{border:1px solid #ccc;padding:3px 7px;text-align:left}
th{background:#f3f3f3}td.bad{background:#fdecea;color:#b71c1c;font-weight:600}td.good{background:#e8f5e9}
td.meh{background:#f5f5f5}figure{margin:1.5em 0}figcaption{font-size:13px;color:#555}img{max-width:100%}
.note{background:#fff8e1;border-left:4px solid #f9a825;padding:.5em 1em}"""


def _inline_md(text: str) -> str:
    escaped = html.escape(text)
    parts = escaped.split("**")
    return "".join(f"<strong>{p}</strong>" if i % 2 else p for i, p in enumerate(parts)).replace("`", "")


def _html(
    summary: dict[str, Any], sections: list[Section], figures: list[tuple[str, str]], plot_note: str
) -> str:
    out = ["<!doctype html><html><head><meta charset='utf-8'><title>groundgate evaluation</title>",
           f"<style>{_CSS}</style></head><body>", "<h1>groundgate evaluation</h1>",
           f"<p>Dataset: {html.escape(summary['dataset'])} ({summary['questions']} questions).</p>"]
    if not figures:
        out.append(f"<p class='note'>{html.escape(plot_note)}</p>")
    for title, content in sections:
        out.append(f"<h2>{html.escape(title)}</h2>")
        if isinstance(content, tuple):
            out.append(_html_table(content))
        else:
            out.append("<ul>" + "".join(f"<li>{_inline_md(line)}</li>" for line in content) + "</ul>")
        if title == "Summary" and figures:
            out.append("<h2>Figures</h2>")
            out += [f"<figure><img alt='{html.escape(c)}' src='data:image/png;base64,{png}'>"
                    f"<figcaption>{html.escape(c)}</figcaption></figure>" for c, png in figures]
    out.append("</body></html>")
    return "\n".join(out)


def _as_saved_run(row: dict[str, Any]) -> dict[str, Any]:
    """A results row in the shape of `groundgate ask --json`, which the run page reads."""
    answer = row["answer"]
    return {
        "question": row["question"], "as_of": row["as_of"], "answer": answer["text"],
        **{k: answer.get(k) for k in ("answered", "claims", "citations", "contested", "insufficient",
                                       "bound_tripped", "grounding", "policy_notes")},
        "trace": row["trace"], "model": row["model"], "mode": row["config"],
        "usage": {"tool_calls": row["tool_calls"], "tokens": row["tokens"], "latency_ms": row["latency_ms"]},
    }


def _write_run_pages(out_dir: Path, rows: Sequence[dict[str, Any]]) -> dict[tuple[str, str], str]:
    """One offline page per question and run under ``runs/``; returns (key, qid) -> relative path."""
    from groundgate.viz.trace_html import render_run

    links: dict[tuple[str, str], str] = {}
    for row in rows:
        folder = re.sub(r"[^A-Za-z0-9_.-]+", "_", row["key"])
        rel = f"runs/{folder}/{re.sub(r'[^A-Za-z0-9_.-]+', '_', row['qid'])}.html"
        target = out_dir / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        page = render_run(_as_saved_run(row), title=f"{row['qid']} · {row['key']}")
        target.write_text(page, encoding="utf-8")
        links[(row["key"], row["qid"])] = rel
    return links


def _links_html(rows: Sequence[dict[str, Any]], links: dict[tuple[str, str], str]) -> str:
    keys = list(dict.fromkeys(r["key"] for r in rows))
    qids = list(dict.fromkeys(r["qid"] for r in rows))
    head = "".join(f"<th>{html.escape(k)}</th>" for k in keys)
    body = []
    for qid in qids:
        cells = "".join(
            f"<td><a href='{html.escape(links[(k, qid)])}'>run</a></td>" if (k, qid) in links
            else "<td>–</td>"
            for k in keys
        )
        body.append(f"<tr><td>{html.escape(qid)}</td>{cells}</tr>")
    return f"<h2>Run pages</h2><table><tr><th>question</th>{head}</tr>{''.join(body)}</table>"


def write_report(out_dir: Path, rows: Sequence[dict[str, Any]], summary: dict[str, Any]) -> ReportFiles:
    """Write the four files into ``out_dir`` (created if missing)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    files = ReportFiles(
        results=out_dir / "results.jsonl", summary=out_dir / "summary.json",
        markdown=out_dir / "report.md", html=out_dir / "report.html", plots_skipped=not plots.available(),
    )
    with files.results.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False, default=str) + "\n")
    files.summary.write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    figures = [] if files.plots_skipped else plots.figures(summary)
    plot_note = (
        "Plots were skipped: matplotlib is not installed (pip install 'groundgate[eval]')."
        if files.plots_skipped else "The figures are in report.html."
    )
    sections = _sections(rows, summary)
    files.markdown.write_text(_markdown(summary, sections, plot_note), encoding="utf-8")
    links = _write_run_pages(out_dir, rows)
    page = _html(summary, sections, figures, plot_note)
    page = page.replace("</body>", _links_html(rows, links) + "</body>")
    files.html.write_text(page, encoding="utf-8")
    return files

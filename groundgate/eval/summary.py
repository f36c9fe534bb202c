"""From rows to figures: per-run means and counts, by category, and every blown gate.

Latency is the only figure that changes between two offline runs; every other number
is rounded so that the summary is reproducible run to run.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["CATEGORY_METRICS", "INSUFFICIENT", "LATENCY_KEYS", "REFUSALS", "blown_gates", "summarise"]

CATEGORY_METRICS = ("correctness", "citation_precision", "citation_recall", "shape_score")
"""Metrics broken down by question category (and plotted)."""
LATENCY_KEYS = ("latency_ms_mean", "latency_ms_p50")
"""Summary keys that depend on the machine, not the answers."""
REFUSALS = ("presented_both", "chose_side", "declined")
INSUFFICIENT = ("said_insufficient", "answered_anyway")


def _mean(values: Iterable[float | None]) -> float | None:
    kept = [v for v in values if v is not None]
    return round(statistics.fmean(kept), 4) if kept else None


def _count(rows: Sequence[dict[str, Any]], field: str, value: Any) -> int:
    return sum(1 for r in rows if r[field] == value)


def _run_summary(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    first = rows[0]
    contested = [r for r in rows if r["contested"]]
    unanswerable = [r for r in rows if not r["answerable"]]
    routed = [r for r in rows if r["routing_correct"] is not None]
    led = [r for r in rows if r["lead_ok"] is not None]
    judged = [r for r in rows if r["off_subject"] is not None]
    latencies = [r["latency_ms"] for r in rows]
    return {
        "key": first["key"],
        "config": first["config"],
        "policies": first["policies"],
        "model": first["model"],
        "questions": len(rows),
        "correctness": _mean(r["correctness"] for r in rows),
        "keyword_coverage": _mean(r["keyword_coverage"] for r in rows),
        "citation_precision": _mean(r["citation_precision"] for r in rows),
        "citation_recall": _mean(r["citation_recall"] for r in rows),
        "contested": {"questions": len(contested), **{k: _count(contested, "refusal", k) for k in REFUSALS}},
        "refused_wrongly": _count(rows, "refusal", "refused_wrongly"),
        "unanswerable": {
            "questions": len(unanswerable),
            **{k: _count(unanswerable, "insufficient", k) for k in INSUFFICIENT},
        },
        "wrongly_insufficient": _count(rows, "insufficient", "wrongly_insufficient"),
        "leaks": _count(rows, "leak", True),
        "lead": {"questions": len(led), "ok": _count(led, "lead_ok", True)},
        "off_subject": {"questions": len(judged), "off_subject": _count(judged, "off_subject", True)},
        "shape_score": _mean(r["shape_score"] for r in rows),
        "tool_calls": _mean(r["tool_calls"] for r in rows),
        "tokens": _mean(r["tokens"] for r in rows),
        "latency_ms_mean": round(statistics.fmean(latencies), 1),
        "latency_ms_p50": round(statistics.median(latencies), 1),
        "answered_by": {lane: _count(rows, "lane", lane) for lane in sorted({str(r["lane"]) for r in rows})},
        "escalated": sum(1 for r in rows if r["escalated"]) if first["escalated"] is not None else None,
        "routing_accuracy": _mean(float(r["routing_correct"]) for r in routed) if routed else None,
    }


def blown_gates(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every contested question on which a run chose a side, in row order, with the run's configuration."""
    return [
        {"key": r["key"], "config": r["config"], "policies": r["policies"], "model": r["model"],
         "qid": r["qid"], "question": r["question"], "detail": r["refusal_detail"]}
        for r in rows
        if r["refusal"] == "chose_side"
    ]


def summarise(rows: Sequence[dict[str, Any]], *, dataset: str) -> dict[str, Any]:
    """The ``summary.json`` object."""
    keys = list(dict.fromkeys(r["key"] for r in rows))
    runs = {k: [r for r in rows if r["key"] == k] for k in keys}
    categories = list(dict.fromkeys(r["category"] for r in rows))
    by_category = {
        key: {
            cat: {
                "questions": sum(1 for r in run if r["category"] == cat),
                **{m: _mean(r[m] for r in run if r["category"] == cat) for m in CATEGORY_METRICS},
            }
            for cat in categories
        }
        for key, run in runs.items()
    }
    return {
        "dataset": dataset,
        "questions": len({r["qid"] for r in rows}),
        "runs": [_run_summary(run) for run in runs.values()],
        "by_category": by_category,
        "blown_gates": blown_gates(rows),
        "refused_wrongly": [
            {"key": r["key"], "qid": r["qid"], "question": r["question"], "detail": r["refusal_detail"]}
            for r in rows if r["refusal"] == "refused_wrongly"
        ],
        "leaks": [
            {"key": r["key"], "qid": r["qid"], "question": r["question"], "leaks": r["leaks"]}
            for r in rows if r["leak"]
        ],
    }

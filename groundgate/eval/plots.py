"""The report's figures (matplotlib, the ``eval`` extra), as base64 PNGs for one HTML file."""

from __future__ import annotations

import base64
import io
from typing import Any

__all__ = ["available", "figures"]

_OUTCOME_COLOURS = {"presented_both": "#2e7d32", "chose_side": "#c62828", "declined": "#9e9e9e"}


def available() -> bool:
    """Whether matplotlib can be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _png(fig: Any) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def figures(summary: dict[str, Any]) -> list[tuple[str, str]]:
    """(caption, base64 PNG) for each figure; requires matplotlib."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from groundgate.eval.summary import CATEGORY_METRICS

    out: list[tuple[str, str]] = []
    runs = summary["runs"]
    keys = [r["key"] for r in runs]
    categories = list(next(iter(summary["by_category"].values())).keys()) if runs else []
    width = 0.8 / max(1, len(keys))
    size = (max(8, 1.3 * len(categories) + 3), 3.2 * len(CATEGORY_METRICS))
    fig, axes = plt.subplots(len(CATEGORY_METRICS), 1, figsize=size)
    cmap = plt.get_cmap("tab20")
    for ax, metric in zip(axes, CATEGORY_METRICS, strict=True):
        for i, key in enumerate(keys):
            values = [summary["by_category"][key][c][metric] for c in categories]
            xs = [j + (i - (len(keys) - 1) / 2) * width for j in range(len(categories))]
            ax.bar(xs, [v if v is not None else 0 for v in values], width, label=key, color=cmap(i % 20))
        ax.set_xticks(range(len(categories)), categories, fontsize=8)
        ax.set_ylim(0, 1.05)
        ax.set_title(metric.replace("_", " "), fontsize=10)
        ax.grid(axis="y", alpha=0.3)
    axes[0].legend(fontsize=7, ncol=min(4, len(keys)), loc="upper left", bbox_to_anchor=(0, 1.45))
    fig.tight_layout()
    caption = "Per configuration, each metric by question category (a missing value is drawn as 0)"
    out.append((caption, _png(fig)))
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 4.5))
    points: dict[tuple[float, float], list[str]] = {}
    for i, run in enumerate(runs):
        point = (run["tokens"] or 0.0, run["correctness"] or 0.0)
        ax.scatter(*point, s=60, color=cmap(i % 20))
        points.setdefault(point, []).append(run["key"])
    for point, names in points.items():  # runs on the same spot share one label
        ax.annotate(", ".join(names), point, fontsize=7, xytext=(4, 4), textcoords="offset points")
    ax.set_xlabel("mean tokens per question")
    ax.set_ylabel("keyword correctness (answerable questions)")
    ax.set_ylim(-0.02, 1.05)
    ax.grid(alpha=0.3)
    out.append(("Tokens versus correctness, one point per run", _png(fig)))
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(max(6, 0.9 * len(keys) + 2), 3.5))
    bottom = [0] * len(keys)
    for outcome, colour in _OUTCOME_COLOURS.items():
        counts = [run["contested"][outcome] for run in runs]
        ax.bar(keys, counts, bottom=bottom, color=colour, label=outcome.replace("_", " "))
        bottom = [b + c for b, c in zip(bottom, counts, strict=True)]
    ax.set_ylabel("contested questions")
    ax.tick_params(axis="x", labelrotation=45, labelsize=8)
    ax.legend(fontsize=8)
    out.append(("Refusal test: outcome on every contested question, per run", _png(fig)))
    plt.close(fig)
    return out

"""The golden-set runner: every question through every configuration, one row each.

Configurations (the only variable between B and C is the tools' vocabulary: same
model, same bounds, same composer, same policies):

- ``A``: the fixed fused pipeline (lane A);
- ``B``: the agent with only ``search_evidence`` (the search-box agent);
- ``C``: the agent with all eight tools;
- ``router``: lane A, escalating to C on explicit signals;

each with the policy layer on (``PolicySet()``) or off (``PolicySet.off()``), for each
model spec given.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from groundgate.errors import ConfigError
from groundgate.eval.dataset import GoldQuestion
from groundgate.eval.metrics import (
    citation_scores,
    insufficient_outcome,
    keyword_coverage,
    lead_ok,
    leaks,
    off_subject,
    refusal_outcome,
    shape_score,
)
from groundgate.graph.build import build_agent
from groundgate.graph.context import Bounds
from groundgate.knowledge.embed import Embedder
from groundgate.knowledge.port import KnowledgeStore
from groundgate.models.factory import make_chat_model
from groundgate.pipeline.build import build_pipeline
from groundgate.pipeline.router import build_router
from groundgate.policies.policyset import PolicySet

__all__ = ["CONFIGS", "POLICIES", "evaluate", "parse_list", "run_key", "score_row"]

CONFIGS: dict[str, str] = {
    "A": "fixed fused pipeline (lane A)",
    "B": "agent with search_evidence only",
    "C": "agent with all eight tools",
    "router": "lane A, escalating to the agent (C) on signals",
}
"""Configuration name to what it is."""
POLICIES: dict[str, PolicySet] = {"on": PolicySet(), "off": PolicySet.off()}
"""Policy setting name to the policy set."""

Runner = Callable[[GoldQuestion], dict[str, Any]]
Progress = Callable[[int, int, str], None]


def parse_list(value: str, allowed: Sequence[str], flag: str) -> list[str]:
    """``"A,b, router"`` -> ``["A", "B", "router"]``, checked against ``allowed``."""
    by_lower = {a.lower(): a for a in allowed}
    chosen = []
    for part in (p.strip() for p in value.split(",")):
        if not part:
            continue
        if part.lower() not in by_lower:
            raise ConfigError(f"{flag}: unknown value {part!r}; choose from {', '.join(allowed)}")
        chosen.append(by_lower[part.lower()])
    if not chosen:
        raise ConfigError(f"{flag}: give at least one of {', '.join(allowed)}")
    return list(dict.fromkeys(chosen))


def run_key(config: str, policies: str, model: str) -> str:
    """``A/on/offline``: how rows, summaries and the report name a run."""
    return f"{config}/{policies}/{model}"


def _runner(config: str, store: KnowledgeStore, model_spec: str, policies: PolicySet,
            embedder: Embedder | None, bounds: Bounds, env: Mapping[str, str]) -> Runner:
    model = make_chat_model(model_spec, env=env, timeout_s=bounds.wall_clock_s)
    common: dict[str, Any] = {"policies": policies, "embedder": embedder, "model_name": model_spec}
    graph: Any
    if config == "A":
        graph = build_pipeline(store, model, bounds=bounds, **common)
    elif config == "B":
        graph = build_agent(store, model, tools=["search_evidence"], bounds=bounds, **common)
    elif config == "C":
        graph = build_agent(store, model, bounds=bounds, **common)
    else:
        graph = build_router(store, model, bounds=bounds, **common)

    def run(question: GoldQuestion) -> dict[str, Any]:
        as_of = question.as_of.isoformat() if question.as_of else None
        return dict(graph.invoke({"question": question.question, "as_of": as_of}))

    return run


def score_row(question: GoldQuestion, out: dict[str, Any], *, config: str, policies: str,
              model: str, latency_ms: float, store: KnowledgeStore) -> dict[str, Any]:
    """One row of ``results.jsonl``: labels, metrics and the full answer and trace."""
    answer, trace = out["answer"], out["trace"]
    tools = [s["tool"] for s in trace["steps"] if s["kind"] == "tool"]
    coverage = keyword_coverage(answer["text"], question.gold_keywords) if question.answerable else None
    precision, recall = citation_scores(answer, question.expected_source_ids)
    refusal, refusal_detail = refusal_outcome(answer, question, store.contradictions())
    escalation = out.get("escalation")
    escalated = escalation["escalated"] if escalation else None
    leaked = leaks(answer["text"])
    strays = off_subject(answer, question.expected_source_ids, question.answerable)
    return {
        "key": run_key(config, policies, model),
        "config": config,
        "policies": policies,
        "model": model,
        "qid": question.qid,
        "category": question.category,
        "split": question.split,
        "question": question.question,
        "as_of": question.as_of.isoformat() if question.as_of else None,
        "contested": question.contested,
        "answerable": question.answerable,
        "needs_agent": question.needs_agent,
        "correctness": None if coverage is None else float(coverage == 1.0),
        "keyword_coverage": coverage,
        "citation_precision": precision,
        "citation_recall": recall,
        "refusal": refusal,
        "refusal_detail": refusal_detail,
        "insufficient": insufficient_outcome(answer, question.answerable),
        "leak": bool(leaked),
        "leaks": leaked,
        "expected_lead": question.expected_lead,
        "lead_ok": lead_ok(answer["text"], question.expected_lead),
        "off_subject": None if strays is None else bool(strays),
        "off_subject_sources": strays or [],
        "shape_score": shape_score(tools, question.expected_tools),
        "tools": tools,
        "expected_tools": list(question.expected_tools),
        "tool_calls": trace["totals"]["tool_calls"],
        "tokens": trace["totals"]["tokens"],
        "latency_ms": round(latency_ms, 1),
        "lane": answer.get("lane"),
        "escalated": escalated,
        "signals": [s["signal"] for s in escalation["signals"]] if escalation else [],
        "routing_correct": (
            None if escalated is None or question.needs_agent is None else escalated == question.needs_agent
        ),
        "answer": answer,
        "trace": trace,
    }


def evaluate(
    store: KnowledgeStore,
    questions: Sequence[GoldQuestion],
    *,
    configs: Sequence[str] = tuple(CONFIGS),
    policies: Sequence[str] = tuple(POLICIES),
    models: Sequence[str] = ("offline",),
    embedder: Embedder | None = None,
    bounds: Bounds | None = None,
    env: Mapping[str, str] | None = None,
    progress: Progress | None = None,
) -> list[dict[str, Any]]:
    """Run every question through every (model, configuration, policy setting).

    Rows come back in a fixed order (model, configuration, policies, question), so two
    runs of the offline model give the same rows but for latency.
    """
    for name in configs:
        if name not in CONFIGS:
            raise ConfigError(f"unknown configuration {name!r}; choose from {', '.join(CONFIGS)}")
    for name in policies:
        if name not in POLICIES:
            raise ConfigError(f"unknown policy setting {name!r}; choose from {', '.join(POLICIES)}")
    env = os.environ if env is None else env
    bounds = bounds or Bounds()
    total = len(models) * len(configs) * len(policies) * len(questions)
    rows: list[dict[str, Any]] = []
    for model in models:
        for config in configs:
            for setting in policies:
                run = _runner(config, store, model, POLICIES[setting], embedder, bounds, env)
                for question in questions:
                    started = time.perf_counter()
                    out = run(question)
                    latency = (time.perf_counter() - started) * 1000
                    rows.append(score_row(question, out, config=config, policies=setting, model=model,
                                          latency_ms=latency, store=store))
                    if progress:
                        progress(len(rows), total, run_key(config, setting, model))
    return rows

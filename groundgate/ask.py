"""``ask``: one question through the agent, as the CLI and simple callers use it."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any, Literal

from groundgate.graph.build import build_agent
from groundgate.graph.context import Bounds
from groundgate.knowledge.default import open_store
from groundgate.knowledge.embed import make_embedder
from groundgate.models.factory import make_chat_model
from groundgate.policies.policyset import PolicySet
from groundgate.settings import Settings
from groundgate.tools.registry import ALL_TOOLS

__all__ = ["MODES", "RunResult", "ask"]

Mode = Literal["agent", "search-agent"]
MODES: dict[str, tuple[str, ...]] = {"agent": ALL_TOOLS, "search-agent": ("search_evidence",)}


@dataclass(frozen=True)
class RunResult:
    """A finished run: the answer, the trace, and how it was configured."""

    question: str
    as_of: str | None
    mode: str
    model: str
    answer: dict[str, Any]
    trace: dict[str, Any]
    latency_ms: float

    def to_json(self) -> dict[str, Any]:
        """The CLI's ``--json`` object."""
        totals = self.trace["totals"]
        return {
            "question": self.question,
            "as_of": self.as_of,
            "answer": self.answer["text"],
            "answered": self.answer["answered"],
            "claims": self.answer["claims"],
            "citations": self.answer["citations"],
            "contested": self.answer["contested"],
            "insufficient": self.answer["insufficient"],
            "bound_tripped": self.answer["bound_tripped"],
            "grounding": self.answer["grounding"],
            "policy_notes": self.answer["policy_notes"],
            "trace": self.trace,
            "usage": {
                "tool_calls": totals["tool_calls"],
                "tokens": totals["tokens"],
                "latency_ms": round(self.latency_ms, 1),
            },
            "model": self.model,
            "mode": self.mode,
        }


def ask(
    question: str,
    *,
    settings: Settings,
    mode: Mode = "agent",
    as_of: str | None = None,
    bounds: Bounds | None = None,
    policies: PolicySet | None = None,
) -> RunResult:
    """Answer ``question`` over the configured store with the configured model."""
    embedder = make_embedder(settings.embedder)
    store = open_store(settings.store_path, cache_dir=settings.cache_dir, embedder=embedder)
    try:
        model = make_chat_model(settings.model, env=os.environ)
        agent = build_agent(
            store, model, tools=MODES[mode], bounds=bounds, policies=policies,
            embedder=embedder, model_name=settings.model,
        )
        started = time.perf_counter()
        out = agent.invoke({"question": question, "as_of": as_of})
        latency = (time.perf_counter() - started) * 1000
    finally:
        store.close()
    return RunResult(
        question=question, as_of=as_of, mode=mode, model=settings.model,
        answer=out["answer"], trace=out["trace"], latency_ms=latency,
    )

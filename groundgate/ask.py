"""``ask``: one question through the router, lane A or the agent, as the CLI uses it.

Modes: ``auto`` (the CLI's default: lane A, escalating to the agent on explicit signals),
``pipeline`` (lane A only), ``agent`` (all eight tools) and ``search-agent``
(``search_evidence`` only).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from groundgate.errors import ConfigError, ModelUnavailable, RunError
from groundgate.graph.bounds import bound_error
from groundgate.graph.build import build_agent
from groundgate.graph.context import Bounds, ToolRunner
from groundgate.knowledge.backends import open_backend
from groundgate.knowledge.embed import make_embedder
from groundgate.knowledge.port import KnowledgeStore
from groundgate.models.factory import make_chat_model
from groundgate.pipeline.build import build_pipeline
from groundgate.pipeline.context import PIPELINE_TOOLS
from groundgate.pipeline.router import build_router
from groundgate.policies.policyset import PolicySet
from groundgate.settings import Settings
from groundgate.tools.registry import ALL_TOOLS, execute

if TYPE_CHECKING:
    from groundgate.telemetry import Telemetry

__all__ = ["MIN_QUESTION_CHARS", "MODES", "RunResult", "ask", "check_question"]

Mode = Literal["auto", "pipeline", "agent", "search-agent"]
MODES: dict[str, tuple[str, ...]] = {
    "auto": ALL_TOOLS,
    "pipeline": PIPELINE_TOOLS,
    "agent": ALL_TOOLS,
    "search-agent": ("search_evidence",),
}
"""Each mode and the tools it may call (``auto`` may escalate to the full agent)."""

MIN_QUESTION_CHARS = 2
"""The shortest question, in characters other than white space (what a search needs)."""


def check_question(question: str) -> None:
    """Refuse a question too short to search for, before any store or model is opened.

    Raises:
        ConfigError: ``question`` is empty, white space, or one character.
    """
    if len(question.strip()) < MIN_QUESTION_CHARS:
        raise ConfigError(
            f"the question is empty; ask it in words (at least {MIN_QUESTION_CHARS} characters)"
            if not question.strip() else
            f"the question {question.strip()!r} is too short; ask it in words "
            f"(at least {MIN_QUESTION_CHARS} characters)"
        )


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
    envelopes: tuple[dict[str, Any], ...] = ()
    """Every tool envelope in full, in call order (what ``groundgate replay`` re-checks)."""
    messages: tuple[Any, ...] = ()
    """The conversation with the model, as LangChain messages."""
    lane: str = "agent"
    """The lane that answered: ``pipeline`` (lane A) or ``agent``."""
    escalation: dict[str, Any] | None = None
    """For ``auto``: ``{"escalated": bool, "signals": [{"signal", "reason"}, ...]}``."""

    def run_error(self) -> RunError | None:
        """What stopped the run short, as its typed error: a tripped bound, else a failed model.

        The run itself never raises it: the answer is composed from what was gathered and
        says so. ``None`` when the run did all it was asked.
        """
        if self.answer.get("bound_tripped"):
            return bound_error(self.answer["bound_tripped"])
        failed = (self.answer.get("extras") or {}).get("model_error")
        if failed:
            return ModelUnavailable(str(failed.get("model") or ""), str(failed.get("purpose") or ""),
                                    str(failed.get("error") or ""))
        return None

    def raise_for_run_error(self) -> None:
        """Raise ``run_error()``, if there is one (as httpx's ``raise_for_status``).

        Raises:
            BoundTripped: A hard bound stopped the run.
            ModelUnavailable: The chat model failed or could not be reached.
        """
        error = self.run_error()
        if error is not None:
            raise error

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
            "model_error": (self.answer.get("extras") or {}).get("model_error"),
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
            "lane": self.lane,
            "escalation": self.escalation,
        }


def ask(
    question: str,
    *,
    settings: Settings,
    mode: Mode = "agent",
    as_of: str | None = None,
    bounds: Bounds | None = None,
    policies: PolicySet | None = None,
    deep: bool = False,
    telemetry: Telemetry | None = None,
    store: KnowledgeStore | None = None,
) -> RunResult:
    """Answer ``question`` over the configured store with the configured model.

    ``deep`` makes ``auto`` go to the agent whatever lane A says; it means nothing to the
    agent modes and contradicts ``pipeline``. ``telemetry`` emits OpenTelemetry spans for the run.
    ``store`` answers over a store the caller opened (and closes); otherwise the store
    ``settings.backend`` names is opened (``knowledge.backends.open_backend``) and closed.

    Raises:
        ConfigError: An unknown mode, ``deep`` with ``pipeline``, or an empty question.
    """
    check_question(question)
    if mode not in MODES:
        raise ConfigError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    if deep and mode == "pipeline":
        raise ConfigError("--deep asks for the agent; it cannot be combined with --mode pipeline")
    embedder = make_embedder(settings.embedder)
    opened = None
    if store is None:
        opened = store = open_backend(settings, embedder=embedder)
    try:
        # The run's wall clock bounds every model call; the HTTP timeout must not cut it shorter.
        model = make_chat_model(settings.model, env=os.environ, timeout_s=(bounds or Bounds()).wall_clock_s)
        common: dict[str, Any] = {"policies": policies, "embedder": embedder, "model_name": settings.model}
        graph: Any
        inputs: dict[str, Any] = {"question": question, "as_of": as_of}
        keys = ["answer", "trace", "envelopes", "messages"]
        lane_store: KnowledgeStore = store
        lane_runner: ToolRunner = execute
        if telemetry is not None and mode in ("auto", "pipeline"):
            # build_agent hooks its own spans in; the lanes get the same tool and retrieval spans here.
            lane_store, lane_runner = telemetry.trace_store(store), telemetry.trace_tools(execute)
        if mode == "auto":
            graph = build_router(lane_store, model, bounds=bounds, run_tool=lane_runner, **common)
            inputs["deep"] = deep
            keys.append("escalation")
        elif mode == "pipeline":
            graph = build_pipeline(lane_store, model, bounds=bounds, run_tool=lane_runner, **common)
        else:
            graph = build_agent(store, model, tools=MODES[mode], bounds=bounds, telemetry=telemetry, **common)
        config: dict[str, Any] = {}
        if telemetry is not None and mode in ("auto", "pipeline"):  # build_agent hooks its own spans in
            config["callbacks"] = [telemetry.callbacks(graph.name, settings.model)]
        started = time.perf_counter()
        out = graph.invoke(inputs, config or None, output_keys=keys)
        latency = (time.perf_counter() - started) * 1000
    finally:
        if opened is not None:
            opened.close()
        if telemetry is not None:
            telemetry.flush()
    return RunResult(
        question=question, as_of=as_of, mode=mode, model=settings.model,
        answer=out["answer"], trace=out["trace"], latency_ms=latency,
        envelopes=tuple(out.get("envelopes") or ()), messages=tuple(out.get("messages") or ()),
        lane=out["answer"].get("lane", "agent"), escalation=out.get("escalation"),
    )

"""``build_router``: lane A first; the agent only when a signal says lane A is not enough.

```
START -> pipeline -> [signals?] -> agent -> finish -> END
                     [none]    -----------> finish
```

Signals (see ``signals.py``): the question's structure shows a sequential dependency,
lane A's answer is insufficient, a disagreement surfaced, the question compares across
validity windows, or the caller asked for depth. Misrouting is cheap and visible: the
output says which lane answered and every signal that fired, and the trace holds both
lanes' steps, each marked with its lane.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, NotRequired, TypedDict, Unpack

from langchain_core.language_models import BaseChatModel
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime

from groundgate.graph.build import build_agent
from groundgate.graph.context import LaneOptions, bind_context
from groundgate.knowledge.port import KnowledgeStore
from groundgate.pipeline.build import build_pipeline
from groundgate.pipeline.signals import (
    Signal,
    contradiction_surfaced,
    lane_a_insufficient,
    sequential_dependency,
    window_comparison,
)
from groundgate.tools.registry import ALL_TOOLS

__all__ = [
    "RouterContext",
    "RouterInput",
    "RouterOutput",
    "RouterState",
    "build_router",
    "decide",
    "escalation_signals",
    "finish",
    "merge_traces",
    "route_after_decide",
    "run_agent",
    "run_pipeline",
]


class RouterInput(TypedDict):
    """What a caller gives the router."""

    question: str
    """The question, in plain words."""
    as_of: NotRequired[str | None]
    """Answer as of this date (YYYY-MM-DD)."""
    deep: NotRequired[bool]
    """Go to the agent whatever lane A says."""


class RouterOutput(TypedDict):
    """What the router returns: the agent's output keys plus the routing."""

    answer: dict[str, Any]
    """The answer of the lane that answered (its ``lane`` says which)."""
    trace: dict[str, Any]
    """Both lanes' steps, each marked with ``lane``; totals over both."""
    lane: str
    """``pipeline`` or ``agent``."""
    escalation: dict[str, Any]
    """``{"escalated": bool, "signals": [{"signal", "reason"}, ...]}``."""


class RouterState(TypedDict, total=False):
    """The router's state: the question and each lane's output."""

    question: str
    """The question."""
    as_of: str | None
    """The question's date, if any."""
    deep: bool
    """Whether the caller asked for the agent."""
    pipeline: dict[str, Any]
    """Lane A's output (answer and trace)."""
    agent: dict[str, Any]
    """The agent's output, when escalated."""
    signals: list[dict[str, str]]
    """Every signal that fired."""
    answer: dict[str, Any]
    """The final answer."""
    trace: dict[str, Any]
    """The merged trace."""
    lane: str
    """The lane that answered."""
    escalation: dict[str, Any]
    """Whether and why the router escalated."""
    envelopes: list[dict[str, Any]]
    """Every tool envelope of both lanes, in call order (as the merged trace's tool steps)."""
    messages: list[Any]
    """The agent's conversation with the model, when escalated."""


@dataclass(frozen=True)
class RouterContext:
    """The two compiled lanes and the store the signals consult."""

    pipeline: CompiledStateGraph[Any, Any, Any, Any]
    """Lane A."""
    agent: CompiledStateGraph[Any, Any, Any, Any]
    """The agent."""
    store: KnowledgeStore
    """The knowledge store (for the contradiction register)."""


def escalation_signals(
    question: str, lane_a: dict[str, Any], store: KnowledgeStore, *, deep: bool = False
) -> list[Signal]:
    """Every reason to escalate, in ``SIGNALS`` order; empty means lane A's answer stands."""
    answer = lane_a["answer"]
    anchors = (answer.get("extras") or {}).get("anchors") or []
    found = [
        sequential_dependency(question),
        lane_a_insufficient(answer),
        contradiction_surfaced(answer, anchors, store),
        window_comparison(question),
        Signal("deep", "the caller asked for depth (--deep)") if deep else None,
    ]
    return [s for s in found if s is not None]


def run_pipeline(state: RouterState, runtime: Runtime[RouterContext]) -> dict[str, Any]:
    """Lane A, always first."""
    out = runtime.context.pipeline.invoke(
        {"question": state["question"], "as_of": state.get("as_of")},
        output_keys=["answer", "trace", "envelopes"],
    )
    return {"pipeline": out}


def decide(state: RouterState, runtime: Runtime[RouterContext]) -> dict[str, Any]:
    """Read the signals."""
    found = escalation_signals(
        state["question"], state["pipeline"], runtime.context.store, deep=bool(state.get("deep"))
    )
    return {"signals": [s.to_json() for s in found]}


def route_after_decide(state: RouterState) -> Literal["agent", "finish"]:
    """Any signal escalates."""
    return "agent" if state.get("signals") else "finish"


def run_agent(state: RouterState, runtime: Runtime[RouterContext]) -> dict[str, Any]:
    """The agent, from scratch, with the same policies."""
    out = runtime.context.agent.invoke(
        {"question": state["question"], "as_of": state.get("as_of")},
        output_keys=["answer", "trace", "envelopes", "messages"],
    )
    return {"agent": out}


def merge_traces(lanes: Sequence[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """One trace over the lanes that ran: steps marked with their lane, totals summed."""
    steps = [{**step, "lane": lane} for lane, trace in lanes for step in trace["steps"]]
    keys = ("rounds", "tool_calls", "model_calls", "tokens", "tool_ms", "model_ms", "errors", "model_errors")
    totals = {k: sum(trace["totals"].get(k, 0) for _, trace in lanes) for k in keys}
    totals["tool_ms"] = round(totals["tool_ms"], 3)
    totals["model_ms"] = round(totals["model_ms"], 3)
    last = lanes[-1][1]
    return {
        "model": last["model"],
        "steps": steps,
        "totals": totals,
        "bound_tripped": last.get("bound_tripped"),
        "lanes": {lane: trace["totals"] for lane, trace in lanes},
    }


def finish(state: RouterState, runtime: Runtime[RouterContext]) -> dict[str, Any]:
    """The answering lane's answer, the merged trace, and the routing."""
    lanes = [("pipeline", state["pipeline"]["trace"])]
    final = state["pipeline"]
    if state.get("agent"):
        final = state["agent"]
        lanes.append(("agent", state["agent"]["trace"]))
    signals = list(state.get("signals") or [])
    agent = state.get("agent") or {}
    return {
        "envelopes": [*state["pipeline"].get("envelopes", []), *agent.get("envelopes", [])],
        "messages": list(agent.get("messages") or []),
        "answer": final["answer"],
        "trace": merge_traces(lanes),
        "lane": final["answer"].get("lane", lanes[-1][0]),
        "escalation": {"escalated": bool(state.get("agent")), "signals": signals},
    }


def build_router(
    store: KnowledgeStore,
    model: BaseChatModel,
    *,
    tools: Sequence[str] = ALL_TOOLS,
    name: str = "groundgate-router",
    **lanes: Unpack[LaneOptions],
) -> CompiledStateGraph[RouterState, RouterContext, RouterInput, RouterOutput]:
    """Compile the router over lane A and the agent, both with the same policies.

    Input ``{"question", "as_of", "deep"}``; output ``{"answer", "trace", "lane",
    "escalation"}``. The model is the agent's planner and, when it is a real model, lane
    A's answer writer too. ``tools`` are the agent's; ``lanes`` (bounds, policies, embedder,
    model_name, run_tool, reader: see ``LaneOptions``) go to both lanes alike, so
    ``run_tool`` executes both lanes' tool calls and ``reader`` is both lanes' reader.
    """
    ctx = RouterContext(
        pipeline=build_pipeline(store, model, **lanes),
        agent=build_agent(store, model, tools=tools, **lanes),
        store=store,
    )
    graph = StateGraph(
        RouterState, context_schema=RouterContext, input_schema=RouterInput, output_schema=RouterOutput
    )
    nodes = {"pipeline": run_pipeline, "decide": decide, "agent": run_agent, "finish": finish}
    for node_name, node in nodes.items():
        graph.add_node(node_name, bind_context(node, ctx))  # type: ignore[call-overload]  # see graph/build.py
    graph.add_edge(START, "pipeline")
    graph.add_edge("pipeline", "decide")
    graph.add_conditional_edges("decide", route_after_decide, ["agent", "finish"])
    graph.add_edge("agent", "finish")
    graph.add_edge("finish", END)
    return graph.compile(name=name)



"""retrieve: lane A's one fixed pass of tool calls.

Stage 1 searches the evidence (hybrid: keyword fused with vectors when an embedder is
configured) and resolves the question's mentions. A question asking when or how much
about an event ("When did the zone map update take effect?") is also searched for its
subject alone ("zone map update"), so that a source saying the same thing in other words
("went live") is retrieved and a disagreement between them can be seen. Stage 2 walks up to two resolved
entities' typed relationships, two hops, as of the question's date (given, pinned in its
text, or the date of the event it names). Every call goes through the tool registry, so
the envelopes and trace steps are the agent's own.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from datetime import date
from typing import Any

from langgraph.runtime import Runtime

from groundgate.knowledge.events import EVENT_WORDS, event_kinds
from groundgate.models.offline_plan import plan_anchors
from groundgate.nodes.tool_call import run_round
from groundgate.pipeline.context import PipelineContext, PipelineState
from groundgate.reading.question import Question, analyse
from groundgate.reading.transcript import Step, Transcript
from groundgate.reading.when import effective_date
from groundgate.tools.base import ToolDeps
from groundgate.tools.envelope import Envelope
from groundgate.tools.steps import ToolStep

__all__ = ["full_view", "retrieve", "subject_query", "transcript_of"]

Call = tuple[str, dict[str, Any]]


def full_view(envelope: Envelope) -> dict[str, Any]:
    """The envelope as the model would see it, but with every passage whole.

    The agent reads a whole document with a further call when a cut passage matters;
    lane A has no further call, so its answer step reads what the search returned in full.
    """
    body = json.loads(envelope.for_model())
    for entry, item in zip(body.get("results") or [], envelope.results, strict=True):
        entry["text"] = item.snippet
        if item.source_ids:
            entry["sources"] = list(item.source_ids)
    return body


def transcript_of(question: Question, envelopes: Iterable[Envelope], rounds: Iterable[int]) -> Transcript:
    """The envelopes as the offline planner's transcript (passages whole, see ``full_view``)."""
    steps = tuple(
        Step(name=env.tool, args=dict(env.args), round=max(0, r - 1), body=full_view(env))
        for env, r in zip(envelopes, rounds, strict=True)
    )
    return Transcript(question=question, steps=steps, rounds=max((s.round + 1 for s in steps), default=0))


_VALUE_ASKS = frozenset({"date", "money", "number", "duration", "percent"})


def subject_query(question: Question) -> str | None:
    """The question's subject without its event words, when it asks for the value of an event."""
    if question.asks not in _VALUE_ASKS or not event_kinds(question.text):
        return None
    words = [t for t in question.focus if t not in EVENT_WORDS]
    return " ".join(words) if words else None


def _run(calls: list[Call], deps: ToolDeps, ctx: PipelineContext, round_no: int) -> list[Envelope]:
    # The agent's round runner: concurrent, held to the tool timeout, through ctx.run_tool.
    named = [(name, args, f"lane_a_{round_no}_{i}") for i, (name, args) in enumerate(calls)]
    return run_round(named, deps, ctx)


def retrieve(state: PipelineState, runtime: Runtime[PipelineContext]) -> dict[str, Any]:
    """Search, resolve, then walk: the whole retrieval plan, fixed before reading anything."""
    ctx = runtime.context
    started = time.time()
    as_of = state.get("as_of")
    deps = ToolDeps(
        store=ctx.store, embedder=ctx.embedder,
        default_as_of=date.fromisoformat(as_of) if as_of else None,
    )
    question = analyse(state["question"], deps.default_as_of)
    first: list[Call] = [("search_evidence", {"query": state["question"][:400], "top_k": ctx.search_top_k})]
    subject = subject_query(question)
    if subject:
        first.append(("search_evidence", {"query": subject, "top_k": ctx.search_top_k}))
    first += [("resolve_entity", {"mention": m}) for m in question.mentions]
    found = _run(first, deps, ctx, 1)
    transcript = transcript_of(question, found, [1] * len(found))
    anchors = plan_anchors(transcript)[: ctx.max_walks]
    day = effective_date(question, anchors)
    # The walks are a second round: as for the agent, a bound reached by the first stops the run there.
    tripped = ctx.bounds.first_reached(rounds=1, tokens=0, elapsed_s=round(time.time() - started, 3))
    walks: list[Call] = [] if tripped else [
        ("traverse", {"entity_id": a.id, "hops": ctx.hops, "top_k": ctx.walk_top_k,
                      **({"as_of": day.isoformat()} if day else {})})
        for a in anchors
    ]
    walked = _run(walks, deps, ctx, 2)
    steps = [ToolStep.of(e, 1).to_json() for e in found] + [ToolStep.of(e, 2).to_json() for e in walked]
    return {
        "envelopes": [e.model_dump(mode="json") for e in (*found, *walked)],
        "steps": steps,
        "rounds": 2 if walked else 1,
        "tokens": 0,
        "started_at": started,
        "bound_tripped": tripped,
    }

"""Replay a saved run against a store: the recorded tool calls, re-executed now.

The model is not called again. Its recorded decisions are played back in order, so the
same tool calls (arguments and ids) run against the store as it is today; compose,
grounding and the policy gate then run as they always do. The final answer of a run made
with the offline planner is recomposed by the planner from the replayed results (it is
deterministic and needs no key); any other model's recorded answer is kept, and only the
grounding, the gate and the citations are recomputed over the new results.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import AIMessage, messages_from_dict

from groundgate.ask import RunResult
from groundgate.graph.build import build_agent
from groundgate.graph.context import Bounds
from groundgate.knowledge.embed import Embedder
from groundgate.knowledge.port import KnowledgeStore
from groundgate.replay.diff import RunDiff, diff_runs
from groundgate.replay.model import ReplayedModel
from groundgate.replay.record import message_dicts

__all__ = ["Replay", "replay_run"]


@dataclass(frozen=True)
class Replay:
    """A recorded run, its replay (a run file of the same shape) and what differs."""

    recorded: dict[str, Any]
    replayed: dict[str, Any]
    diff: RunDiff


def replay_run(
    run: dict[str, Any],
    store: KnowledgeStore,
    *,
    embedder: Embedder | None = None,
    recompose: bool | None = None,
) -> Replay:
    """Re-execute a run file's tool calls against ``store`` and compare.

    Args:
        run: A run file's content (``load_run``).
        store: The store to run the calls against (opened read-only is enough).
        embedder: The query embedder the run used, if any.
        recompose: Let the offline planner write the final answer from the replayed
            results; by default only for runs made with the offline planner.
    """
    record = run["record"]
    decisions = [m for m in messages_from_dict(record["messages"]) if isinstance(m, AIMessage)]
    if recompose is None:
        recompose = run.get("model") == "offline"
    composer = None
    if recompose:
        from groundgate.models.offline import OfflinePlanner

        composer = OfflinePlanner()
    agent = build_agent(
        store, ReplayedModel(decisions=decisions, composer=composer),
        tools=tuple(record["tools"]), bounds=Bounds(**record["bounds"]), embedder=embedder,
        model_name=run["trace"].get("model") or run.get("model"),
    )
    started = time.perf_counter()
    out = agent.invoke(
        {"question": run["question"], "as_of": run.get("as_of")},
        output_keys=["answer", "trace", "envelopes", "messages"],
    )
    result = RunResult(
        question=run["question"], as_of=run.get("as_of"), mode=run["mode"], model=run["model"],
        answer=out["answer"], trace=out["trace"], latency_ms=(time.perf_counter() - started) * 1000,
        envelopes=tuple(out.get("envelopes") or ()), messages=tuple(out.get("messages") or ()),
    )
    replayed = result.to_json()
    replayed["record"] = {
        **record, "messages": message_dicts(result.messages), "envelopes": list(result.envelopes),
    }
    replayed = json.loads(json.dumps(replayed, default=str))
    return Replay(recorded=run, replayed=replayed, diff=diff_runs(run, replayed))

"""rerank: one deterministic rerank of the retrieved union, relationship paths visible.

Passages and walked paths compete in one list. Each item scores by its best sentence
under the offline planner's sentence scoring (question-word coverage weighted by rarity,
subject anchoring, the kind of value asked for, fit to the question's date; see
``reading/score.py``); a walked path's own text is its relationship note, and it
keeps its typed path for the answer step and the trace. Resolved entities are not
candidates: they say what the question is about, and every answer step needs them.
"""

from __future__ import annotations

import functools
import json
from datetime import date
from typing import Any

from langgraph.runtime import Runtime

from groundgate.pipeline.context import PipelineContext, PipelineState
from groundgate.pipeline.retrieve import transcript_of
from groundgate.reading.evidence import collect
from groundgate.reading.question import analyse, clauses
from groundgate.reading.score import Scored, fit, score_sentences
from groundgate.reading.transcript import Step, Transcript
from groundgate.tools.envelope import read_envelopes
from groundgate.tools.steps import ToolStep, read_steps

__all__ = ["CANDIDATE_TOOLS", "UNSCORED", "rank_items", "ranked_transcript", "rerank", "state_transcript"]

CANDIDATE_TOOLS = ("search_evidence", "traverse")
"""Tools whose results compete in the rerank."""
UNSCORED = -1.0
"""The score of an item with no sentence to judge (a path without a note)."""


def _key(text: str) -> str:
    return " ".join(text.lower().split())


@functools.lru_cache(maxsize=8192)
def _item_keys(tool: str, item_json: str) -> tuple[str, ...]:
    """The sentence keys one result yields (cached: the same passages recur across questions)."""
    item = json.loads(item_json)
    alone = Transcript(analyse(""), (Step(tool, {}, 0, {"results": [item]}),), 1)
    return tuple(_key(s.text) for s in collect(alone))


def rank_items(transcript: Transcript) -> list[dict[str, Any]]:
    """Every candidate item of the transcript, best first, with its score and position."""
    scored, env = score_sentences(transcript, collect(transcript))
    by_text: dict[str, Scored] = {_key(s.sentence.text): s for s in scored}
    parts = [transcript.question, *clauses(transcript.question)]
    items: list[dict[str, Any]] = []
    for index, step in enumerate(transcript.steps):
        if step.name not in CANDIDATE_TOOLS:
            continue
        for position, item in enumerate(step.results):
            keys = _item_keys(step.name, json.dumps(item, sort_keys=True, default=str))
            own = [by_text[k] for k in keys if k in by_text]
            score = max((fit(s, q, env.weights) for s in own for q in parts), default=UNSCORED)
            items.append({
                "step": index, "position": position, "tool": step.name, "id": str(item["id"]),
                "title": str(item.get("title", "")), "sources": list(item.get("sources") or []),
                "path": item.get("path"), "valid": item.get("valid"), "score": round(score, 4),
            })
    items.sort(key=lambda it: (-it["score"], it["step"], it["position"]))
    return items


def ranked_transcript(transcript: Transcript, ranked: list[dict[str, Any]]) -> Transcript:
    """The transcript with each step's candidates in rerank order, only those in ``ranked``.

    The answer step reads candidates first seen first, so ties go to the better-ranked item.
    """
    place = {(it["step"], it["position"]): n for n, it in enumerate(ranked)}
    steps = []
    for index, step in enumerate(transcript.steps):
        if step.name in CANDIDATE_TOOLS:
            kept = sorted((place[(index, p)], r) for p, r in enumerate(step.results) if (index, p) in place)
            step = Step(step.name, step.args, step.round, {**step.body, "results": [r for _, r in kept]})
        steps.append(step)
    return Transcript(transcript.question, tuple(steps), transcript.rounds)


def state_transcript(state: PipelineState) -> Transcript:
    """The run's envelopes as a transcript of the question."""
    as_of = state.get("as_of")
    question = analyse(state["question"], date.fromisoformat(as_of) if as_of else None)
    envelopes = read_envelopes(state.get("envelopes") or [])
    rounds = [s.round for s in read_steps(state.get("steps") or []) if isinstance(s, ToolStep)]
    return transcript_of(question, envelopes, rounds)


def rerank(state: PipelineState, runtime: Runtime[PipelineContext]) -> dict[str, Any]:
    """Rank the union of passages and paths once; the answer step reads the top ones."""
    return {"ranked": rank_items(state_transcript(state))}

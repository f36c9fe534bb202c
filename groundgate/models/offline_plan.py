"""The offline planner's rounds: which tool calls to make next, or none (then answer).

Round 1 resolves the question's mentions and searches; round 2 walks, reads timelines,
checks the register, reads the anchor's document, follows a bridge name and searches for
what round 1 did not find. Then it answers: three model calls a question. A third round
runs only for a question about time whose walk reached an entity it names (that entity's
timeline decides which rule was in force). Only bound tools are called, an identical call
is never repeated, and each round is capped.

Why so few rounds: every call a model is sent carries the tool contract (~1,000 tokens)
and every earlier result again, so a third round cost more than the first two together.
Folding the "what is still missing" search into round 2 gave the same golden answers at
two thirds of the tokens (docs/models.md).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from groundgate.knowledge.text import content_terms, coverage
from groundgate.reading.evidence import collect, doc_id_of
from groundgate.reading.text import (
    IDENTIFIER,
    capitalised_names,
    norm_stems,
    term_key,
)
from groundgate.reading.transcript import Anchor, Transcript
from groundgate.reading.when import effective_date, is_specific

__all__ = [
    "MAX_TOOL_ROUNDS",
    "next_calls",
    "plan_anchors",
    "relevant_entities",
]

MAX_TOOL_ROUNDS = 3
"""Tool rounds before the planner answers with what it has."""
ROUND_CAPS = (4, 7, 2)
"""Most calls per round."""
SEARCH_TOP_K = 8

Call = tuple[str, dict[str, Any]]


def next_calls(transcript: Transcript, tools: frozenset[str]) -> list[Call]:
    """The calls of the next round, capped; empty when it is time to answer."""
    if transcript.rounds >= MAX_TOOL_ROUNDS or not transcript.question.terms:
        return []  # enough rounds, or nothing to look for
    planners = (_first_round, _second_round, _follow_in_time)
    wanted = planners[transcript.rounds](transcript)
    chosen: list[Call] = []
    keys: set[str] = set()
    for name, args in wanted:
        key = name + repr(sorted(args.items()))
        if name not in tools or key in keys or transcript.called(name, args):
            continue
        keys.add(key)
        chosen.append((name, args))
    return chosen[: ROUND_CAPS[transcript.rounds]]


def _search(query: str, as_of: date | None) -> Call:
    args: dict[str, Any] = {"query": query[:400], "top_k": SEARCH_TOP_K}
    if as_of:
        args["as_of"] = as_of.isoformat()
    return ("search_evidence", args)


def _first_round(t: Transcript) -> list[Call]:
    q = t.question
    strong = [m for m in q.mentions if is_specific(m)]
    weak = [m for m in q.mentions if not is_specific(m)]
    calls: list[Call] = [("resolve_entity", {"mention": m}) for m in strong[:2]]
    calls.append(_search(q.text, q.as_of))
    if not strong:
        calls.append(("search_knowledge", {"query": q.text[:400], "top_k": 5}))
    calls += [("resolve_entity", {"mention": m}) for m in [*strong[2:], *weak]]
    return calls


def _knowledge_anchors(t: Transcript) -> list[Anchor]:
    """Curated entities found by search_knowledge whose name the question mostly uses."""
    found: list[Anchor] = []
    question = norm_stems(t.question.text)
    for step in t.of("search_knowledge"):
        for item in step.results[:3]:
            keys = [term_key(w) for w in content_terms(str(item.get("title", "")))]
            if keys and sum(k in question for k in keys) / len(keys) >= 0.5:
                found.append(Anchor(
                    id=str(item["id"]), name=str(item.get("title", "")),
                    kind=str(item.get("kind", "")), text=str(item.get("text", "")),
                    sources=tuple(item.get("sources") or ()), mention="",
                ))
    return found[:2]


def _anchor_document(t: Transcript, anchor: Anchor) -> str | None:
    """The document an anchor is about: itself, or its source that searches ranked best."""
    if anchor.kind == "document":
        return anchor.id
    if not anchor.sources:
        return None
    best: dict[str, float] = {}
    for step in t.of("search_evidence"):
        for item in step.results:
            doc = doc_id_of(item)
            if doc in anchor.sources:
                best[doc] = max(best.get(doc, 0.0), float(item.get("score") or 0))
    if best:
        return sorted(best, key=lambda d: (-best[d], anchor.sources.index(d)))[0]
    return anchor.sources[0]


def _missing_terms(t: Transcript) -> list[str]:
    """Focus words of the question that no retrieved sentence contains."""
    present: set[str] = set()
    for sentence in collect(t):
        present |= norm_stems(f"{sentence.text} {sentence.title} {sentence.heading}")
    return [w for w in t.question.focus if not norm_stems(w) <= present]


def _bridge_names(t: Transcript, limit: int = 2) -> list[str]:
    """Names in the best passages that the question does not contain (multi-hop bridges)."""
    question = t.question.text.lower()
    names: list[str] = []
    for step in t.of("search_evidence")[:1]:
        for item in step.results[:3]:
            for name in capitalised_names(str(item.get("text", "")), skip_initial=True):
                if IDENTIFIER.fullmatch(name) or len(name) < 4:
                    continue
                if name.lower() in question or any(w in question for w in name.lower().split()):
                    continue
                names.append(name)
    return list(dict.fromkeys(names))[:limit]


def plan_anchors(t: Transcript) -> list[Anchor]:
    """What to walk from, best first.

    Entities of specific mentions, then curated entities the question names, then
    entities of single-word mentions (``H3``).
    """
    resolved = t.anchors()
    specific = [a for a in resolved if is_specific(a.mention)]
    known = {a.id for a in resolved}
    curated = [a for a in _knowledge_anchors(t) if a.id not in known]
    return specific + curated + [a for a in resolved if a not in specific]


def _second_round(t: Transcript) -> list[Call]:
    q = t.question
    anchors = plan_anchors(t)
    day = effective_date(q, anchors)
    topic = " ".join(q.focus)[:400] or q.text[:400]
    calls: list[Call] = []
    for anchor in anchors[:1]:
        calls.append(("traverse", _walk_args(anchor, day)))
    calls.append(("list_contradictions",
                  {"entity_ids": [a.id for a in anchors], "topic": topic} if anchors
                  else {"topic": topic}))
    specific = [a for a in anchors if is_specific(a.mention) or a.kind == "document"]
    for anchor in specific[:1]:
        doc = _anchor_document(t, anchor)
        if doc:
            calls.append(("get_source", {"source_id": doc}))
    if q.temporal and not q.event and anchors and anchors[0].kind != "document":
        calls.append(("timeline", {"entity_id": anchors[0].id}))
    if q.as_of and q.temporal:
        calls.append(_search(q.text, None))  # what applied before or starts after the date
    missing = _missing_terms(t)
    for name in _bridge_names(t, limit=0 if specific else 1):
        calls.append(_search(" ".join([name, *missing]) if missing else name, q.as_of))
    if not anchors and missing:
        calls.append(_search(" ".join(missing), q.as_of))
    calls += [("traverse", _walk_args(a, day)) for a in anchors[1:2]]
    return calls + _fill_missing(t)


def _walk_args(anchor: Anchor, day: date | None) -> dict[str, Any]:
    args: dict[str, Any] = {"entity_id": anchor.id, "hops": 2, "top_k": 20}
    if day:
        args["as_of"] = day.isoformat()
    return args


def relevant_entities(t: Transcript) -> list[tuple[str, str]]:
    """Entities reached by traversal whose names the question mostly uses, best first."""
    question = norm_stems(t.question.text)
    anchors = {a.id for a in t.anchors()}
    scored: dict[str, tuple[float, str]] = {}
    for step in t.of("traverse"):
        for item in step.results:
            entity_id, title = str(item["id"]), str(item.get("title", ""))
            keys = [term_key(w) for w in content_terms(title)]
            if entity_id in anchors or not keys:
                continue
            hits = sum(k in question for k in keys)
            if hits / len(keys) >= 0.5 and hits >= 1:
                score = hits + hits / len(keys)
                if score > scored.get(entity_id, (0.0, ""))[0]:
                    scored[entity_id] = (score, title)
    ranked = sorted(scored.items(), key=lambda kv: (-kv[1][0], kv[0]))
    return [(entity_id, title) for entity_id, (_, title) in ranked]


def _dominant_document(t: Transcript) -> str | None:
    """The document holding most of the first search's best passages."""
    steps = t.of("search_evidence")
    if not steps:
        return None
    counts: dict[str, float] = {}
    focus = list(t.question.focus)
    for item in steps[0].results[:4]:
        doc = doc_id_of(item)
        # a passage that shares little with the question does not make its document decisive
        if doc and coverage(focus, f"{item.get('title', '')} {item.get('text', '')}") >= 0.5:
            counts[doc] = counts.get(doc, 0.0) + float(item.get("score") or 0)
    if not counts:
        return None
    return sorted(counts, key=lambda d: (-counts[d], d))[0]


def _fill_missing(t: Transcript) -> list[Call]:
    """What round 1 left open: a search for the missing words, the deciding document."""
    q = t.question
    calls: list[Call] = []
    missing = _missing_terms(t)
    if len(content_terms(" ".join(missing))) >= 2:
        calls.append(_search(" ".join(missing), q.as_of))
    read = t.read_sources()
    if len(read) < 2:
        doc = _dominant_document(t)
        if doc and doc not in read:
            calls.append(("get_source", {"source_id": doc}))
    return calls


def _follow_in_time(t: Transcript) -> list[Call]:
    """A third round only for a question about time whose walk reached what it names.

    Then the reached entity's timeline and a search naming it decide which rule was in
    force; any other question is answered from rounds 1 and 2 (a third round would cost
    more tokens than the first two: every call carries every earlier result).
    """
    q = t.question
    reached = relevant_entities(t)
    if not (q.temporal and reached):
        return []
    calls: list[Call] = []
    if not t.of("timeline"):
        calls.append(("timeline", {"entity_id": reached[0][0]}))
    query = " ".join([reached[0][1], *_missing_terms(t)])
    if len(content_terms(query)) >= 2:
        calls.append(_search(query, q.as_of))
    return calls

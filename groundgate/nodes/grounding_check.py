"""grounding_check: every claim maps to a source or walked path in the trace."""

from __future__ import annotations

from typing import Any, Literal

from langgraph.runtime import Runtime

from groundgate.answer.model import Answer, Claim, GroundingReport
from groundgate.graph.context import Context
from groundgate.graph.state import AgentState
from groundgate.nodes.compose import draft_answer
from groundgate.nodes.revise import can_revise, revise_unsupported
from groundgate.policies.grounding import Evidence, GroundingVerdict, evidence_from, ground_claims
from groundgate.reading.transcript import read_transcript

__all__ = ["grounding_check"]


def grounding_check(state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Ground the draft's claims (one revision pass at most: rules, then the model once)."""
    ctx = runtime.context
    draft = Answer.model_validate(state["draft"])
    evidence = evidence_from(state.get("envelopes") or [])
    mode = ctx.policies.grounding
    verdict = ground_claims(draft.claims, evidence, mode=mode)
    update: dict[str, Any] = {}
    unsupported = [i for i, c in enumerate(verdict.claims) if c.grounded_by == "none"]
    tokens = state.get("tokens") or 0
    within_bounds = not state.get("bound_tripped") and tokens < ctx.bounds.token_budget
    if unsupported and within_bounds and can_revise(ctx.model):
        started_at = state.get("started_at")
        replacements, step = revise_unsupported(
            ctx.model, [draft.claims[i] for i in unsupported], evidence, model_name=ctx.model_name,
            deadline=started_at + ctx.bounds.wall_clock_s if started_at else None,
        )
        update["steps"] = [step.to_json()]
        update["tokens"] = tokens + step.tokens
        if replacements:
            verdict = _revised(verdict, unsupported, replacements, evidence, mode)
    grounded = draft.model_copy(update={"claims": verdict.claims, "grounding": verdict.report})
    if _nothing_survived(grounded, mode) and state.get("messages"):
        grounded = _read_instead(grounded, state, ctx, evidence)
    update["draft"] = grounded.model_dump(mode="json")
    return update


def _nothing_survived(draft: Answer, mode: str) -> bool:
    """A model's draft that answered, and of which grounding removed every sentence."""
    return (
        mode == "remove" and draft.answered and bool(draft.claims)
        and (draft.extras or {}).get("draft_source") == "model"
        and all(c.status == "removed" for c in draft.claims)
    )


def _read_instead(draft: Answer, state: AgentState, ctx: Context, evidence: Evidence) -> Answer:
    """The run's reader over the same trace, when the model's draft had no supported sentence.

    A weak model that retrieved the answer and then wrote it in words no passage holds
    would otherwise leave "the sources do not answer": the reader's answer (or its reason
    why they do not) is grounded in the passages the run retrieved, and is checked again.
    """
    reading = ctx.reader.read(read_transcript(state.get("messages") or []))
    replacement = draft_answer(reading.text(), bound_tripped=draft.bound_tripped, lane=draft.lane)
    verdict = ground_claims(replacement.claims, evidence, mode="remove")
    extras = {**(draft.extras or {}), "draft_source": "extractive", "model_draft_unsupported": True}
    note = ("grounding: no sentence of the model's draft is supported by the retrieved passages; "
            "the answer is read from those passages instead")
    # the model's removed sentences stay in the record (never shown), with the citations it invented
    report = verdict.report.model_copy(update={"removed_citations": tuple(dict.fromkeys(
        (*draft.grounding.removed_citations, *verdict.report.removed_citations)
    ))}) if draft.grounding else verdict.report
    return replacement.model_copy(update={
        "claims": (*verdict.claims, *draft.claims), "grounding": report, "extras": extras,
        "insufficient": (*replacement.insufficient, *(n for n in draft.insufficient
                                                      if n not in replacement.insufficient)),
        "policy_notes": (*draft.policy_notes, note),
    })


def _revised(
    verdict: GroundingVerdict, unsupported: list[int], replacements: dict[int, list[Claim]],
    evidence: Evidence, mode: Literal["remove", "flag"],
) -> GroundingVerdict:
    """The verdict with the model's rewrites checked (without re-citing) and its drops removed."""
    claims: list[Claim] = []
    removed_citations = list(verdict.report.removed_citations)
    for index, claim in enumerate(verdict.claims):
        position = unsupported.index(index) if index in unsupported else None
        if position is None or position not in replacements:
            claims.append(claim)
            continue
        rewrites = replacements[position]
        if not rewrites:
            claims.append(claim.model_copy(update={
                "status": "removed", "grounded_by": "none", "note": "dropped in the model's revision pass",
            }))
            continue
        checked = ground_claims(rewrites, evidence, mode=mode, recite=False)
        removed_citations.extend(checked.report.removed_citations)
        claims.extend(c.model_copy(update={"note": c.note or "rewritten in the model's revision pass"})
                      for c in checked.claims)
    report = GroundingReport(
        grounded=sum(c.status == "grounded" for c in claims),
        flagged=sum(c.status == "flagged" for c in claims),
        removed=sum(c.status == "removed" for c in claims),
        removed_citations=tuple(dict.fromkeys(removed_citations)),
        revised=True,
        model_revised=len(replacements),
    )
    return GroundingVerdict(claims=tuple(claims), report=report)

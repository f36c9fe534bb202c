"""The one entry point every lane (agent, pipeline, MCP) uses to finish an answer."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from groundgate.answer.model import Answer, Claim, ContestedPoint
from groundgate.errors import StoreError
from groundgate.knowledge.port import KnowledgeStore
from groundgate.knowledge.text import content_terms, coverage, stems, term_covered
from groundgate.policies.contradiction import (
    ContradictionVerdict,
    asks_for_verdict,
    check_contradictions,
    present,
)
from groundgate.policies.detectors import answer_passages, detected_points
from groundgate.policies.honesty import bound_note, insufficient_notes
from groundgate.policies.policyset import PolicySet

__all__ = ["apply_policies", "touched_ids"]


_ENTITY_TOOLS = ("resolve_entity", "search_knowledge", "traverse", "timeline")


def touched_ids(envelopes: Iterable[dict[str, Any]]) -> set[str]:
    """Entity ids the run resolved, found or walked (not every passage it skimmed)."""
    ids: set[str] = set()
    for env in envelopes:
        if env.get("error") or env["tool"] not in _ENTITY_TOOLS:
            continue
        if env["tool"] in ("traverse", "timeline"):
            args = env.get("args") or {}
            ids.add(str(args.get("entity_id", "")))
        for item in env.get("results", ()):
            if env["tool"] != "timeline":
                ids.add(item["id"])
    ids.discard("")
    return ids


def _aside_note(point: ContestedPoint) -> str:
    owner = f"owner: {point.owner}" if point.owner else "no owner assigned"
    return (
        f"Not settled: {point.topic} is an open disagreement ({point.contradiction_id}; {owner}). "
        "This answer does not depend on it and takes no side."
    )


def _presentation(point: ContestedPoint) -> str:
    if point.contradiction_id:
        head = (
            f"The sources disagree on this and the organisation has not decided "
            f"(open disagreement {point.contradiction_id}: {point.topic}"
            + (f"; owner: {point.owner}" if point.owner else "; no owner assigned")
            + ")."
        )
    else:
        head = (
            f"The sources disagree on this and the disagreement is not yet recorded in the "
            f"register ({point.topic})."
        )
    lines = [head]
    for number, position in enumerate(point.positions, start=1):
        lines.append(f"Position {number}: {position.statement} [{', '.join(position.source_ids)}]")
    lines.append("This answer does not choose between these positions.")
    return "\n".join(lines)


def apply_policies(
    draft: Answer,
    *,
    question: str,
    envelopes: list[dict[str, Any]],
    store: KnowledgeStore,
    policies: PolicySet,
) -> Answer:
    """Impose the configured policies on a grounded draft; the draft cannot opt out."""
    notes: list[str] = []
    contested: list[ContestedPoint] = []
    aside: list[ContestedPoint] = []  # open entries the draft spoke to, the question did not
    claims = list(draft.claims)
    draft_text = " ".join(c.text for c in claims if c.status != "removed")
    register_down: str | None = None
    if policies.contradictions:
        try:
            verdict = check_contradictions(
                store, question=question, draft=draft_text, touched=touched_ids(envelopes),
                threshold=policies.topic_relevance, detector=policies.detector,
                passages=answer_passages(claims, envelopes, store),
            )
            notes.extend(f"detector ({policies.detector.name}): {n}" for n in verdict.notes)
        except StoreError as exc:
            # Fail closed: an answer the gate could not check is not given as settled.
            register_down = f"the contradiction register could not be checked ({exc})"
            verdict = ContradictionVerdict(applies=(), nearby=())
            claims = [
                _withheld(c, "the register could not be checked")
                if c.status != "removed" else c
                for c in claims
            ]
            notes.append(f"contradiction policy: {register_down}; every claim was withheld")
        contested.extend(present(entry) for entry in verdict.applies)
        for entry in verdict.applies:
            notes.append(
                f"contradiction policy: presented every position of {entry.id}; "
                "the draft's choice, if any, was withheld"
            )
        aside.extend(present(entry) for entry in verdict.mentioned)
        for entry in verdict.mentioned:
            notes.append(
                f"contradiction policy: the draft spoke to {entry.id}, which the question does not "
                "turn on; claims taking a side on it were withheld"
            )
        for entry in verdict.nearby:
            notes.append(
                f"contradiction policy: {entry.id} ({entry.topic}) touches this answer's entities "
                "but does not bear on the question"
            )
    if policies.disagreement and not contested and register_down is None:
        points, detector_notes = detected_points(
            policies.detector, question=question, claims=claims, envelopes=envelopes, store=store
        )
        notes.extend(f"detector ({policies.detector.name}): {n}" for n in detector_notes)
        for point in points:
            contested.append(point)
            notes.append(
                "disagreement policy: the retrieved sources disagree on what was asked "
                f"and no register entry covers it ({policies.detector.name} detector)"
            )
    if contested or aside:
        # The draft may have chosen a side; keep only what does not speak to the dispute.
        # For a yes/no question, the draft's own verdict goes too (it depends on the point).
        verdict_asked = asks_for_verdict(question)

        def sides(claim: Claim) -> bool:
            return any(_takes_side(claim.text, p) for p in aside) or any(
                _takes_side(claim.text, p) or (verdict_asked and _gives_verdict(claim.text, question, p))
                for p in contested
            )

        claims = [
            _withheld(c, "it takes a side in an open disagreement")
            if c.status != "removed" and sides(c)
            else c
            for c in claims
        ]
    insufficient = list(draft.insufficient)
    if register_down:
        insufficient.append(register_down)
    if policies.honesty:
        insufficient.extend(n for n in insufficient_notes(envelopes) if n not in insufficient)
        note = bound_note(draft.bound_tripped)
        if note and note not in insufficient:
            insufficient.insert(0, note)
    kept = [c for c in claims if c.status != "removed"]
    answered = (draft.answered and bool(kept)) or bool(contested)
    if not answered and not insufficient:
        # Every sentence of the draft went (unsupported, or withheld): say so, never a bare refusal.
        insufficient.append(UNSUPPORTED_DRAFT)
    parts = [_presentation(p) for p in contested]
    if not answered:
        parts.append("The sources available do not answer this question.")
    if kept:
        if contested:
            parts.append("What the sources do agree on:")
        elif not answered:
            parts.append("What they do say:")
        parts.append(" ".join(_render(c) for c in kept))
    parts.extend(_aside_note(p) for p in aside)
    if insufficient and (policies.honesty or not answered):
        parts.append("What I cannot say: " + "; ".join(insufficient))
    return draft.model_copy(
        update={
            "text": "\n\n".join(parts),
            "claims": tuple(claims),
            "contested": tuple(contested),
            "insufficient": tuple(insufficient),
            "policy_notes": (*draft.policy_notes, *notes),
            "answered": answered,
        }
    )


UNSUPPORTED_DRAFT = "no sentence of the draft answer is supported by the sources the run retrieved"
"""The insufficient note of an answer whose every drafted sentence was removed."""
TOPIC_OVERLAP = 0.6
"""Share of a contested topic's words a claim must contain to speak to the dispute."""
POSITION_OVERLAP = 0.5
"""Share of a position's words a claim must contain to restate that position."""
VERDICT_RESTATED = 0.5
"""Share of what a yes/no question asks beyond the contested topic that a claim must
restate to count as the draft's answer to it."""


def _takes_side(text: str, point: ContestedPoint) -> bool:
    """Whether a claim speaks to the disputed point (its topic or any position)."""
    topic_terms = content_terms(point.topic)
    if topic_terms and coverage(topic_terms, text) >= TOPIC_OVERLAP:
        return True
    for position in point.positions:
        terms = content_terms(position.statement)
        if terms and coverage(terms, text) >= POSITION_OVERLAP:
            return True
    return False


def _gives_verdict(text: str, question: str, point: ContestedPoint) -> bool:
    """Whether a claim answers the yes/no question itself.

    It does when it opens with yes or no, or restates what the question asks beyond the
    contested topic ("the payment was outside the policy terms" for "Was the payment made
    in line with the policy terms?").
    """
    first = text.split(maxsplit=1)[:1]
    if first and first[0].lower().strip(",.;:!") in ("yes", "no"):
        return True
    topic = stems(point.topic)
    asked = [t for t in content_terms(question) if not term_covered(t, topic)]
    return bool(asked) and coverage(asked, text) >= VERDICT_RESTATED


def _withheld(claim: Claim, why: str) -> Claim:
    return claim.model_copy(update={"status": "removed", "note": f"withheld: {why}"})


def _render(claim: Claim) -> str:
    mark = " (unverified)" if claim.status == "flagged" else ""
    cites = f" [{', '.join(claim.citations)}]" if claim.citations else ""
    return f"{claim.text}{mark}{cites}"

"""The one entry point every lane (agent, pipeline, MCP) uses to finish an answer.

It composes the grounded draft, asks `invariants.check` whether the answer keeps G1-G5,
and acts on every violation the configured policies enforce: a missing presentation is
added (G1), a sentence that takes a side, cites what the run never retrieved or speaks for
the register is withheld (G2, G3, G5), a missing insufficient flag or bound is surfaced
(G4). Then it checks again; an answer that still breaks an enforced invariant has every
claim withheld (it fails closed). Both verdicts are in ``answer.extras["invariants"]``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from groundgate.answer.model import Answer, Citation, Claim, ContestedPoint
from groundgate.errors import StoreError
from groundgate.knowledge.ingest.chunking import chunk_document
from groundgate.knowledge.model import Contradiction, Document
from groundgate.knowledge.port import KnowledgeStore
from groundgate.knowledge.text import content_terms, coverage
from groundgate.policies.applies import applicable
from groundgate.policies.contradiction import present
from groundgate.policies.detectors import (
    BearingQuestion,
    Passage,
    SidesQuestion,
    answer_passages,
    detected_points,
)
from groundgate.policies.grounding import evidence_from
from groundgate.policies.invariants import InvariantVerdict, Violation, check
from groundgate.policies.policyset import PolicySet
from groundgate.policies.supersession import successors, superseded_note
from groundgate.policies.trace import Register, RunTrace
from groundgate.tools.envelope import Envelope, read_envelopes

__all__ = ["UNSUPPORTED_DRAFT", "apply_policies"]

UNSUPPORTED_DRAFT = "no sentence of the draft answer is supported by the sources the run retrieved"
"""The insufficient note of an answer whose every drafted sentence was removed."""


def _rests_on(claims: Sequence[Claim], store: KnowledgeStore) -> dict[str, str]:
    """The passage each claim rests on: the chunk of its cited documents sharing most of its words."""
    chunks: dict[str, list[str]] = {}

    def of(source_id: str) -> list[str]:
        if source_id not in chunks:
            doc = store.get_document(source_id)
            chunks[source_id] = [f"{c.heading}\n{c.text}" for c in chunk_document(doc)] if doc else []
        return chunks[source_id]

    found = {c.text: _passage(c, of) for c in claims if c.status != "removed"}
    return {text: passage for text, passage in found.items() if passage}


def _passage(claim: Claim, chunks_of: Callable[[str], list[str]]) -> str:
    terms = content_terms(claim.text)
    best, best_cover = "", 0.0
    for source_id in claim.citations:
        for text in chunks_of(source_id):
            cover = coverage(terms, text)
            if cover > best_cover:
                best, best_cover = text, cover
    return best


def _aside_note(point: ContestedPoint) -> str:
    owner = f"owner: {point.owner}" if point.owner else "no owner assigned"
    lines = [f"Not settled: {point.topic} is an open disagreement ({point.contradiction_id}; {owner})."]
    lines.extend(
        f"Position {n}: {p.statement} [{', '.join(p.source_ids)}]"
        for n, p in enumerate(point.positions, start=1)
    )
    lines.append("This answer does not depend on it and takes no side.")
    return "\n".join(lines)


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


class _Sources:
    """Titles, kinds and successors of cited sources, looked up once (a courtesy: never fatal)."""

    def __init__(self, store: KnowledgeStore, envelopes: Sequence[Envelope]) -> None:
        self._store = store
        self._titles = evidence_from(envelopes).titles
        self._docs: dict[str, Document | None] = {}
        self._newer: dict[str, tuple[Document, ...]] = {}

    def doc(self, sid: str) -> Document | None:
        if sid not in self._docs:
            try:
                self._docs[sid] = self._store.get_document(sid)
            except StoreError:
                self._docs[sid] = None  # titles are a courtesy; an unreachable store must not end the run
        return self._docs[sid]

    def title(self, sid: str) -> str:
        doc = self.doc(sid)
        return self._titles.get(sid) or (doc.title if doc else "")

    def newer(self, sid: str) -> tuple[Document, ...]:
        if sid not in self._newer:
            try:
                self._newer[sid] = successors(self._store, [sid]).get(sid, ())
            except StoreError:
                self._newer[sid] = ()
        return self._newer[sid]


def _compose(
    draft: Answer, claims: Sequence[Claim], contested: Sequence[ContestedPoint],
    asides: Sequence[ContestedPoint], insufficient: Sequence[str], *, trace: RunTrace,
    sources: _Sources, policies: PolicySet,
) -> Answer:
    """The answer a user reads from its parts: presentations, kept claims, notes, citations."""
    kept = [c for c in claims if c.status != "removed"]
    notes = list(insufficient)
    answered = (draft.answered and bool(kept)) or bool(contested)
    if not answered and not notes:
        # Every sentence of the draft went (unsupported, or withheld): say so, never a bare refusal.
        notes.append(UNSUPPORTED_DRAFT)
    supplied: dict[str, str] = {}
    for point in (*contested, *asides):
        for sid in (s for p in point.positions for s in p.source_ids):
            if sid not in trace.retrieved and point.contradiction_id:
                supplied.setdefault(sid, point.contradiction_id)
    cited = dict.fromkeys(
        [s for c in kept for s in c.citations]
        + [s for p in (*contested, *asides) for pos in p.positions for s in pos.source_ids]
    )
    citations = []
    for sid in cited:
        doc = sources.doc(sid)
        newer = tuple(d.id for d in sources.newer(sid)) if policies.honesty else ()
        citations.append(Citation(
            source_id=sid, title=sources.title(sid), kind=doc.kind if doc else "",
            supplied_by=supplied.get(sid), superseded_by=newer,
        ))
    parts = [_presentation(p) for p in contested]
    if not answered:
        parts.append("The sources available do not answer this question.")
    if kept:
        if contested:
            parts.append("What the sources do agree on:")
        elif not answered:
            parts.append("What they do say:")
        parts.append(" ".join(_render(c) for c in kept))
    parts.extend(_aside_note(p) for p in asides)
    superseded = [superseded_note(c.source_id, c.title, sources.newer(c.source_id))
                  for c in citations if c.superseded_by]
    if superseded:
        parts.append("\n".join(superseded))
    # lookups that found nothing are said when the answer is missing; they stay in the record
    shown = [n for n in notes if not answered or n not in trace.insufficient or n in trace.failures]
    if shown and (policies.honesty or not answered):
        parts.append("What I cannot say: " + "; ".join(shown))
    return draft.model_copy(update={
        "text": "\n\n".join(parts),
        "claims": tuple(claims),
        "citations": tuple(citations),
        "contested": tuple(contested),
        "asides": tuple(asides),
        "insufficient": tuple(notes),
        "answered": answered,
    })


def _enforced(violation: Violation, policies: PolicySet) -> bool:
    """Whether the configured policies act on this violation (G3 always: grounding is never off)."""
    if violation.invariant in ("G1", "G5"):
        return policies.contradictions
    if violation.invariant == "G2":
        return policies.contradictions if violation.entry_id else policies.disagreement
    if violation.invariant == "G4":
        return policies.honesty
    return True


def _withheld(claim: Claim, why: str) -> Claim:
    return claim.model_copy(update={"status": "removed", "note": f"withheld: {why}"})


def _act(
    verdict: InvariantVerdict, claims: list[Claim], contested: list[ContestedPoint],
    asides: list[ContestedPoint], insufficient: list[str], register: Register, trace: RunTrace,
    policies: PolicySet, notes: list[str],
) -> None:
    """Act on every enforced violation (in place): the gate's whole response to the verdict."""
    for v in verdict.violations:
        if not _enforced(v, policies):
            continue
        if v.invariant == "G1":
            entry = register.entry(v.entry_id)
            if entry is None:
                continue
            if v.applies_by == "question":
                contested.append(present(entry))
                notes.append(f"contradiction policy: presented every position of {entry.id}; "
                             "the draft's choice, if any, was withheld")
            else:
                asides.append(present(entry))
                notes.append(f"contradiction policy: the draft spoke to {entry.id}, which the question does "
                             "not turn on; claims taking a side on it were withheld")
        elif v.invariant == "G4" and v.sentence not in insufficient:
            if v.sentence == trace.bound:
                insufficient.insert(0, v.sentence)  # the bound first: it explains everything after it
            else:
                insufficient.append(v.sentence)
        elif v.invariant in ("G2", "G3", "G5"):
            for i, claim in enumerate(claims):
                if claim.status == "removed" or claim.text != v.sentence:
                    continue
                if v.invariant == "G3":
                    kept = tuple(s for s in claim.citations if s in trace.retrieved)
                    claim = claim.model_copy(update={"citations": kept})
                    uncited = not kept and claim.status != "flagged"
                    claims[i] = _withheld(claim, f"G3: {v.reason}") if uncited else claim
                else:
                    claims[i] = _withheld(claim, f"{v.invariant}: {v.reason}")


def _detected(
    register: Register, question: str, passages: tuple[Passage, ...], store: KnowledgeStore,
    policies: PolicySet, notes: list[str],
) -> frozenset[str]:
    """The open entries the detector says bear on the answer, from the passages it rests on (G1).

    Asked once per answer, before any check, so ``check`` stays a pure function of the trace.

    Raises:
        StoreError: The detector could not read the store.
    """
    if not register.open:
        return frozenset()
    detector = policies.detector
    bearing = detector.bearing(
        BearingQuestion(register.open, question, passages, store, threshold=policies.topic_relevance)
    )
    notes.extend(f"detector ({detector.name}): {n}" for n in bearing.notes)
    return bearing.entry_ids


def _sided(
    entries: Sequence[Contradiction], question: str, said: Sequence[str], passages: tuple[Passage, ...],
    store: KnowledgeStore, policies: PolicySet, notes: list[str],
) -> frozenset[tuple[str, str, int]]:
    """The sentences the detector reads as stating one position of an entry the question turns on (G2).

    Asked once per answer, after G1 and before any check, so ``check`` stays pure.

    Raises:
        StoreError: The detector could not read the store.
    """
    if not entries or not said:
        return frozenset()
    detector = policies.detector
    found = detector.sides(SidesQuestion(tuple(entries), question, tuple(said), passages, store))
    notes.extend(n for n in (f"detector ({detector.name}): {n}" for n in found.notes) if n not in notes)
    return frozenset((t.sentence, t.entry_id, t.position) for t in found.taken)


def apply_policies(
    draft: Answer,
    *,
    question: str,
    envelopes: Sequence[Mapping[str, Any] | Envelope],
    store: KnowledgeStore,
    policies: PolicySet,
) -> Answer:
    """Impose the configured policies on a grounded draft; the draft cannot opt out."""
    read = read_envelopes(envelopes)
    notes: list[str] = []
    claims = list(draft.claims)
    contested: list[ContestedPoint] = []
    asides: list[ContestedPoint] = []
    insufficient = list(draft.insufficient)
    sources = _Sources(store, read)
    register: Register | None = None
    detected: frozenset[str] = frozenset()
    passages: tuple[Passage, ...] = ()
    try:
        register = Register.read(store)
        rests_on = _rests_on(claims, store)
        if register.open:
            passages = tuple(answer_passages(claims, read, store))
        detected = _detected(register, question, passages, store, policies, notes)
    except StoreError as exc:
        rests_on = {}
        if not policies.contradictions:
            register = Register(entries=())  # the policy is off: nothing of the register is checked
        else:
            # Fail closed: an answer the gate could not check is not given as settled.
            register = None
            down = f"the contradiction register could not be checked ({exc})"
            claims = [_withheld(c, "the register could not be checked") if c.status != "removed" else c
                      for c in claims]
            notes.append(f"contradiction policy: {down}; every claim was withheld")
            insufficient.append(down)
    trace = RunTrace.of(
        question, read, bound_tripped=draft.bound_tripped, rests_on=rests_on, detected=detected
    )

    def compose() -> Answer:
        return _compose(draft, claims, contested, asides, insufficient, trace=trace, sources=sources,
                        policies=policies)

    if register is None:
        if policies.honesty:
            insufficient.extend(n for n in trace.insufficient if n not in insufficient)
            if trace.bound and trace.bound not in insufficient:
                insufficient.insert(0, trace.bound)
        final = compose()
        unchecked = {"checked": False, "reason": "the register could not be read"}
        extras = {**draft.extras, "invariants": unchecked}
        return final.model_copy(update={"policy_notes": (*draft.policy_notes, *notes), "extras": extras})

    said = [c.text for c in claims if c.grounded_by != "none" or c.status == "flagged"]
    applies = applicable(register, trace, said, threshold=policies.topic_relevance)
    try:
        sided = _sided(applies.question, question, said, passages, store, policies, notes)
    except StoreError as exc:
        # Fail closed: a sentence the detector could not read is not shown as taking no side.
        sided = frozenset()
        claims = [_withheld(c, "the detector could not read the positions' sources")
                  if c.status != "removed" else c for c in claims]
        notes.append(f"contradiction policy: the detector could not read the positions' sources ({exc}); "
                     "every claim was withheld")
    trace = replace(trace, sided=sided)
    if policies.disagreement and not (policies.contradictions and applies.question):
        points, detector_notes = detected_points(
            policies.detector, question=question, claims=claims, envelopes=read, store=store
        )
        notes.extend(n for n in (f"detector ({policies.detector.name}): {n}" for n in detector_notes)
                     if n not in notes)
        for point in points:
            contested.append(point)
            notes.append("disagreement policy: the retrieved sources disagree on what was asked "
                         f"and no register entry covers it ({policies.detector.name} detector)")
    if policies.contradictions:
        notes.extend(
            f"contradiction policy: {e.id} ({e.topic}) touches this answer's entities "
            "but does not bear on the question" for e in applies.nearby
        )
    found = check(compose(), trace, register, topic_relevance=policies.topic_relevance)
    _act(found, claims, contested, asides, insufficient, register, trace, policies, notes)
    final = compose()
    after = check(final, trace, register, topic_relevance=policies.topic_relevance)
    left = [v for v in after.violations if _enforced(v, policies)]
    if left:
        # The gate could not bring the answer to keep its guarantee: nothing the draft said is shown.
        claims = [_withheld(c, f"{left[0].invariant}: the answer could not keep its guarantee")
                  if c.status != "removed" else c for c in claims]
        notes.append(f"gate: {len(left)} violation(s) remained after acting on the verdict; "
                     "every claim was withheld")
        final = compose()
        after = check(final, trace, register, topic_relevance=policies.topic_relevance)
    extras = {**draft.extras, "invariants": {
        "checked": True, "acted_on": [v.to_json() for v in found.violations if _enforced(v, policies)],
        **after.to_json(),
    }}
    return final.model_copy(update={"policy_notes": (*draft.policy_notes, *notes), "extras": extras})


def _render(claim: Claim) -> str:
    mark = " (unverified)" if claim.status == "flagged" else ""
    cites = f" [{', '.join(claim.citations)}]" if claim.citations else ""
    return f"{claim.text}{mark}{cites}"

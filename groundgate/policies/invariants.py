"""The gate's guarantee, in ids, checked by one pure function that returns a frozen verdict.

- **G1** Every open register entry that applies is shown with all its positions and their
  sources: in full when it bears on the question, as a note when only the answer speaks to it.
- **G2** No sentence the answer shows states or implies one position as the answer, rests
  only on one position's sources, or says an open entry is resolved.
- **G3** Every citation is a source the run retrieved, or one the register supplied and that
  is labelled as such (``Citation.supplied_by``).
- **G4** Every insufficient flag and tripped bound is surfaced.
- **G5** Text inside documents never changes the register, an entry's status, or the gate:
  what the answer shows of an entry is what the register holds, and no sentence the answer
  shows speaks for the register or the gate.

This module is where the decision lives: `check` tests a finished answer against G1-G5 and
returns the verdict. It asks one module per question: which open entries apply
(`applies.py`, G1), whether a shown sentence takes a side (`sides.py`, G2), whether a
sentence speaks for the register (`instructions.py`, G5); the words both read are in
`wording.py`, the trace and the register in `trace.py`. The gate (`policies/apply.py`)
composes, calls `check`, and acts on every violation; it decides nothing `check` does not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from groundgate.answer.model import Answer, ContestedPoint
from groundgate.knowledge.model import Contradiction, Position
from groundgate.policies.applies import Applicable, applicable, bears_on_question
from groundgate.policies.instructions import carries_instructions, speaks_for_register
from groundgate.policies.sides import takes_side
from groundgate.policies.trace import Register, RunTrace, touched_ids
from groundgate.policies.wording import asks_for_verdict, disputed_axis

__all__ = [
    "Applicable",
    "Invariant",
    "InvariantVerdict",
    "Register",
    "RunTrace",
    "Violation",
    "applicable",
    "asks_for_verdict",
    "bears_on_question",
    "carries_instructions",
    "check",
    "disputed_axis",
    "touched_ids",
]

Invariant = Literal["G1", "G2", "G3", "G4", "G5"]


@dataclass(frozen=True)
class Violation:
    """One breach of the guarantee: which invariant, where, and why."""

    invariant: Invariant
    sentence: str
    """The sentence at fault (G2, G3, G5), the entry's topic (G1) or the missing note (G4)."""
    reason: str
    entry_id: str | None = None
    """The register entry concerned, if any."""
    applies_by: Literal["question", "answer"] | None = None
    """For G1: whether the entry bears on the question (shown in full) or only on the answer."""

    def to_json(self) -> dict[str, Any]:
        """The violation as plain data (answer extras, traces)."""
        return {k: v for k, v in self.__dict__.items() if v is not None}


@dataclass(frozen=True)
class InvariantVerdict:
    """Whether an answer keeps G1-G5; the caller acts on the violations."""

    violations: tuple[Violation, ...]
    applicable: Applicable

    @property
    def holds(self) -> bool:
        """Whether no invariant is violated."""
        return not self.violations

    def of(self, *invariants: Invariant) -> tuple[Violation, ...]:
        """The violations of the given invariants."""
        return tuple(v for v in self.violations if v.invariant in invariants)

    def to_json(self) -> dict[str, Any]:
        """The verdict as plain data (answer extras, traces)."""
        return {
            "holds": self.holds,
            "violations": [v.to_json() for v in self.violations],
            "applies": {
                "question": [e.id for e in self.applicable.question],
                "answer": [e.id for e in self.applicable.answer],
                "nearby": [e.id for e in self.applicable.nearby],
            },
        }


def _as_entry(point: ContestedPoint) -> Contradiction:
    """A disagreement found in the evidence, read like a register entry (no id)."""
    return Contradiction(
        id=point.contradiction_id or "", topic=point.topic,
        positions=tuple(Position(statement=p.statement, source_ids=p.source_ids) for p in point.positions),
    )


def _shows(point: ContestedPoint, entry: Contradiction) -> bool:
    """Whether a presented point is the register's entry as the register holds it."""
    return (
        point.topic == entry.topic and point.owner == entry.owner and point.status == "open"
        and [(p.statement, tuple(p.source_ids)) for p in point.positions]
        == [(p.statement, tuple(p.source_ids)) for p in entry.positions]
    )


def _in_text(point: ContestedPoint, text: str) -> bool:
    return all(p.statement in text and all(s in text for s in p.source_ids) for p in point.positions)


def check(
    answer: Answer, trace: RunTrace, register: Register, *, topic_relevance: float = 0.5
) -> InvariantVerdict:
    """Check a finished answer against G1-G5; pure, so any caller can use it on any answer.

    Args:
        answer: The answer as the user gets it (``claims`` still hold what the gate withheld).
        trace: What the run retrieved, touched and flagged.
        register: The register and its entities' names.
        topic_relevance: Share of a topic's words the question must hold for the entry to bear.
    """
    said = [c.text for c in answer.claims if c.grounded_by != "none" or c.status == "flagged"]
    applies = applicable(register, trace, said, threshold=topic_relevance)
    shown = [c for c in answer.claims if c.status != "removed"]
    found: list[Violation] = []
    by_id = {p.contradiction_id: p for p in answer.contested if p.contradiction_id}
    asides = {p.contradiction_id: p for p in answer.asides if p.contradiction_id}

    ways: tuple[tuple[Literal["question", "answer"], tuple[Contradiction, ...]], ...] = (
        ("question", applies.question), ("answer", applies.answer),
    )
    for how, entries in ways:
        for entry in entries:
            point = by_id.get(entry.id) or (asides.get(entry.id) if how == "answer" else None)
            if point is None or not _in_text(point, answer.text):
                found.append(Violation(
                    "G1", entry.topic, f"{entry.id} applies (by the {how}) but the answer does not show "
                    "every position with its sources", entry.id, how,
                ))
    for point in (*answer.contested, *answer.asides):
        held = register.entry(point.contradiction_id)
        if point.contradiction_id and (held is None or held.status != "open" or not _shows(point, held)):
            found.append(Violation(
                "G5", point.topic, f"{point.contradiction_id} is shown other than the register holds it",
                point.contradiction_id,
            ))

    bearing = [(e, True) for e in applies.question] + [(e, False) for e in applies.answer]
    bearing += [(_as_entry(p), True) for p in answer.contested if not p.contradiction_id]
    for claim in shown:
        if speaks_for_register(claim.text):
            found.append(Violation("G5", claim.text, "it speaks for the register or the gate"))
            continue
        for entry, bears in bearing:
            stated = trace.states(claim.text, entry.id) if entry.id else None
            why = takes_side(claim, entry, register, trace.question, bears, stated=stated)
            if why:
                found.append(Violation("G2", claim.text, why, entry.id or None))
                break
        unknown = [s for s in claim.citations if s not in trace.retrieved]
        if unknown:
            found.append(Violation(
                "G3", claim.text, f"it cites {', '.join(unknown)}, which the run never retrieved",
            ))

    supplied = {p.contradiction_id: {s for pos in p.positions for s in pos.source_ids}
                for p in (*answer.contested, *answer.asides) if p.contradiction_id}
    for citation in answer.citations:
        if citation.source_id in trace.retrieved:
            continue
        if citation.supplied_by not in supplied or citation.source_id not in supplied[citation.supplied_by]:
            found.append(Violation(
                "G3", citation.source_id, "never retrieved, and not labelled as the register's",
            ))

    for note in (*([trace.bound] if trace.bound else []), *trace.insufficient):
        # a lookup that found nothing is said in the text when the answer is missing; a failure
        # or a bound always
        quiet = answer.answered and note not in trace.failures and note != trace.bound
        surfaced = note in answer.text or quiet
        if note not in answer.insufficient or not surfaced:
            found.append(Violation("G4", note, "the answer does not surface this flag or bound"))
    return InvariantVerdict(violations=tuple(found), applicable=applies)

"""Contradiction presentation: a register entry as the answer shows it, every position, none chosen.

Whether an entry bears on the question or the answer, and whether a sentence takes a side
on it, is decided in ``policies/applies.py`` (G1) and ``policies/sides.py`` (G2), which
``policies/invariants.check`` calls; this module only turns an entry into what the answer
shows. Recency is not applicability: a newer position is not a decision, and an entry
stays open until a person resolves it in the register.
"""

from __future__ import annotations

from groundgate.answer.model import ContestedPoint, StatedPosition
from groundgate.knowledge.model import Contradiction

__all__ = ["present"]


def present(entry: Contradiction) -> ContestedPoint:
    """The answer's view of a register entry: its topic, every position with its sources, its owner."""
    return ContestedPoint(
        topic=entry.topic,
        positions=tuple(
            StatedPosition(statement=p.statement, source_ids=p.source_ids) for p in entry.positions
        ),
        contradiction_id=entry.id,
        owner=entry.owner,
        status="open",
    )

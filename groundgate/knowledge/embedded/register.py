"""Register reads of the embedded store: contradiction entries and the resolution log."""

from __future__ import annotations

from collections.abc import Sequence

from groundgate.knowledge.embedded.connection import Connected
from groundgate.knowledge.embedded.rows import contradiction_from_row
from groundgate.knowledge.model import Contradiction, ResolutionDecision
from groundgate.knowledge.register import select_entries

__all__ = ["RegisterReads"]


class RegisterReads(Connected):
    """The contradiction register and the entity-resolution log."""

    def contradictions(
        self,
        *,
        entity_ids: Sequence[str] = (),
        topic: str | None = None,
        status: str | None = "open",
    ) -> list[Contradiction]:
        """Register entries touching ``entity_ids`` or whose topic matches ``topic``."""
        rows = self._rows(
            "SELECT * FROM contradictions" + (" WHERE status = ?" if status else "") + " ORDER BY id",
            [status] if status else [],
        )
        found = [contradiction_from_row(r) for r in rows]
        return select_entries(found, entity_ids=entity_ids, topic=topic)

    def resolution_log(self) -> list[ResolutionDecision]:
        """Every logged entity-resolution decision, in order."""
        rows = self._rows(
            "SELECT mention, candidate_id, score, decision, zone, reason FROM resolution_log "
            "ORDER BY seq"
        )
        return [ResolutionDecision(**dict(r)) for r in rows]

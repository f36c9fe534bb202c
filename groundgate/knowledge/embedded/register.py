"""Register reads of the embedded store: contradiction entries and the resolution log."""

from __future__ import annotations

from groundgate.knowledge.embedded.connection import Connected
from groundgate.knowledge.embedded.rows import contradiction_from_row
from groundgate.knowledge.model import Contradiction, ResolutionDecision

__all__ = ["RegisterReads"]


class RegisterReads(Connected):
    """The contradiction register and the entity-resolution log."""

    def _contradictions(self, status: str | None) -> list[Contradiction]:
        """Every entry of ``status`` (every entry when ``None``), by id."""
        rows = self._rows(
            "SELECT * FROM contradictions" + (" WHERE status = ?" if status else "") + " ORDER BY id",
            [status] if status else [],
        )
        return [contradiction_from_row(r) for r in rows]

    def resolution_log(self) -> list[ResolutionDecision]:
        """Every logged entity-resolution decision, in order."""
        rows = self._rows(
            "SELECT mention, candidate_id, score, decision, zone, reason FROM resolution_log "
            "ORDER BY seq"
        )
        return [ResolutionDecision(**dict(r)) for r in rows]

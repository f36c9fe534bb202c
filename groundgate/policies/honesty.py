"""Honesty forwarding: every insufficient flag and tripped bound reaches the answer."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["bound_note", "insufficient_notes"]


def insufficient_notes(envelopes: Iterable[dict[str, Any]]) -> list[str]:
    """One note per insufficient or failed tool call, in call order, without repeats."""
    notes: dict[str, None] = {}
    for env in envelopes:
        if env.get("error"):
            notes.setdefault(f"{env['tool']} failed: {env['error']}", None)
        elif env.get("insufficient"):
            notes.setdefault(f"{env['tool']}: {env.get('reason') or 'nothing found'}", None)
    return list(notes)


def bound_note(bound: dict[str, Any] | None) -> str | None:
    """The sentence that says which bound stopped the run."""
    if not bound:
        return None
    return (
        f"The run stopped at its {bound['bound']} bound ({bound['used']} of {bound['limit']}); "
        "this answer is composed from what was gathered before that."
    )

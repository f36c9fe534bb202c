"""Which contradiction-register entries bear on some entities or a topic: a pure function."""

from __future__ import annotations

from collections.abc import Sequence

from groundgate.knowledge.model import Contradiction
from groundgate.knowledge.text import content_terms, coverage

__all__ = ["TOPIC_COVERAGE", "select_entries"]

TOPIC_COVERAGE = 0.5
"""The share of a query topic's content words an entry's topic must hold to match."""


def select_entries(
    entries: Sequence[Contradiction], *, entity_ids: Sequence[str] = (), topic: str | None = None
) -> list[Contradiction]:
    """The entries touching ``entity_ids`` (or citing them) or whose topic matches ``topic``.

    Args:
        entries: Register entries, in the order to keep.
        entity_ids: Entities (or sources) an entry must name, any of them.
        topic: Words an entry's topic must cover, by word overlap.

    Returns:
        Every entry when neither filter is given; otherwise those matching either.
    """
    if not entity_ids and not topic:
        return list(entries)
    wanted = set(entity_ids)
    terms = content_terms(topic or "")
    return [
        entry
        for entry in entries
        if wanted & set(entry.entity_ids)
        or wanted & set(entry.source_ids)
        or (terms and coverage(terms, entry.topic) >= TOPIC_COVERAGE)
    ]

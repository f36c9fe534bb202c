"""Timelines, derived from the port: every dated event about an entity, oldest first."""

from __future__ import annotations

from datetime import date

from groundgate.knowledge.model import TimelineEvent
from groundgate.knowledge.port import KnowledgeStore

__all__ = ["timeline"]


def _name(store: KnowledgeStore, entity_id: str) -> str:
    entity = store.get_entity(entity_id)
    return entity.name if entity else entity_id


def timeline(
    store: KnowledgeStore, entity_id: str, *, start: date | None = None, end: date | None = None
) -> list[TimelineEvent]:
    """Everything dated about an entity, in order.

    Validity windows of its relationships, effective and publication dates of the
    documents about it, and register entries opened or resolved on it.
    """
    events: list[TimelineEvent] = []
    for edge in store.relationships(entity_id):
        if edge.type == "mentions":
            continue
        other = edge.target if edge.source == entity_id else edge.source
        label = f"{_name(store, edge.source)} {edge.type.replace('_', ' ')} {_name(store, edge.target)}"
        if edge.valid_from:
            events.append(TimelineEvent(day=edge.valid_from, kind="starts", description=label,
                                        ref_id=other, source_ids=edge.source_ids))
        if edge.valid_to:
            events.append(TimelineEvent(day=edge.valid_to, kind="ends", description=label,
                                        ref_id=other, source_ids=edge.source_ids))
    for doc in store.documents_about(entity_id):
        if doc.effective_from:
            events.append(TimelineEvent(day=doc.effective_from, kind="effective",
                                        description=f"{doc.title} takes effect",
                                        ref_id=doc.id, source_ids=(doc.id,)))
        if doc.effective_to:
            events.append(TimelineEvent(day=doc.effective_to, kind="superseded",
                                        description=f"{doc.title} stops applying",
                                        ref_id=doc.id, source_ids=(doc.id,)))
        if doc.published_at and doc.published_at != doc.effective_from:
            events.append(TimelineEvent(day=doc.published_at, kind="published",
                                        description=f"{doc.title} published",
                                        ref_id=doc.id, source_ids=(doc.id,)))
    for entry in store.contradictions(entity_ids=[entity_id], status=None):
        if entry.opened_at:
            events.append(TimelineEvent(day=entry.opened_at, kind="contradiction_opened",
                                        description=f"Contradiction opened: {entry.topic}",
                                        ref_id=entry.id, source_ids=entry.source_ids))
        if entry.resolved_at:
            events.append(TimelineEvent(
                day=entry.resolved_at, kind="contradiction_resolved",
                description=f"Contradiction resolved: {entry.resolution or entry.topic}",
                ref_id=entry.id, source_ids=entry.source_ids,
            ))
    unique = {(e.day, e.kind, e.ref_id, e.description): e for e in events}
    ordered = sorted(unique.values(), key=lambda e: (e.day, e.kind, e.ref_id))
    return [e for e in ordered if (not start or e.day >= start) and (not end or e.day <= end)]

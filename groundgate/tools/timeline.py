"""timeline: how an entity changed over time."""

from __future__ import annotations

from datetime import date

from pydantic import Field

from groundgate.errors import ToolFailure
from groundgate.knowledge.timeline import timeline as entity_timeline
from groundgate.tools.base import Found, ToolArgs, ToolDeps, tool
from groundgate.tools.envelope import ResultItem


class Args(ToolArgs):
    """Arguments of timeline."""

    entity_id: str = Field(..., min_length=1)
    start: date | None = Field(None, description="YYYY-MM-DD, from.")
    end: date | None = Field(None, description="YYYY-MM-DD, until.")


@tool("The dated events of an entity id, oldest first: what started, stopped or changed, and when.")
def timeline(args: Args, deps: ToolDeps) -> Found:
    """The entity's events."""
    if deps.store.get_entity(args.entity_id) is None:
        raise ToolFailure(f"no entity with id {args.entity_id!r}; call resolve_entity first")
    events = entity_timeline(deps.store, args.entity_id, start=args.start, end=args.end)
    results = [
        ResultItem(
            id=event.ref_id,
            title=f"{event.day.isoformat()} {event.kind}",
            kind=event.kind,
            snippet=event.description,
            source_ids=event.source_ids,
            data={"day": event.day.isoformat()},
        )
        for event in events[:40]
    ]
    return Found(
        results, truncated=len(events) > 40, empty_reason=f"no dated events recorded for {args.entity_id!r}"
    )


SPEC = timeline

"""list_contradictions: the register of recorded disagreements between sources."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from groundgate.tools.base import Found, ToolArgs, ToolDeps, tool
from groundgate.tools.envelope import ResultItem


class Args(ToolArgs):
    """Arguments of list_contradictions."""

    entity_ids: list[str] = Field(default_factory=list, description="Entity ids.")
    topic: str | None = Field(None, max_length=400, description="A topic in words.")
    status: Literal["open", "resolved", "any"] = Field("open", description="Default open.")


@tool(
    "Recorded disagreements between sources about entities or a topic, with each position and "
    "its sources. Open means undecided."
)
def list_contradictions(args: Args, deps: ToolDeps) -> Found:
    """Look up the register."""
    entries = deps.store.contradictions(
        entity_ids=args.entity_ids, topic=args.topic,
        status=None if args.status == "any" else args.status,
    )
    results = [
        ResultItem(
            id=e.id,
            title=e.topic,
            kind=f"contradiction:{e.status}",
            snippet=" | ".join(p.statement for p in e.positions),
            source_ids=e.source_ids,
            data={
                "status": e.status,
                "owner": e.owner,
                "entity_ids": list(e.entity_ids),
                "positions": [p.model_dump(mode="json") for p in e.positions],
                "resolution": e.resolution,
            },
        )
        for e in entries
    ]
    # An empty register answer is itself an answer, not a gap in the evidence.
    return Found(results, empty_reason="no recorded disagreement matches", empty_is_answer=True)


SPEC = list_contradictions

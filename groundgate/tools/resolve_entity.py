"""resolve_entity: turn a name or identifier into canonical entity ids."""

from __future__ import annotations

from pydantic import Field

from groundgate.knowledge.resolution import resolve
from groundgate.tools.base import Found, ToolArgs, ToolDeps, tool
from groundgate.tools.envelope import ResultItem


class Args(ToolArgs):
    """Arguments of resolve_entity."""

    mention: str = Field(..., min_length=1, max_length=200, description="The name as written.")
    top_k: int = Field(3, ge=1, le=10, description="1-10.")


@tool(
    "Turn a name or identifier from the question into canonical entity ids. No candidate means "
    "there is no such entity."
)
def resolve_entity(args: Args, deps: ToolDeps) -> Found:
    """Resolve a mention."""
    matches, decisions = resolve(deps.store, args.mention, top_k=args.top_k)
    gray = [d.model_dump() for d in decisions if d.zone == "gray"]
    results = [
        ResultItem(
            id=m.entity.id,
            title=m.entity.name,
            kind=m.entity.kind,
            snippet=m.entity.description[:300],
            score=m.score,
            source_ids=m.entity.source_ids,
            data={"method": m.method, "owner": m.entity.owner, "attributes": m.entity.attributes}
            | ({"gray_zone": gray} if gray else {}),
        )
        for m in matches
    ]
    return Found(results, empty_reason=f"no entity matches {args.mention!r}")


SPEC = resolve_entity

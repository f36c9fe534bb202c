"""resolve_entity: turn a name or identifier into canonical entity ids."""

from __future__ import annotations

from pydantic import Field

from groundgate.knowledge.resolution import resolve
from groundgate.tools.base import ToolArgs, ToolDeps, ToolSpec
from groundgate.tools.envelope import Envelope, ResultItem

NAME = "resolve_entity"
DESCRIPTION = (
    "Turn a name or identifier from the question into canonical entity ids. No candidate means "
    "there is no such entity."
)


class Args(ToolArgs):
    """Arguments of resolve_entity."""

    mention: str = Field(..., min_length=1, max_length=200, description="The name as written.")
    top_k: int = Field(3, ge=1, le=10, description="1-10.")


def run(args: Args, deps: ToolDeps) -> Envelope:
    """Resolve a mention."""
    matches, decisions = resolve(deps.store, args.mention, top_k=args.top_k)
    results = [
        ResultItem(
            id=m.entity.id,
            title=m.entity.name,
            kind=m.entity.kind,
            snippet=m.entity.description[:300],
            score=m.score,
            source_ids=m.entity.source_ids,
            data={"method": m.method, "owner": m.entity.owner, "attributes": m.entity.attributes},
        )
        for m in matches
    ]
    gray = [d.model_dump() for d in decisions if d.zone == "gray"]
    envelope = Envelope.of(
        NAME, results, args=args.model_dump(mode="json"),
        empty_reason=f"no entity matches {args.mention!r}",
    )
    if gray:
        envelope = envelope.model_copy(update={"results": tuple(
            r.model_copy(update={"data": {**r.data, "gray_zone": gray}}) for r in envelope.results
        )})
    return envelope


SPEC = ToolSpec(NAME, DESCRIPTION, Args, run)  # type: ignore[arg-type]

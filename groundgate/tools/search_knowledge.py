"""search_knowledge: concepts, decisions, requirements, claims and other curated entities."""

from __future__ import annotations

from pydantic import Field

from groundgate.tools.base import ToolArgs, ToolDeps, ToolSpec
from groundgate.tools.envelope import Envelope, ResultItem
from groundgate.tools.schema import HIDDEN
from groundgate.tools.search_evidence import kinds_note

NAME = "search_knowledge"
DESCRIPTION = (
    "Search the curated entities (concepts, decisions, rules, claims, parties) by topic. "
    "Returns their canonical ids for the other tools."
)


class Args(ToolArgs):
    """Arguments of search_knowledge."""

    query: str = Field(..., min_length=2, max_length=400, description="What to look for.")
    top_k: int = Field(6, ge=1, le=20, description="1-20.")
    kinds: list[str] = Field(
        default_factory=list, description="Only these entity kinds.", json_schema_extra=HIDDEN
    )


def run(args: Args, deps: ToolDeps) -> Envelope:
    """Search the understanding layer."""
    hits = deps.store.search_knowledge(args.query, top_k=args.top_k, kinds=args.kinds)
    results = [
        ResultItem(
            id=h.entity.id,
            title=h.entity.name,
            kind=h.entity.kind,
            snippet=h.entity.description,
            score=h.score,
            source_ids=h.entity.source_ids,
            data={"owner": h.entity.owner, "aliases": list(h.entity.aliases)},
        )
        for h in hits
    ]
    reason = f"no curated knowledge matches {args.query!r}"
    if not hits and args.kinds:
        unfiltered = deps.store.search_knowledge(args.query, top_k=args.top_k)
        reason = kinds_note(reason, args.kinds, [h.entity.kind for h in unfiltered])
    return Envelope.of(NAME, results, args=args.model_dump(mode="json"), empty_reason=reason)


SPEC = ToolSpec(NAME, DESCRIPTION, Args, run)  # type: ignore[arg-type]

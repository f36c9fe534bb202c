"""search_knowledge: concepts, decisions, requirements, claims and other curated entities."""

from __future__ import annotations

from groundgate.tools.base import Found, SearchArgs, ToolDeps, kinds_filter, tool
from groundgate.tools.envelope import ResultItem
from groundgate.tools.search_evidence import kinds_note


class Args(SearchArgs):
    """Arguments of search_knowledge."""

    kinds: list[str] = kinds_filter("entity")


@tool(
    "Search the curated entities (concepts, decisions, rules, claims, parties) by topic. "
    "Returns their canonical ids for the other tools."
)
def search_knowledge(args: Args, deps: ToolDeps) -> Found:
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
    return Found(results, empty_reason=reason)


SPEC = search_knowledge

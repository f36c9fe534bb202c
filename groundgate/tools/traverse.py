"""traverse: walk typed, time-valid relationships from an entity."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from groundgate.errors import ToolFailure
from groundgate.knowledge.model import RELATIONSHIP_TYPES, Validity
from groundgate.tools.base import AsOfArgs, Found, ToolDeps, tool
from groundgate.tools.envelope import ResultItem
from groundgate.tools.schema import HIDDEN


class Args(AsOfArgs):
    """Arguments of traverse."""

    entity_id: str = Field(..., min_length=1)
    hops: int = Field(2, ge=1, le=3, description="1-3.")
    relation_types: list[str] = Field(
        default_factory=list, description="Relationship types."
    )
    known_at: datetime | None = Field(
        None, description="Only what was recorded by then.", json_schema_extra=HIDDEN
    )
    top_k: int = Field(15, ge=1, le=30, description="1-30.")


@tool(
    "Walk the typed relationships (applies_to, supersedes, governs, ...) from an entity id, "
    "keeping those valid on the date. Returns paths with sources."
)
def traverse(args: Args, deps: ToolDeps) -> Found:
    """Walk from ``entity_id``."""
    unknown = [t for t in args.relation_types if t not in RELATIONSHIP_TYPES]
    if unknown:
        raise ToolFailure(f"unknown relation types {unknown}; known: {list(RELATIONSHIP_TYPES)}")
    start = deps.store.get_entity(args.entity_id)
    if start is None:
        raise ToolFailure(f"no entity with id {args.entity_id!r}; call resolve_entity first")
    as_of = args.as_of or deps.default_as_of
    paths = deps.store.traverse(
        args.entity_id, hops=args.hops, types=args.relation_types, as_of=as_of,
        known_at=args.known_at, limit=args.top_k + 1,
    )
    results = []
    for path in paths[: args.top_k]:
        end = deps.store.get_entity(path.nodes[-1])
        parts: list[str] = [path.nodes[0]]
        for edge, node in zip(path.edges, path.nodes[1:], strict=True):
            parts.append(f"-[{edge.type}]->" if edge.target == node else f"<-[{edge.type}]-")
            parts.append(node)
        last = path.edges[-1]
        window = Validity(
            valid_from=max((e.valid_from for e in path.edges if e.valid_from), default=None),
            valid_to=min((e.valid_to for e in path.edges if e.valid_to), default=None),
        )
        sources = tuple(dict.fromkeys(s for e in path.edges for s in e.source_ids))
        note = "; ".join(e.note for e in path.edges if e.note)
        results.append(
            ResultItem(
                id=path.nodes[-1],
                title=end.name if end else path.nodes[-1],
                kind=end.kind if end else "unknown",
                snippet=(note or (end.description if end else ""))[:400],
                score=round(1.0 / len(path.edges), 4),
                source_ids=sources,
                validity=window,
                path=tuple(parts),
                data={"edge_ids": [e.id for e in path.edges], "last_type": last.type},
            )
        )
    return Found(
        results, as_of=as_of, truncated=len(paths) > args.top_k,
        empty_reason=f"no relationships from {args.entity_id!r}" + (f" valid on {as_of}" if as_of else ""),
    )


SPEC = traverse

"""search_evidence: passages from the source documents, best first."""

from __future__ import annotations

from pydantic import Field

from groundgate.tools.base import AsOfArgs, ToolDeps, ToolSpec
from groundgate.tools.envelope import Envelope, ResultItem
from groundgate.tools.schema import HIDDEN

NAME = "search_evidence"
DESCRIPTION = (
    "Search the source documents. Returns passages best first, each with its document id, a "
    "score from 0 to 1 and the dates it is in effect."
)


class Args(AsOfArgs):
    """Arguments of search_evidence."""

    query: str = Field(..., min_length=2, max_length=400, description="What to look for.")
    top_k: int = Field(6, ge=1, le=20, description="1-20.")
    kinds: list[str] = Field(
        default_factory=list, description="Only these document kinds.", json_schema_extra=HIDDEN
    )


def run(args: Args, deps: ToolDeps) -> Envelope:
    """Search the evidence layer."""
    as_of = args.as_of or deps.default_as_of
    vector = deps.embedder.embed_query(args.query) if deps.embedder else None
    hits = deps.store.search_evidence(
        args.query, top_k=args.top_k, as_of=as_of, kinds=args.kinds, query_vector=vector
    )
    results = [
        ResultItem(
            id=h.chunk_id,
            title=h.title + (f" › {h.heading}" if h.heading else ""),
            kind=h.kind,
            snippet=h.text,
            score=h.score,
            source_ids=(h.doc_id,),
            validity=h.validity,
            data={"coverage": h.coverage, "doc_id": h.doc_id},
        )
        for h in hits
    ]
    reason = f"no passage matches {args.query!r}" + (f" as of {as_of}" if as_of else "")
    if not hits and args.kinds:
        # A filter the model guessed: say which kinds do match, so the next call can correct it.
        unfiltered = deps.store.search_evidence(
            args.query, top_k=args.top_k, as_of=as_of, query_vector=vector
        )
        reason = kinds_note(reason, args.kinds, [h.kind for h in unfiltered])
    return Envelope.of(NAME, results, args=args.model_dump(mode="json"), as_of=as_of, empty_reason=reason)


def kinds_note(reason: str, asked: list[str], found: list[str]) -> str:
    """The empty reason of a kind-filtered search, naming the kinds that match without the filter."""
    kinds = ", ".join(dict.fromkeys(found))
    note = f"{reason} of kind {', '.join(asked)}"
    return note + (f"; without that filter, kinds {kinds} match" if kinds else "")


SPEC = ToolSpec(NAME, DESCRIPTION, Args, run)  # type: ignore[arg-type]

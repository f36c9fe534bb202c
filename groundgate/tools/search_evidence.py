"""search_evidence: passages from the source documents, best first."""

from __future__ import annotations

from groundgate.tools.base import AsOfArgs, Found, SearchArgs, ToolDeps, kinds_filter, tool
from groundgate.tools.envelope import ResultItem


class Args(SearchArgs, AsOfArgs):
    """Arguments of search_evidence."""

    kinds: list[str] = kinds_filter("document")


@tool(
    "Search the source documents. Returns passages best first, each with its document id, a "
    "score from 0 to 1 and the dates it is in effect."
)
def search_evidence(args: Args, deps: ToolDeps) -> Found:
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
    return Found(results, as_of=as_of, empty_reason=reason)


def kinds_note(reason: str, asked: list[str], found: list[str]) -> str:
    """The empty reason of a kind-filtered search, naming the kinds that match without the filter."""
    kinds = ", ".join(dict.fromkeys(found))
    note = f"{reason} of kind {', '.join(asked)}"
    return note + (f"; without that filter, kinds {kinds} match" if kinds else "")


SPEC = search_evidence

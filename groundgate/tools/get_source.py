"""get_source: read a whole source document by id."""

from __future__ import annotations

from pydantic import Field

from groundgate.errors import ToolFailure
from groundgate.tools.base import Found, ToolArgs, ToolDeps, tool
from groundgate.tools.envelope import ResultItem

MAX_CHARS = 6000


class Args(ToolArgs):
    """Arguments of get_source."""

    source_id: str = Field(..., min_length=1)


@tool("Read one source document in full by its id.")
def get_source(args: Args, deps: ToolDeps) -> Found:
    """Fetch a document."""
    doc_id = args.source_id.split("#", 1)[0]
    doc = deps.store.get_document(doc_id)
    if doc is None:
        raise ToolFailure(f"no source document with id {doc_id!r}")
    item = ResultItem(
        id=doc.id,
        title=doc.title,
        kind=doc.kind,
        snippet=doc.body[:MAX_CHARS],
        source_ids=(doc.id,),
        validity=doc.validity,
        data={"version": doc.version, "owner": doc.owner, "supersedes": list(doc.supersedes),
              "published_at": doc.published_at.isoformat() if doc.published_at else None},
    )
    return Found([item], truncated=len(doc.body) > MAX_CHARS, empty_reason="")


SPEC = get_source

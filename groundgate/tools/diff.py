"""diff: what changed between two versions of a document or requirement."""

from __future__ import annotations

from pydantic import Field

from groundgate.errors import ToolFailure
from groundgate.knowledge.diff import diff_versions, previous_version
from groundgate.tools.base import Found, ToolArgs, ToolDeps, tool
from groundgate.tools.envelope import ResultItem


class Args(ToolArgs):
    """Arguments of diff."""

    new_id: str = Field(..., min_length=1)
    old_id: str | None = Field(None, description="Omit for the version it replaced.")


@tool("The sentences added and removed between two versions of a document.")
def diff(args: Args, deps: ToolDeps) -> Found:
    """Diff two versions."""
    old_id = args.old_id or previous_version(deps.store, args.new_id)
    if old_id is None:
        raise ToolFailure(f"{args.new_id!r} replaces no earlier version; give old_id")
    change = diff_versions(deps.store, old_id, args.new_id)
    results = [
        ResultItem(id=change.new_id, title="added", kind="added", snippet=s, source_ids=(change.new_id,))
        for s in change.added
    ] + [
        ResultItem(id=change.old_id, title="removed", kind="removed", snippet=s, source_ids=(change.old_id,))
        for s in change.removed
    ]
    return Found(results, empty_reason=f"no textual difference between {old_id!r} and {args.new_id!r}")


SPEC = diff

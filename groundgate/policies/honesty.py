"""Honesty forwarding: every insufficient flag and tripped bound reaches the answer.

The notes are written for the person asking: what was looked for and not found, never a
tool's name or its error string (those stay in the trace).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from groundgate.tools.envelope import Envelope, read_envelopes

__all__ = ["bound_note", "failure_notes", "insufficient_notes", "lookup_note"]

_LOOKED_FOR = {
    "search_evidence": ("query", "no passage in the documents matches {!r}"),
    "search_knowledge": ("query", "nothing in the curated knowledge matches {!r}"),
    "resolve_entity": ("mention", "the sources have no entry named {!r}"),
    "traverse": ("entity_id", "the sources record no relationships of {!r}"),
    "timeline": ("entity_id", "the sources record no dated events of {!r}"),
    "get_source": ("source_id", "the document {!r} could not be read"),
    "diff": ("new_id", "the two versions do not differ in their text"),
}
_FAILED = {
    "search_evidence": "a search of the documents failed",
    "search_knowledge": "a search of the curated knowledge failed",
    "resolve_entity": "looking up a name failed",
    "traverse": "walking the relationships failed",
    "timeline": "reading a timeline failed",
    "get_source": "reading a document failed",
    "diff": "comparing two versions failed",
    "list_contradictions": "the register of disagreements could not be read",
}


def lookup_note(envelope: Mapping[str, Any] | Envelope) -> str | None:
    """What a failed or empty tool call means for the answer, in a person's words.

    ``None`` for a call whose empty result says nothing a reader needs (no recorded
    disagreement matched: that is what the gate checks anyway).
    """
    (env,) = read_envelopes([envelope])
    tool = env.tool
    args = env.args
    if env.error:
        what = _FAILED.get(tool, "a lookup in the sources failed")
        if "timed out" in env.error:
            what = what.replace(" failed", " timed out").replace("could not be read", "timed out")
        return f"{what}, so the answer may miss what it would have found"
    if not env.insufficient or tool == "list_contradictions":
        return None
    key, template = _LOOKED_FOR.get(tool, ("", "a lookup in the sources found nothing"))
    value = args.get(key) if key else None
    if key and not value:
        return "a lookup in the sources found nothing"
    return template.format(str(value)[:80]) if key else template


def insufficient_notes(envelopes: Iterable[Mapping[str, Any] | Envelope]) -> list[str]:
    """One note per insufficient or failed tool call, in call order, without repeats."""
    notes: dict[str, None] = {}
    for env in envelopes:
        note = lookup_note(env)
        if note:
            notes.setdefault(note, None)
    return list(notes)


def failure_notes(envelopes: Iterable[Mapping[str, Any] | Envelope]) -> list[str]:
    """The notes of the failed tool calls alone."""
    return insufficient_notes(e for e in read_envelopes(envelopes) if e.error)


def bound_note(bound: Mapping[str, Any] | None) -> str | None:
    """The sentence that says which bound stopped the run."""
    if not bound:
        return None
    return (
        f"The run stopped at its {bound['bound']} bound ({bound['used']} of {bound['limit']}); "
        "this answer is composed from what was gathered before that."
    )

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
    "search_evidence": ("query", "no passage in the documents matches {}"),
    "search_knowledge": ("query", "nothing in the curated knowledge matches {}"),
    # a name the passages use may have no declared entity (a folder without front matter
    # declares none): the note says what is missing, not that the text never names it
    "resolve_entity": ("mention", "no declared entity is named {}"),
    "traverse": ("entity_id", "the sources declare no relationships of {}"),
    "timeline": ("entity_id", "the sources record no dated events of {}"),
    "get_source": ("source_id", "the document {} could not be read"),
    "diff": ("new_id", "the two versions do not differ in their text"),
}
_SHOWN_CHARS = 80
"""Most characters of a looked-for value a note quotes (a query may be the whole question)."""
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


def lookup_note(envelope: Mapping[str, Any] | Envelope, names: Mapping[str, str] | None = None) -> str | None:
    """What a failed or empty tool call means for the answer, in a person's words.

    ``names`` maps the ids the run's results carried to their titles: a walk from
    ``fete-2025`` that found nothing is said of "Kelsham Fete 2025", not of an id. ``None``
    for a call whose empty result says nothing a reader needs (no recorded disagreement
    matched: that is what the gate checks anyway).
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
    if not key:
        return template
    if key == "entity_id" and names and str(value) in names:
        return template.format(names[str(value)][:_SHOWN_CHARS])
    return template.format(_quoted(str(value)))


def _quoted(value: str) -> str:
    """The value in quotes, cut at a word (with an ellipsis) when it is long."""
    if len(value) <= _SHOWN_CHARS:
        return repr(value)
    cut = value[:_SHOWN_CHARS].rsplit(" ", 1)[0].rstrip(" ,;:")
    return repr(cut + "…")


def insufficient_notes(envelopes: Iterable[Mapping[str, Any] | Envelope]) -> list[str]:
    """One note per insufficient or failed tool call, in call order, without repeats."""
    read = read_envelopes(envelopes)
    names = {item.id: item.title for env in read for item in env.results if item.title}
    notes: dict[str, None] = {}
    for env in read:
        note = lookup_note(env, names)
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

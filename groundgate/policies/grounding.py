"""Grounding: every claim maps to a source in the trace or a walked path, or it goes.

One revision pass at most: a claim whose citation is missing or wrong but whose words
are found in a retrieved passage is re-cited to that passage, provided the passage also
holds every name, id and value the claim states (a model's invented owner is not rescued
by a passage about the same record) and carries no instructions addressed to the model
(a planted document never rescues a claim). With a chat model configured, what is still
unsupported then goes to the model once (``nodes/revise.py``); its rewrites are checked
here again, without a second revision.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from groundgate.answer.model import Claim, GroundingReport
from groundgate.knowledge.model import Position
from groundgate.knowledge.text import content_terms, coverage, key_parts
from groundgate.policies.instructions import carries_instructions
from groundgate.tools.envelope import Envelope, read_envelopes

__all__ = ["Evidence", "GroundingVerdict", "evidence_from", "ground_claims", "own_names"]

SUPPORT = 0.5
"""Share of a claim's content words that a source must contain to support it (and every
number the claim states must be in the source too)."""


@dataclass(frozen=True)
class Evidence:
    """What the trace saw: texts by source id, known ids, walked paths."""

    texts: dict[str, str]
    """Source id to everything the trace showed of it."""
    aliases: dict[str, tuple[str, ...]]
    """Any id seen in the trace (entity, chunk, register entry) to the source ids behind it."""
    paths: tuple[tuple[str, ...], ...]
    """Walked paths as node names/ids."""
    titles: dict[str, str]
    """Source id to title."""


@dataclass(frozen=True)
class GroundingVerdict:
    """The grounded claims and the report of what was done."""

    claims: tuple[Claim, ...]
    report: GroundingReport


def evidence_from(envelopes: Iterable[Mapping[str, Any] | Envelope]) -> Evidence:
    """Collect texts, ids and paths from a run's envelopes."""
    texts: dict[str, list[str]] = {}
    aliases: dict[str, set[str]] = {}
    titles: dict[str, str] = {}
    paths: list[tuple[str, ...]] = []
    for env in read_envelopes(envelopes):
        if env.error:
            continue
        for item in env.results:
            sources = item.source_ids
            text = f"{item.title}. {item.snippet}"
            for sid in sources:
                texts.setdefault(sid, []).append(text)
                aliases.setdefault(sid, set()).add(sid)
                if env.tool in ("search_evidence", "get_source"):
                    titles.setdefault(sid, item.title.split(" › ")[0])
            aliases.setdefault(item.id, set()).update(sources or (item.id,))
            if item.path:
                nodes = item.path[0::2]
                paths.append(nodes)
                for node in nodes:
                    aliases.setdefault(node, set()).update(sources)
            for position in map(Position.model_validate, item.data.get("positions") or []):
                for sid in position.source_ids:
                    texts.setdefault(sid, []).append(position.statement)
                    aliases.setdefault(sid, set()).add(sid)
    return Evidence(
        texts={k: "\n".join(v) for k, v in texts.items()},
        aliases={k: tuple(sorted(v)) for k, v in aliases.items()},
        paths=tuple(paths),
        titles=titles,
    )


_ISO_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_NUMBER = re.compile(r"(?<![\w-])(?:\d[\d,.]*\d|\d)(?![\w-])")


def _numbers(text: str) -> set[str]:
    """The numbers a text states on their own, commas dropped ("GBP 1,000" -> "1000").

    Digits inside identifiers (CLM-1042, CTR-D-cdcc2f7f, 15-year) and ISO dates are not
    numbers here.
    """
    return {n.replace(",", "").rstrip(".") for n in _NUMBER.findall(_ISO_DATE.sub(" ", text))}


def _support(claim: str, text: str) -> float:
    """Share of the claim's words in the text; none when it states a number the text lacks."""
    terms = content_terms(claim)
    if not terms or not _numbers(claim) <= _numbers(text):
        return 0.0
    return coverage(terms, text)


_CODE = re.compile(r"(?<![\w-])(?=[A-Z][\w/-]*\d)[A-Z][A-Za-z0-9]*(?:[-_/][A-Za-z0-9]+)*")
"""An identifier or code: CLM-1108, DR-021, INS-SYN-003, H3, UW-7."""
_NAME = re.compile(r"[A-Z][\w&'.-]*(?:\s+(?:(?:of|and|for|the|&)\s+)?[A-Z][\w&'.-]*)*")
"""A run of capitalised words: "Claims Technical Committee", "Organization A"."""
_NOT_NAMES = frozenset(
    "the a an this that these those it its their our his her i in on at by for of and or but if when "
    "january february march april may june july august september october november december "
    "monday tuesday wednesday thursday friday saturday sunday".split()
)


def own_names(claim: str) -> list[str]:
    """What a claim names and dates: capitalised names, ids and codes, ISO dates.

    A lone capitalised word opening the sentence ("Trace-and-access costs ...") is not a
    name; a leading article is dropped ("The Claims Technical Committee").
    """
    found = [m.group(0) for m in _CODE.finditer(claim)] + _ISO_DATE.findall(claim)
    for match in _NAME.finditer(claim):
        words = match.group(0).rstrip(".").split()
        while words and words[0].lower() in _NOT_NAMES:
            words = words[1:]
        opening = not claim[: match.start()].strip(" \"'“‘([")
        if not words or (opening and len(words) == 1 and words == match.group(0).split()):
            continue
        if all(w.lower() in _NOT_NAMES or _CODE.fullmatch(w) for w in words):
            continue
        found.extend(part for part in " ".join(words).split(" and ") if part)
    return list(dict.fromkeys(found))


def _words(text: str) -> str:
    return " " + " ".join(key_parts(text)) + " "


def _names_held(claim: str, text: str) -> bool:
    """Whether a passage holds every name, id and date the claim states (numbers: ``_support``)."""
    words = _words(text)
    return all(_words(name) in words for name in own_names(claim) if key_parts(name))


def _best_source(claim: str, evidence: Evidence) -> tuple[str | None, float]:
    """The passage to re-cite an unsupported claim to.

    It holds the claim's words, names and values, and no instructions addressed to the model.
    """
    best, score = None, 0.0
    for sid, text in sorted(evidence.texts.items()):
        if not _names_held(claim, text) or carries_instructions(text):
            continue
        value = _support(claim, text)
        if value > score:
            best, score = sid, value
    return best, score


def ground_claims(
    claims: Iterable[Claim], evidence: Evidence, *, mode: Literal["remove", "flag"] = "remove",
    recite: bool = True,
) -> GroundingVerdict:
    """Map each claim to sources in the trace; re-cite once; flag or remove the rest.

    ``recite=False`` checks without the re-citing pass (for claims already revised once).
    """
    out: list[Claim] = []
    removed_citations: list[str] = []
    revised = False
    counts = {"grounded": 0, "flagged": 0, "removed": 0}
    for claim in claims:
        valid: list[str] = []
        for cited in claim.citations:
            key = cited.split("#", 1)[0] if cited not in evidence.aliases else cited
            if key in evidence.aliases:
                valid.extend(s for s in evidence.aliases[key] if s in evidence.texts)
            else:
                removed_citations.append(cited)
        valid = list(dict.fromkeys(valid))
        supported = [s for s in valid if _support(claim.text, evidence.texts[s]) >= SUPPORT]
        if supported:
            out.append(_grounded(claim, tuple(supported), "citation"))
            counts["grounded"] += 1
            continue
        best, score = _best_source(claim.text, evidence) if recite else (None, 0.0)
        if best is not None and score >= SUPPORT:
            revised = True
            note = "re-cited to the passage that supports it"
            out.append(_grounded(claim, (best,), "passage", note))
            counts["grounded"] += 1
            continue
        if _on_walked_path(claim.text, evidence):
            sources = tuple(valid)
            out.append(_grounded(claim, sources, "path"))
            counts["grounded"] += 1
            continue
        status = "flagged" if mode == "flag" else "removed"
        counts[status] += 1
        out.append(claim.model_copy(
            update={"status": status, "grounded_by": "none", "note": "no source in the trace supports this"}
        ))
    report = GroundingReport(
        grounded=counts["grounded"], flagged=counts["flagged"], removed=counts["removed"],
        removed_citations=tuple(dict.fromkeys(removed_citations)), revised=revised,
    )
    return GroundingVerdict(claims=tuple(out), report=report)


def _grounded(
    claim: Claim, citations: tuple[str, ...], by: Literal["citation", "passage", "path"],
    note: str | None = None,
) -> Claim:
    update: dict[str, Any] = {"citations": citations, "status": "grounded", "grounded_by": by}
    if note:
        update["note"] = note
    return claim.model_copy(update=update)


def _on_walked_path(text: str, evidence: Evidence) -> bool:
    lowered = text.lower()
    for nodes in evidence.paths:
        named = [n for n in nodes if n.split(":", 1)[-1].lower() in lowered]
        if len(named) >= 2:
            return True
    return False

"""G2: whether a sentence the answer shows takes a side on an entry that applies.

Against an entry the question turns on, any talk of the disagreement, of its being
settled, of one source ranked over another or of what the positions argue over takes a
side, as do a yes/no verdict, a paraphrase of one position (in its words, or in others as
the run's detector reads them) and a sentence resting only on one position's sources.
Against an entry only the answer speaks to, a sentence must be about the entry itself.
``docs/gate.md`` gives the rules with examples.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from groundgate.answer.model import Claim
from groundgate.knowledge.model import Contradiction, Position
from groundgate.knowledge.text import content_terms, coverage, key_parts, stem, stems, term_covered
from groundgate.policies.trace import Register
from groundgate.policies.wording import (
    DISPUTE_TALK,
    PRECEDENCE,
    SETTLED,
    SETTLED_WHAT,
    about_entry,
    asks_for_verdict,
    disputed_axis,
    names_in,
    restates,
    term_stems,
)

__all__ = ["takes_side"]

VERDICT_RESTATED = 0.5
"""Share of what a yes/no question asks beyond the topic a sentence must restate to answer it."""
DISTINCT_TERMS = 3
"""Words found in one position and no other (its sources' names aside) that mark a sentence as
that position's paraphrase; one is enough in a sentence that names the position's source."""

_LEAD = re.compile(
    r"^(?:(?:so|in short|in brief|overall|simply put|basically|short answer|the answer is|"
    r"to answer your question|well)\s*(?:[,:—–-]\s*)?)*(?P<word>[a-z]+(?:\s(?:at\sall|course))?)\b", re.I,
)
"""A sentence's opening word after fillers ("In short, yes"); each filler is read one way only."""
_VERDICT_WORDS = frozenset(
    "yes no yeah yep nope correct incorrect true false right wrong indeed absolutely certainly "
    "definitely sure naturally affirmative negative".split()
) | {"not at all", "of course"}


def _verdict_lead(sentence: str) -> str | None:
    """Why a sentence opens with a verdict ("Yes.", "In short, no:"); ``None`` when it does not."""
    lead = _LEAD.match(sentence.strip(" \"'“(["))
    if lead and lead.group("word").lower() in _VERDICT_WORDS:
        return f"it opens with a verdict ({lead.group('word')})"
    if re.search(r"\bthe answer is (?:yes|no)\b", sentence, re.I):
        return "it gives a verdict"
    return None


def _verdict(sentence: str, question: str, entry: Contradiction) -> str | None:
    """Why a sentence answers the yes/no question itself; ``None`` when it does not."""
    topic = stems(entry.topic)
    asked = [t for t in content_terms(question) if not term_covered(t, topic)]
    if asked and coverage(asked, sentence) >= VERDICT_RESTATED:
        return "it restates what the yes/no question asks"
    own = content_terms(sentence)
    asked_all = content_terms(question)
    if coverage(asked_all, sentence) >= VERDICT_RESTATED and coverage(own, question) >= VERDICT_RESTATED:
        return "it restates the yes/no question's proposition"  # and says little else: an answer to it
    if not own or all(term_covered(t, stems(question) | topic) for t in own):
        return "it only echoes the yes/no question"
    return None


_CAPITALISED = re.compile(r"[A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*)+|\b[A-Z][A-Z0-9]+(?:-[A-Z0-9]+)*\b")
"""Runs of two or more capitalised words ("Home Plus"), and codes or acronyms ("CHG-04", "FAQ")."""
_ARTICLES = frozenset({"the", "a", "an", "our", "this", "that"})


def _source_names(position: Position, titles: Mapping[str, str]) -> tuple[set[str], list[str]]:
    """The words that name a position's sources, and the phrases by which a sentence names them.

    "The Home Plus policy wording covers ..." from "Harbourline Home Plus Policy Wording":
    the title's words and the statement's capitalised runs name the source; a sentence names
    it by a source id, a code or acronym ("CHG-04", "FAQ") or two capitalised words in a row.
    """
    texts = [position.statement, *(titles.get(s, "") for s in position.source_ids)]
    words = {stem(part) for text in texts[1:] for part in key_parts(text)}
    phrases = list(position.source_ids)
    for text in texts:
        for match in _CAPITALISED.finditer(text):
            run = [w for w in match.group(0).split() if w.lower() not in _ARTICLES]
            words.update(stem(p) for w in run for p in key_parts(w))
            if len(run) == 1 and (any(c.isdigit() for c in run[0]) or run[0].isupper()):
                phrases.append(run[0])
            phrases.extend(" ".join(pair) for pair in zip(run, run[1:], strict=False))
    return words, phrases


def _distinct(entry: Contradiction, titles: Mapping[str, str]) -> list[tuple[set[str], list[str]]]:
    """Per position: the stems it uses and no other does, beyond its sources' names; and those names."""
    sets = [term_stems(p.statement) for p in entry.positions]
    out = []
    for i, (own, position) in enumerate(zip(sets, entry.positions, strict=True)):
        named, phrases = _source_names(position, titles)
        others = set().union(*(o for j, o in enumerate(sets) if j != i))
        out.append(({t for t in own - others if not {stem(p) for p in key_parts(t)} <= named}, phrases))
    return out


def _one_side(citations: Sequence[str], entry: Contradiction) -> int | None:
    """The position whose sources are all a sentence cites, if only one position's are."""
    if not citations:
        return None
    sides = [n for n, p in enumerate(entry.positions, start=1) if set(citations) <= set(p.source_ids)]
    return sides[0] if len(sides) == 1 else None


def takes_side(
    claim: Claim, entry: Contradiction, register: Register, question: str, bears: bool,
    *, stated: int | None = None,
) -> str | None:
    """Why a shown sentence takes a side on the entry (G2); ``None`` when it does not.

    On an entry the question turns on, the question gives the subject: any talk of the
    disagreement, of its being settled, or of what the positions argue over takes a side,
    as do a yes/no verdict, a paraphrase of one position, a sentence resting only on one
    position's sources, and one the run's detector reads as stating one position in other
    words (``stated``: its number, from ``Detector.sides``). On any other entry a sentence
    must be about the entry itself.
    """
    text = claim.text
    names = register.names_of(entry)
    about = about_entry(text, entry, names)
    if about and (about[1] or bears):
        return about[0]
    if why := restates(text, entry):
        return why
    axis = disputed_axis(entry) & term_stems(text)
    if axis and (bears or names_in(names, text)):
        return f"it speaks to what the positions argue over ({', '.join(sorted(axis))})"
    if not bears:
        return None
    if DISPUTE_TALK.search(text):
        return "it speaks of the disagreement, which only the gate presents"
    owner = [entry.owner] if entry.owner else []
    if SETTLED.search(text) and (SETTLED_WHAT.search(text) or names_in(owner, text)):
        return "it says the question is settled, which the register does not"
    if PRECEDENCE.search(text):
        return "it ranks one source over another, which settles what the register leaves open"
    if why := _verdict_lead(text):
        return why
    if asks_for_verdict(question) and (why := _verdict(text, question, entry)):
        return why
    own = term_stems(text)
    for number, (distinct, phrases) in enumerate(_distinct(entry, register.titles), start=1):
        said = len(distinct & own)
        if said >= DISTINCT_TERMS or (said and names_in(phrases, text)):
            return f"it paraphrases position {number}"
    side = _one_side(claim.citations, entry)
    if side is not None:
        return f"it rests only on the sources of position {side}"
    if stated is not None:
        return f"it states position {stated} in other words (the detector reads it so)"
    return None

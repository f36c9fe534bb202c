"""Who came before or after someone in a role: read from the words that say so.

"Who was mayor of Varnholm immediately before Lena Dovic?" is answered by a sentence
that says who preceded her ("Tomas Ferrant was mayor between 1998 and 2006, followed by
Lena Dovic"), not by one that only shares the question's words. The offline planner
answers such a question from a sentence of that shape, about the role or body asked
for, or says the sources do not tell.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from groundgate.knowledge.text import STOPWORDS, fold
from groundgate.reading.evidence import Sentence
from groundgate.reading.select import cite, cited_lines

__all__ = ["Succession", "answer_succession", "succession_of"]

_NAME = r"[A-Z][\w'’\-]*(?:\s+(?:(?:de|van|von|of)\s+)?[A-Z][\w'’\-]*)*"
_QUESTIONS = (
    # Who was mayor of Varnholm immediately before Lena Dovic?
    re.compile(rf"^\s*(?i:who)\s+(?:was|is|were)\s+(?:the\s+)?(?P<scope>[^?]*?)\s+(?:immediately\s+|just\s+)?"
               rf"(?P<rel>before|after)\s+(?P<name>{_NAME})\s*\??\s*$"),
    # Who coached Castelbrook Rovers before Piet Anholt?
    re.compile(rf"^\s*(?i:who)\s+(?P<scope>\w+\s+[^?]*?)\s+(?:immediately\s+|just\s+)?(?P<rel>before|after)\s+"
               rf"(?P<name>{_NAME})\s*\??\s*$"),
    # Who succeeded Nadia Ferrant as head coach of Castelbrook Rovers?
    re.compile(rf"^\s*(?i:who)\s+(?P<rel>succeeded|replaced|followed|preceded)\s+(?P<name>{_NAME})"
               rf"(?:\s+as\s+(?P<scope>[^?]+?))?\s*\??\s*$"),
)
_AFTER = r"(?:was succeeded by|was replaced by|was followed by|followed by|handed over to|gave way to)"
_BEFORE = (r"(?:succeeded(?!\s+by)|replaced(?!\s+by)|took over from|followed(?!\s+by)|succeeding|"
           r"replacing|taking over from)")
_PRONOUN = re.compile(r"^(?:he|she|they)$", re.I)
_SCOPE_STOP = frozenset("the a an of in at as for was is were did does do who".split())


@dataclass(frozen=True)
class Succession:
    """A question about who held a role before or after ``name``."""

    name: str
    earlier: bool
    """True for the predecessor ("before", "preceded"), False for the successor."""
    scope: tuple[str, ...]
    """Words of the role or body asked about ("mayor", "varnholm")."""
    bodies: tuple[str, ...] = ()
    """Its named words ("varnholm"): a sentence about another body is about another role."""


def succession_of(question: str) -> Succession | None:
    """The succession a question asks about, or ``None``."""
    for pattern in _QUESTIONS:
        match = pattern.match(question)
        if match:
            rel = match.group("rel").lower()
            scope = match.group("scope") or ""
            words = tuple(w for w in re.findall(r"[a-z]+", fold(scope).lower()) if w not in _SCOPE_STOP)
            bodies = tuple(fold(w).lower() for w in re.findall(r"\b[A-Z][\w'’\-]+", scope))
            return Succession(match.group("name"), rel in ("before", "preceded"), words, bodies)
    return None


_PREPOSITION = re.compile(r"\b(?:to|at|in|of|from|for|with|by|on|into|under)\s+(?:the\s+)?$")


def _subject_before(text: str) -> str | None:
    """The verb's subject: the last name or he/she/they in ``text`` not after a preposition.

    "In 2013 he returned to Castelbrook Rovers, taking over from ...": "he", not the club.
    """
    found = [
        m.group(0) for m in re.finditer(rf"{_NAME}|\b(?:[Hh]e|[Ss]he|[Tt]hey)\b", text)
        if (m.group(0).split()[0].lower() not in STOPWORDS or _PRONOUN.match(m.group(0)))
        and not _PREPOSITION.search(text[: m.start()])
    ]
    return found[-1] if found else None


def _other(sentence: Sentence, s: Succession) -> str | None:
    """The person the sentence names before or after ``s.name``, if it says so."""
    *given, last = s.name.split()
    # the full name, or the surname alone ("Quint was dismissed ... and was replaced by")
    name = rf"(?:{re.escape(' '.join(given))}\s+)?{re.escape(last)}" if given else re.escape(last)
    after_verb, before_verb = (_BEFORE, _AFTER) if s.earlier else (_AFTER, _BEFORE)
    # X succeeded Z (Z before X) / X ..., followed by Z (Z after X): Z comes after the verb
    match = re.search(rf"{name}\b[^.]*?\b{after_verb}\s+(?:\w+,?\s+){{0,3}}?(?P<z>{_NAME})",
                      sentence.text)
    if match:
        return match.group("z")
    # Z ..., followed by X (Z before X) / Z succeeded X (Z after X): Z is the verb's subject
    match = re.search(rf"\b{before_verb}\s+(?:\w+,?\s+){{0,3}}?{name}", sentence.text)
    if match:
        other = _subject_before(sentence.text[: match.start()])
        if other:
            return sentence.title if _PRONOUN.match(other) else other
    return None


def answer_succession(s: Succession, pool: list[Sentence]) -> list[str]:
    """Cited lines naming who came before or after, about the scope asked; empty if none."""
    for sentence in pool:
        about = fold(f"{sentence.title} {sentence.lead} {sentence.text}").lower()
        if s.scope and not any(w in about for w in s.scope):
            continue
        if not all(b in about for b in s.bodies):
            continue  # "succeeded Nadia Ferrant as head coach" of another club
        other = _other(sentence, s)
        if other and fold(other).lower() != fold(s.name).lower():
            if other == sentence.title and sentence.title not in sentence.text:
                # "she succeeded Lena Dovic" in Ingrid Salo's article: say who "she" is
                return [cite(f"{sentence.title}: {sentence.text}", sentence.sources)]
            return cited_lines(sentence)
    return []

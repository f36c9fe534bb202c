"""Small text utilities shared by search, resolution and the planner: tokens, stopwords."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

__all__ = [
    "STOPWORDS",
    "content_terms",
    "coverage",
    "fold",
    "key_parts",
    "normalise",
    "stem",
    "stems",
    "term_covered",
    "tokens",
]

STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers herself him himself his how i if in into is it
    its itself just me more most my myself no nor not now of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself yourselves
    also may might must shall us was were any whether does tell please give show list
    say says said state states stated according
    don doesn didn isn aren wasn weren hasn haven hadn couldn wouldn shouldn mustn
    """.split()
)
"""English function words dropped from keyword queries (negations are kept by callers
that need them, e.g. the contradiction detector)."""

# Letters and digits of any script ("Zürich", "Kraków" are one word each); for ASCII text,
# the same tokens as [A-Za-z0-9][A-Za-z0-9_.-]*[A-Za-z0-9].
_TOKEN = re.compile(r"[^\W_](?:[\w\-.]*[^\W_])?")
_PART = re.compile(r"[^\W_]+")
# The same on ASCII text, half again as fast (most text is ASCII; ingest tokenises all of it).
_ASCII_TOKEN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9_\-.]*[A-Za-z0-9])?")
_ASCII_PART = re.compile(r"[a-z0-9]+")


def fold(text: str) -> str:
    """``text`` without accents (``Zürich`` -> ``Zurich``), as FTS5 folds what it indexes.

    Comparison keys are made from folded text, so a question spelt without accents meets
    a source spelt with them. Letters without a decomposition (``ø``, ``ß``) stay.
    """
    if text.isascii():
        return text
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def key_parts(text: str) -> list[str]:
    """The lowercased, accent-folded alphanumeric parts of ``text`` (ids split on hyphens)."""
    if text.isascii():
        return _ASCII_PART.findall(text.lower())
    return _PART.findall(fold(text).lower())


def normalise(text: str) -> str:
    """Lowercase and fold runs of whitespace."""
    return " ".join(text.lower().split())


def tokens(text: str) -> list[str]:
    """Lowercased word tokens; hyphenated ids like ``CLM-1108`` stay whole.

    Accents are kept: FTS5 folds them itself, and a token is shown back to users.
    """
    return [t.lower().strip(".") for t in (_ASCII_TOKEN if text.isascii() else _TOKEN).findall(text)]


def content_terms(text: str, limit: int | None = None) -> list[str]:
    """Distinct non-stopword tokens in order of first appearance, at most ``limit``."""
    seen: dict[str, None] = {}
    for token in tokens(text):
        if token in STOPWORDS or len(token) < 2 and not token.isdigit():
            continue
        seen.setdefault(token, None)
        if limit is not None and len(seen) >= limit:
            break
    return list(seen)


@lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """A light suffix stripper, enough to match ``costs``/``cost``, ``included``/``include``."""
    for suffix in ("ingly", "edly", "ing", "ies", "ied", "es", "ed", "ly", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix in ("ies", "ied"):
                return word[: -len(suffix)] + "y"
            return word[: -len(suffix)]
    if word.endswith("e") and len(word) >= 4 and word[-2] not in "aeiou":
        return word[:-1]  # "include" and "included" meet at "includ"
    return word


def stems(text: str) -> set[str]:
    """Stemmed alphanumeric parts of ``text`` (ids split on hyphens)."""
    return {stem(part) for part in key_parts(text)}


def term_covered(term: str, text_stems: set[str]) -> bool:
    """Whether every alphanumeric part of ``term`` occurs (stemmed) in ``text_stems``."""
    parts = [stem(p) for p in key_parts(term)]
    return bool(parts) and all(p in text_stems for p in parts)


def coverage(terms: list[str], text: str) -> float:
    """Fraction of ``terms`` found in ``text``; 0.0 when there are no terms."""
    if not terms:
        return 0.0
    text_stems = stems(text)
    return sum(term_covered(t, text_stems) for t in terms) / len(terms)

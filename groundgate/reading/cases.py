"""Another case of the same thing: "the rent for a full plot" does not give a starter plot's.

A question often names its case by the word before the thing it asks about ("for a
*starter* plot", "at *Gannet* Ward"). A sentence that speaks of that thing only under
other such words ("a *full* plot and a *half* plot", "*Kittiwake* Ward"), and nowhere uses
the question's word, gives the value for another case. No word list: the comparison is of
words next to each other, in the question and in the sentence, at the start of a phrase
(after a function word or a punctuation mark); a word followed by "the" or "a" is taken
for a verb, not a thing.
"""

from __future__ import annotations

import re

from groundgate.knowledge.text import STOPWORDS, fold
from groundgate.reading.question import TYPE_WORDS
from groundgate.reading.slot import DETERMINERS
from groundgate.reading.text import negated, term_key

__all__ = ["denied_case", "other_case", "sets_aside", "word_keys"]

_SEGMENT = re.compile(r"[^,;:.!?()\[\]\"“”—–|]+")
_WORD = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_POSSESSIVE = re.compile(r"['’]s\b")
_OPENERS = STOPWORDS | {"how", "what", "which", "who", "many", "much"}


def _segments(text: str) -> list[list[str]]:
    """Lowercased words, in runs that no punctuation mark breaks."""
    plain = _POSSESSIVE.sub("", fold(text).lower())
    return [_WORD.findall(part) for part in _SEGMENT.findall(plain)]


def _thing(word: str) -> bool:
    return word not in _OPENERS and word not in TYPE_WORDS and not word[:1].isdigit()


def _pairs(question: str) -> list[tuple[str, str]]:
    """The question's (qualifier, thing) pairs that open a phrase and are not verb and object."""
    found = []
    for words in _segments(question):
        for i in range(len(words) - 1):
            a, b = words[i], words[i + 1]
            after = words[i + 2] if i + 2 < len(words) else ""
            if (_thing(a) and _thing(b) and (i == 0 or words[i - 1] in _OPENERS)
                    and after not in DETERMINERS):
                found.append((a, b))
    return found


def word_keys(text: str) -> frozenset[str]:
    """The comparison keys of a text's words, as :func:`other_case` reads them."""
    return frozenset(term_key(w) for words in _segments(text) for w in words)


def _name_pairs(mentions: tuple[str, ...]) -> list[tuple[str, str]]:
    """(thing, qualifier) inside the question's names: "AeroSense *Two*", "Ward *7*"."""
    return [(words[i], words[i + 1]) for m in mentions for words in _segments(m)
            for i in range(len(words) - 1)]


def other_case(question: str, mentions: tuple[str, ...], sentence: str, context: str,
               known: frozenset[str]) -> str | None:
    """The question's qualified thing when the sentence speaks only of other cases of it.

    ``context`` is what else names the sentence's subject (its heading, title, lead); the
    question's qualifier there means the sentence is about the asked case after all.
    ``known`` is every word key of the retrieved text: the qualifier must be one, so the
    sources themselves tell that case apart ("a ninth shop is under consideration" beside
    "its eighth shop"); a qualifier no source uses may be the question's word for the
    sentence's ("withheld" for "recoverable" depreciation). Inside a name the qualifier
    may come after the thing: "the AeroSense One" is another product than "the AeroSense
    Two" even in a sentence that says "two AA batteries".
    Returns the question's words (``"starter plot"``) or ``None``.
    """
    runs = [[term_key(w) for w in words] for words in _segments(sentence)]
    said = {k for run in runs for k in run} | word_keys(context)
    for a, b in _pairs(question):
        qualifier, thing = term_key(a), term_key(b)
        if qualifier in said or qualifier not in known:
            continue
        before = [run[i - 1] if i > 0 else "" for run in runs for i, k in enumerate(run) if k == thing]
        # every mention of the thing has a word of its own before it
        if before and all(w and _thing(w) for w in before):
            return f"{a} {b}"
    for a, b in _name_pairs(mentions):
        thing, qualifier = term_key(a), term_key(b)
        if qualifier not in known or qualifier in word_keys(context):
            continue
        after = [run[i + 1] if i + 1 < len(run) else "" for run in runs for i, k in enumerate(run)
                 if k == thing]
        if after and all(w and w != qualifier and _thing(w) for w in after):
            return f"{a} {b}"
    return None


_EXCEPTED = re.compile(r"\b(?:unless|except|excluding|other than)\s+((?:[a-z0-9]+\s+){0,5}[a-z0-9]+)")
_DENIED = re.compile(r"\b(?:not|no|never|without|non)\b[\s-]+((?:[a-z0-9]+\s+){0,2}[a-z0-9]+)")


def sets_aside(question: str, text: str) -> str | None:
    """The exception in ``text`` that is the question's own case, or ``None``.

    "kept for 31 days, unless needed for an investigation" sets aside the case of "how
    long when needed for an investigation?": every word of its exception is the question's.
    """
    asked: frozenset[str] | None = None  # keyed only for a text that makes an exception
    for match in _EXCEPTED.finditer(fold(text).lower()):
        words = {term_key(w) for w in match.group(1).split() if _thing(w)}
        asked = word_keys(question) if asked is None else asked
        if len(words) >= 2 and words <= asked:  # one shared word ("except colleagues") is no case
            return match.group(0)
    return None


def denied_case(question: str, sentences: list[tuple[str, str]]) -> str | None:
    """The case a question denies, when the sentences speak of it only without a denial.

    "a car *without a permit*" is not answered by "a permit holder may stay 72 hours", nor
    "applications kept when the post is *never filled*" by "6 months after the post is
    filled": they speak of the case the question rules out. ``sentences`` are the answer's
    (sentence, context) pairs; those that never use the denied words do not count either
    way. The other way round, sentences that each give their value "unless" (or "except",
    "other than") the very case the question asks about (:func:`sets_aside`) give the value
    of other cases. Returns the reason, in a person's words, or ``None``.
    """
    lowered = fold(question).lower()
    for match in _DENIED.finditer(lowered):
        words = {term_key(w) for w in match.group(1).split() if _thing(w)}
        about = [text for text, context in sentences if words & word_keys(f"{text} {context}")]
        if about and not any(negated(text) or _DENIED.search(fold(text).lower()) for text in about):
            return f"the retrieved passages speak only of the case the question rules out ({match.group(0)})"
    if _DENIED.search(lowered) or not sentences:
        return None
    aside = [sets_aside(question, text) for text, _ in sentences]
    if all(aside):
        return f"the retrieved passages give it only for other cases ({aside[0]})"
    return None

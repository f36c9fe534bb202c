"""Reading a judge's reply: the JSON a small model writes, and the answers a passage bears out.

``reply`` finds the JSON object in a reply however a small model wrote it (fenced, with
bare keys, ``True``, a brace too many). ``borne_out`` keeps a model's answer only when its
passage bears it out (the model's words are never a finding), ``same_answer`` groups
answers, and ``exclusive`` says when answers cannot both be true whatever the model said.
"""

from __future__ import annotations

import ast
import html
import json
import re
from collections.abc import Sequence
from typing import Any

from groundgate.knowledge.ingest.extract import sentences
from groundgate.knowledge.text import content_terms, coverage, stems, term_covered
from groundgate.policies.detectors.contrast import overlaps as _overlaps
from groundgate.policies.detectors.contrast import periods
from groundgate.policies.stated import question_names
from groundgate.reading.text import MONTHS, has_value

__all__ = [
    "QUOTE_HELD",
    "answers_kind",
    "borne_out",
    "comparable",
    "exclusive",
    "holds_quote",
    "nearest",
    "normal",
    "polar",
    "reply",
    "same_answer",
    "value_kind",
]


_JSON = re.compile(r"\{.*\}", re.S)
_BARE_VALUE = re.compile(r"(\b(?:answer|quote)['\"]?\s*:\s*)(?![\s\"'{\[])([^,}]+)")
"""``answer: Meadowgate Borough Council``: a value a small model left unquoted."""


def reply(text: str) -> dict[str, Any] | None:
    """The JSON object of a reply (alone, fenced, or with words around it), or ``None``.

    Small models write JSON as a script would: ``{1: {answer: 'yes'}}``, HTML-escaped
    quotes, ``True``, a brace too many at the end. Such a reply is read as the object it
    plainly means; anything else (a reply cut off by the token limit, prose) is ``None``.
    """
    match = _JSON.search(html.unescape(text or ""))
    if not match:
        return None
    found = _BARE_VALUE.sub(lambda m: m.group(1) + json.dumps(m.group(2).strip()), match.group(0))
    # "{...}}": the object, then braces that close nothing
    candidates = [found, *(found[:-k] for k in (1, 2) if found.endswith("}" * (k + 1)))]
    return next((value for value in map(_parsed, candidates) if value is not None), None)


def _parsed(text: str) -> dict[str, Any] | None:
    try:
        value = json.loads(text)
    except ValueError:
        try:
            value = ast.literal_eval(_as_python(text))
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            return None
    return value if isinstance(value, dict) else None


_LITERALS = {"true": "True", "false": "False", "null": "None"}


def _as_python(text: str) -> str:
    """A JavaScript-style object literal as a Python one: bare keys quoted, true/false/null spelt."""
    out: list[str] = []
    index, quote = 0, ""
    while index < len(text):
        char = text[index]
        if quote:
            out.append(char)
            if char == "\\" and index + 1 < len(text):
                out.append(text[index + 1])
                index += 1
            elif char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
            out.append(char)
        elif char.isalpha() or char == "_":
            end = index
            while end < len(text) and (text[end].isalnum() or text[end] == "_"):
                end += 1
            word = text[index:end]
            rest = text[end:].lstrip()
            out.append(repr(word) if rest.startswith(":") else _LITERALS.get(word, word))
            index = end
            continue
        else:
            out.append(char)
        index += 1
    return "".join(out)



def nearest(text: str | Sequence[str], answer: str) -> str:
    """The sentence of ``text`` (or the statement of a list) that shares most words with the answer."""
    terms = content_terms(answer)
    found = (sentences(text) or [text]) if isinstance(text, str) else (list(text) or [""])
    return max(found, key=lambda s: coverage(terms, s)) if terms else found[0]


_UNSTATED = frozenset({"not stated", "not mentioned", "unknown", "none", "n/a", "not given", "no answer"})
_ARTICLE = re.compile(r"^(?:the|a|an)\s+")


def exclusive(answers: list[str]) -> bool:
    """Answers that cannot both be true whatever the model concluded: a yes and a no, periods apart.

    The model's own answers are what it read; a conflict between "yes" and "no", or between
    "the eighteen-nineties" and "just after the Second World War", needs no second opinion.
    Names are left to the model: "the Kestrel Valley Trust" and "the county council" can
    both be true (one manages the park for the other).
    """
    signs = [polar(a) for a in answers]
    if all(signs) and len(set(signs)) > 1:
        return True
    found = [periods(a) for a in answers]
    return all(found) and not any(
        _overlaps(found[i], found[j]) for i in range(len(found)) for j in range(i + 1, len(found))
    )


QUOTE_HELD = 0.6
"""Share of a quote's words its passage must hold for the model's answer to count."""


SENTENCE_ASKED = 0.4
"""Share of the question's asked words the sentence around a yes or no quote must hold when
the quote holds none of them (dev splits: the implicit noes of disputes d11 and accounts
a18 hold 1.0 and 0.5; a 2024 report read as "no, it did not sell out" in 2025, 0.33)."""


def holds_quote(quote: str, passage: str) -> bool:
    """Whether the passage holds the model's quote (most of its words; a quote may be trimmed)."""
    terms = content_terms(quote)
    return bool(terms) and coverage(terms, passage) >= QUOTE_HELD


def borne_out(answer: Any, index: int, quoted: list[str], question: str) -> tuple[int, str, str] | None:
    """(passage, answer, its words in the passage) when a passage holds what the model read.

    The model's words are never a finding; an answer counts only when a passage bears it
    out. A quote ``{"answer": ..., "quote": ...}`` belongs to the passage that holds it,
    whatever number the model gave (small models miscount). Then:

    - a yes or a no needs a quote that speaks of what is asked (a word of the question
      beyond the names it gives: "dogs" for "Are dogs allowed on the Hollin Ridge trail?"),
      or, the quote being cut short, a sentence around it that holds ``SENTENCE_ASKED`` of
      those words;
    - a name ("Northfell Conservation Society") must be in the passage, and in the words
      the model quotes for it when it quotes any (a period in words may sit in the
      sentence beside its quote);
    - anything else (a date, a period, an amount, a thing) must be in the passage, and,
      unless it is a period in words, its sentence must speak of what is asked ("a
      fortnight in the fridge" is no answer to how long a cheese is matured, nor
      "November" from a bonfire rule to when rent invoices are sent).
    """
    if isinstance(answer, dict):
        said, quote = normal(answer.get("answer")), str(answer.get("quote") or "")
    else:
        said, quote = normal(answer), ""
    if not said or said in _UNSTATED:
        return None
    if quote:
        holder = next((i for i in (index, *range(len(quoted))) if holds_quote(quote, quoted[i])), None)
    else:
        holder = index
    if holder is None:
        return None
    named = {w for name in question_names(question) for w in content_terms(name)}
    asked = [t for t in content_terms(question) if t not in named]
    if polar(said):
        if not (quote and asked):
            return None
        # the quote is at most ten words, often cut from its sentence ("a vegetable coagulant
        # is used in every batch" of "The cheese contains no animal rennet; a vegetable ..."):
        # then the sentence that holds it must speak of most of what is asked
        spoken = nearest(quoted[holder], quote)
        held = coverage(asked, quote) > 0 or coverage(asked, spoken) >= SENTENCE_ASKED
        return (holder, said, quote) if held else None
    terms = content_terms(said)
    sentence = nearest(quoted[holder], said)
    if not terms or 2 * sum(term_covered(t, stems(quoted[holder])) for t in terms) < len(terms):
        return None
    if quote and not periods(said) and 2 * sum(term_covered(t, stems(quote)) for t in terms) < len(terms):
        # the words it quotes must say its answer: "Wrenmouth" quoted for "Caddon Cross",
        # a row's "Chief Executive" for the holder's name, are an answer read from elsewhere
        return None
    raw = str(answer.get("answer") if isinstance(answer, dict) else answer)
    spelled = bool(periods(said)) and not any(ch.isdigit() for ch in said)
    if spelled or (raw[:1].isupper() and not _dated(said)):
        # a name, or a period in words ("the eighteen-sixties", often quoted from the
        # sentence beside it); a date ("1971", "November") is a value like any other,
        # whose sentence must speak of what is asked
        return holder, said, quote or sentence
    about = f"{quote} {sentence}"
    return (holder, said, quote or sentence) if asked and coverage(asked, about) > 0 else None



def _dated(answer: str) -> bool:
    """Whether an answer is a date written with a month name ("november", "1 october 2025")."""
    words = answer.split()
    return any(w in MONTHS for w in words) and all(w in MONTHS or w.isdigit() for w in words)


def polar(answer: str) -> str | None:
    """``yes`` or ``no`` when the answer opens with one ("no, never", "not allowed"), else ``None``."""
    first = answer.split()[0] if answer.split() else ""
    if first in ("yes", "yeah", "true"):
        return "yes"
    if first in ("no", "not", "never", "none", "cannot", "can't", "false"):
        return "no"
    return None


def normal(answer: Any) -> str:
    """An answer in one spelling: lower case, no punctuation or leading article."""
    text = re.sub(r"[^\w\s&'-]", " ", str(answer if answer is not None else "")).lower()
    return _ARTICLE.sub("", " ".join(text.split()))


def same_answer(left: str, right: str) -> bool:
    """Two answers are one when they are equal, one holds the other, or they share most words.

    "yes" and "yes, on a lead" are one; "yes" and "no" are two; "the Kestrel Valley Trust"
    and "Kestrel Valley Trust" are one.
    """
    if left == right:
        return True
    a, b = polar(left), polar(right)
    if a or b:
        return a == b or not (a and b)  # a yes beside a bare phrase is not read as a conflict
    if left in right or right in left:
        return True
    words_a, words_b = set(left.split()), set(right.split())
    return len(words_a & words_b) * 2 > min(len(words_a), len(words_b))


_KINDS = ("money", "percent", "length", "duration", "date")
"""The kinds of value an answer can be, most specific first; ``number`` is what is left."""


def value_kind(answer: str) -> str | None:
    """The kind of value an answer is (``money``, ``duration``, ``date`` ...), or ``None`` for words.

    A period in words ("the eighteen-sixties") is a date; an answer in words that names no
    value ("the parish council", "late September") has no kind, and is never ruled out by
    one.
    """
    if periods(answer):
        return "date"
    kind = next((k for k in _KINDS if has_value(answer, k)), None)
    return kind or ("number" if has_value(answer, "number") else None)


def comparable(kinds: Sequence[str | None]) -> list[bool]:
    """For each answer, whether another answer could be the same kind of thing.

    "£400" and "27 days" are answers to two questions, not two answers to one: an answer of
    a known kind is kept beside another of that kind, or beside one whose kind is unknown.
    """
    return [
        kind is None or any(other is None or other == kind for j, other in enumerate(kinds) if j != i)
        for i, kind in enumerate(kinds)
    ]


_ANSWERS_TO: dict[str, frozenset[str | None]] = {
    "date": frozenset({"date", None}),
    "duration": frozenset({"duration", "date", None}),
    "money": frozenset({"money", "number", None}),
    "percent": frozenset({"percent", "number", None}),
    "length": frozenset({"length", "number", None}),
    "name": frozenset({None}),
}
"""The kinds of answer that can answer each kind of question; a kind not listed takes any."""


def answers_kind(asked: str, kind: str | None) -> bool:
    """Whether an answer of ``kind`` can answer a question asking for ``asked``.

    "6 years after the tenancy ends" is no date, and "90 days" is no place: the judge had
    read the passage's nearest value as its answer.
    """
    allowed = _ANSWERS_TO.get(asked)
    return allowed is None or kind in allowed

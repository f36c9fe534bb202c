"""When the offline planner must answer INSUFFICIENT, and why.

What was retrieved must cover the question's words, state the kind of value each part of
the question asks for (about the question's own subject), name the thing a ``which``
question asks about, and not only estimate what the question wants exactly; a source
saying the thing has not happened settles it too. The subject and the asked detail must
meet in one sentence (or its heading or title): a sentence naming the subject and another
giving the detail for something else do not answer together.
"""

from __future__ import annotations

import re

from groundgate.knowledge.text import key_parts
from groundgate.reading.cases import denied_case, other_case, word_keys
from groundgate.reading.polarity import details
from groundgate.reading.question import Question, clauses
from groundgate.reading.rows import unbound_row
from groundgate.reading.score import (
    VALUE_KINDS,
    Scored,
    Scoring,
    coverage_of,
    off_subject,
    typed,
    year_fit,
)
from groundgate.reading.text import GIVEN_NUMBER, MONTHS, find_years, low, norm_stems, term_key

__all__ = ["insufficiency"]

_HEDGES = re.compile(
    r"\b(approximately|approx|about|around|roughly|estimated?|estimates|unknown|not known|"
    r"does not know|do not know|not confirmed|unconfirmed|circa|likely|probably)\b|"
    r"\b\d+\s?[-–]\s?\d+\b",
    re.IGNORECASE,
)
_ABSENT = r"(?:no|not|never|without|nor)\s+(?:\w+\s+){0,2}"
_KIND_WORDS = {"money": "amount", "percent": "percentage", "time": "time of day"}
"""How a person names a kind of value (``Question.asks``) in a reason."""


def _when_word(word: str) -> bool:
    """A number or a month name: what dates a question's subject, not what it is."""
    return word[:1].isdigit() or word in _MONTH_WORDS


_MONTH_WORDS = {*MONTHS, *(m[:3] for m in MONTHS), "sept"}
"""Month names as a question writes them ("October", "Oct"): not "market" or "junior"."""


def _head_word(q: Question) -> str:
    """The question's own word for its head noun (``analysis``, not the key ``analysi``)."""
    if not q.head:
        return ""
    return next((w for w in q.terms if term_key(w) == q.head[0]), q.head[0])


def _asked_for(q: Question) -> str:
    """What a question without a head noun asks for, in a person's words.

    Not its first uncovered word: for "Who pays the shipping costs?" that is a verb
    ("no retrieved passage names the pays").
    """
    opening = q.text.lstrip().split(" ", 1)[0].lower()
    return {"who": "person asked for", "whom": "person asked for", "whose": "person asked for",
            "where": "place asked for"}.get(opening, "answer asked for")


def _role_word(q: Question) -> str:
    """The question's own word for its role (``keeper``)."""
    return next((w for w in q.terms if term_key(w) == q.role), q.role)


def _names(item: Scored, mention: str) -> bool:
    """Whether a sentence, its lead, heading or title names ``mention``."""
    s = item.sentence
    return low(mention) in low(f"{s.rendered} {s.heading} {s.title}")


def _says_name(item: Scored, q: Question) -> bool:
    """Whether a sentence names one of the question's mentions in its own words.

    "AeroSense Two Pro: €229" is about the AeroSense Two Pro even where that name is common
    among the documents (a comparison table's row); a title naming it is not enough there,
    since every document about the product line has one.
    """
    return any(low(m) in low(item.sentence.rendered) for m in q.mentions)


def _unsaid_detail(q: Question, chosen: list[Scored]) -> str | None:
    """A number the question gives (a version, a year) that no chosen sentence holds.

    "the fee in 2026-27" is not answered by this year's fee table, nor "the 2025 fete" by
    a report of another one. A yes/no question is left to its lead ("on firmware 1.2?"
    against "from firmware 2.0 onwards" says No), and the years of a question about time
    to its dates (``reading/dated.py``: "in 2011" is answered by "from 2009 to 2014").
    """
    if q.asks == "yesno":
        return None
    years = {str(y) for y in find_years(q.text)} if q.temporal else set()
    said: set[str] = set()
    for c in chosen:
        s = c.sentence
        said |= details(f"{s.lead} {s.rendered} {s.heading} {s.title} {s.valid or ''}")
    missing = [token for token in dict.fromkeys(GIVEN_NUMBER.findall(q.text))
               if {d for d in details(token) if d[0].isdigit()} - years - said]
    if missing:
        return "nothing retrieved speaks of " + " or ".join(missing)
    return None


def _dated(q: Question, chosen: list[Scored], weights: dict[str, float]) -> bool:
    """Whether a chosen sentence about the subject gives the asked kind of value at the asked year."""
    return bool(q.year) and any(
        c.anchored and year_fit(q, c.sentence.rendered) > 0 and typed(q, c.sentence.rendered)
        and (not q.predicate or coverage_of([c], q.predicate, weights) >= 0.3) for c in chosen)


def _unbound(q: Question, chosen: list[Scored], env: Scoring) -> str | None:
    """Why the chosen sentences state the asked detail only about another subject.

    The subject and the detail must meet in one sentence: one sentence naming the
    AeroSense Two and another giving a HydroSense's alarm do not say how loud the
    AeroSense Two's alarm is.
    """
    weights = env.weights
    if q.relative or not q.predicate or _dated(q, chosen, weights):
        return None
    named = [m for m in q.mentions if m in env.distinctive and any(_names(c, m) for c in chosen)]
    # no distinctive name: a sentence naming any of the question's mentions is about it
    bound = [c for c in chosen if (c.anchored and env.specific)
             or any(_names(c, m) for m in (named or q.mentions))]
    if not (env.specific or named):
        return None
    if any(c in bound and (coverage_of([c], q.predicate, weights) >= 0.3
                           or (q.asks in VALUE_KINDS and typed(q, c.sentence.rendered)))
           for c in chosen):
        return None
    subject = (named or [*q.mentions, "the subject"])[0]
    said = [w for w in q.predicate if not any(w in c.credit for c in bound)]
    return f"the retrieved passages about {subject} do not address " + ", ".join(
        (said or list(q.predicate))[:6])


def _clause_gap(q: Question, chosen: list[Scored], env: Scoring) -> str | None:
    """Why one clause is not answered by the chosen sentences, or ``None``."""
    weights, specific = env.weights, env.specific
    missing = [w for w in q.focus if not any(w in c.credit for c in chosen)]
    # long questions are rarely echoed word for word: the floor falls with their length
    floor = 0.5 if len(q.focus) <= 4 else (0.4 if len(q.focus) <= 6 else 0.3)
    # about the subject, at the asked year, with the kind of thing asked and what the
    # question says about it: that answers it ("(1871-1939)" spans 1900, but says nothing
    # about who was mayor then)
    dated = _dated(q, chosen, weights)
    if len(q.focus) >= 3 and not dated and coverage_of(chosen, q.focus, weights) < floor:
        return "the retrieved sources do not address " + ", ".join(missing[:6])
    candidates = [c for c in chosen if c.anchored or not specific or _says_name(c, q)]
    # the thing asked for must be named: "the gross tonnage of ...", "the first keeper of ..."
    wanted = q.role or (q.head[0] if q.asks == "text" and q.head else "")
    if wanted and not dated and not any(
            wanted in norm_stems(f"{c.sentence.lead} {c.sentence.rendered}") for c in candidates):
        verb = "names" if q.role else "states"
        return f"no retrieved passage {verb} the {_head_word(q) if not q.role else _role_word(q)}"
    if q.asks in VALUE_KINDS:
        answers = [c for c in candidates if typed(q, c.sentence.rendered)
                   and not off_subject(c, q, env)]
        unbound = [unbound_row(q, c.sentence.text) for c in answers]
        if answers and all(unbound):
            return unbound[0]
        answers = [c for c, why in zip(answers, unbound, strict=True) if not why]
        kind = _KIND_WORDS.get(q.asks, q.asks)
        if not answers:
            return f"no retrieved passage states the {kind} asked for"
        # the question's own date or number places the thing, it is not the thing: "the
        # October 2025 skip day" is not answered by a rent "from 1 October 2025" alone
        thing = tuple(w for w in q.predicate if not _when_word(w)) or q.predicate
        if not any(coverage_of([a], q.predicate, weights) >= 0.3 and coverage_of([a], thing, weights) > 0
                   for a in answers):
            # which words are missing is no sentence ("the amount for proportion group
            # elsewhere receive grant"); what was found is
            return f"the {kind}s the retrieved passages give are not about what the question asks"
    if q.asks in ("entity", "name") and (q.head or q.predicate):
        # the name must come with what the question says about it ("founded", "team")
        holders = [c for c in candidates if typed(q, c.sentence.rendered)]
        head = q.head[0] if q.head else ""
        best = max((coverage_of([h], q.predicate, weights)
                    + 0.15 * (head in norm_stems(h.sentence.rendered)) for h in holders),
                   default=0.0)
        if q.relative and holders:
            # "the firm where the designer was chief engineer": the chain of sentences
            # says it together, the last hop ("founded ... by Hugo Lenth") only its part
            best = max(best, coverage_of(chosen, q.predicate, weights) + 0.15 * any(
                head in norm_stems(c.sentence.rendered) for c in chosen))
        if best < 0.35 and not dated:
            return "no retrieved passage names the " + (_head_word(q) or _asked_for(q))
    return None


def insufficiency(q: Question, chosen: list[Scored], scored: list[Scored],
                  env: Scoring) -> str | None:
    """Why the retrieved evidence cannot answer the question, or ``None`` if it can."""
    if not chosen:
        return "nothing retrieved bears on the question"
    parts = clauses(q)
    for clause in parts:
        gap = _clause_gap(clause, chosen, env)
        if gap:
            return gap
    if len(parts) == 1:  # parts of a question have subjects of their own ("... apply to it?")
        gap = _unbound(q, chosen, env)
        if gap:
            return gap
    gap = _unsaid_detail(q, chosen) or _another_case(q, chosen, scored)
    if gap:
        return gap
    answers = [c for c in chosen if typed(q, c.sentence.rendered)]
    if q.exact and any(_HEDGES.search(c.sentence.text) for c in answers):
        return "the sources give only an estimate or an approximate value, not an exact one"
    if q.asks in VALUE_KINDS and q.head:
        absent = re.compile(rf"\b{_ABSENT}{re.escape(q.head[0])}\b")
        for item in scored:
            if item.anchored and absent.search(_keyed_text(item.sentence.text)):
                return "the sources say this has not happened or is not recorded"
    return None


def _another_case(q: Question, chosen: list[Scored], scored: list[Scored]) -> str | None:
    """Why every chosen answer speaks of another case than the question's, or ``None``."""
    if q.asks == "yesno" or q.relative:
        return None
    answers = [c for c in chosen if q.asks == "text" or typed(q, c.sentence.rendered)]
    if not answers:
        return None
    known = frozenset().union(*(word_keys(c.sentence.rendered) for c in scored))
    cases = [other_case(q.text, q.mentions, c.sentence.rendered, _context(c), known)
             for c in answers]
    if all(cases):
        return f"the retrieved passages do not speak of the {cases[0]}"
    return denied_case(q.text, [(c.sentence.rendered, _context(c)) for c in answers])


def _context(c: Scored) -> str:
    """What names a sentence's subject besides the sentence: its lead, heading and title."""
    return f"{c.sentence.lead} {c.sentence.heading} {c.sentence.title}"


def _keyed_text(text: str) -> str:
    """The text with every word replaced by its comparison key (for negation patterns)."""
    return " ".join(term_key(w) for w in key_parts(text))



"""Scoring candidate sentences against a question, for the offline planner's answer.

A sentence scores by the question words it covers (rare words weigh more; its heading,
the sentence before it and its document's title give partial credit) plus what an
analyst would weigh: whether it is about the question's subject, states the kind of
value asked for, and fits the question's date.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import date

from groundgate.knowledge.ingest.extract import sentences
from groundgate.knowledge.text import STOPWORDS
from groundgate.reading.cases import sets_aside
from groundgate.reading.dated import (  # re-exported: callers import the date fits from here
    move_fit,
    span_fit,
    stated_window_fit,
    time_fit,
    year_fit,
)
from groundgate.reading.evidence import Sentence
from groundgate.reading.question import Question, clauses
from groundgate.reading.text import (
    IDENTIFIER,
    MONTH_ALT,
    capitalised_names,
    has_value,
    low,
    norm_stems,
    without_dates,
    without_given,
)
from groundgate.reading.transcript import Transcript
from groundgate.reading.when import effective_date, is_specific

__all__ = [
    "VALUE_KINDS",
    "Scored",
    "Scoring",
    "coverage_of",
    "fit",
    "move_fit",
    "off_subject",
    "ranked",
    "score_sentences",
    "span_fit",
    "term_in",
    "typed",
    "year_fit",
]

OFF_SUBJECT = 0.15
"""What a sentence about another named subject loses."""
VALUE_KINDS = ("date", "time", "money", "number", "duration", "percent", "length", "weight")
"""Kinds of value a question can ask for (``Question.asks``)."""
_CURRENCY_CODES = {"GBP", "USD", "EUR", "CHF", "JPY"}
_FIELD = re.compile(r"^([A-Z][\w ]{0,30}):\s")
_HEADER_FIELD = re.compile(r"\b(?:From|To|Cc|Date|Subject|Sent|Re):")


@dataclass(frozen=True, eq=False)
class Scored:
    """A candidate sentence with what it covers (compared by identity).

    Attributes:
        sentence: The candidate.
        credit: Focus term -> how fully the sentence covers it: 1 in its own words,
            less when only the sentence its pronoun points to (0.8, else 0.5), its
            heading (0.75) or its document's title (0.4) has it.
        bonus: Everything but coverage: anchoring, retrieval rank, fit to the date.
        anchored: Whether it comes from or names what the question is about.
        label: Whether it is a bare label (``Claim: CLM-1190``), not a statement.
        elsewhere: Whether it opens with a named subject the question does not name.
    """

    sentence: Sentence
    credit: dict[str, float]
    bonus: float
    anchored: bool
    label: bool
    elsewhere: bool = False

    @property
    def covered(self) -> frozenset[str]:
        """Focus terms in the sentence's own words (or the sentence its pronoun points to)."""
        return frozenset(w for w, c in self.credit.items() if c >= 0.8)


@dataclass(frozen=True)
class Scoring:
    """What scoring needs besides the sentence.

    Attributes:
        weights: Focus term -> weight (inverse frequency over the candidates).
        anchor_docs: Documents of the entities the question is about (and one step on).
        anchor_names: Distinctive names of what the question is about.
        specific: Whether the question pins a subject (then anchoring counts).
        day: The date the question is about, if any.
        proper_nouns: Names the candidates use mid-sentence.
        on_topic: Names in sentences that mention the question's subject (bridges).
        distinctive: The question's own mentions that single out a few documents.
    """

    weights: dict[str, float]
    anchor_docs: frozenset[str]
    anchor_names: tuple[str, ...]
    specific: bool
    day: date | None
    proper_nouns: frozenset[str] = frozenset()
    on_topic: frozenset[str] = frozenset()
    distinctive: tuple[str, ...] = ()


def term_in(term: str, keys: frozenset[str] | set[str]) -> bool:
    """Whether every part of ``term`` (``trace-and-access``) is among ``keys``."""
    parts = norm_stems(term)
    return bool(parts) and parts <= keys


def term_weights(terms: tuple[str, ...], pool: list[Sentence]) -> dict[str, float]:
    """Inverse document frequency of each term over the candidate pool (rare words count)."""
    keyed = [norm_stems(f"{s.text} {s.title} {s.heading}") for s in pool]
    weights = {}
    for term in terms:
        df = sum(term_in(term, keys) for keys in keyed)
        weights[term] = 1.0 + math.log((len(keyed) + 1) / (df + 1))
    return weights


_DIMENSIONS = {
    "height": ("tall", "taller", "high", "higher", "height"),
    "depth": ("deep", "deeper", "depth"),
    "width": ("wide", "wider", "width"),
    "length": ("long", "longer", "length"),
    "distance": ("far", "distance"),
}


def _dimensions(text: str) -> set[str]:
    words = set(re.findall(r"[a-z]+", text.lower()))
    return {d for d, forms in _DIMENSIONS.items() if words & set(forms)}


_HOW_LONG = re.compile(r"\bhow long\b", re.IGNORECASE)
_MONTH_ASKED = re.compile(r"\b(?:which|what) month\b", re.IGNORECASE)
_MONTH = re.compile(rf"\b(?:{MONTH_ALT})\b")


def typed(q: Question, text: str) -> bool:
    """Whether ``text`` states a value of the kind ``q`` asks for.

    A length in a sentence that says which dimension it is must be the one asked: "61
    metres long" does not say how deep a harbour is.
    A value the question itself gives is no answer: "the 2025 fete" does not date "the
    October 2025 skip day".
    """
    if q.asks in VALUE_KINDS:
        # (a date is no count: blank it first, or "1 August 2024" less 2024 reads as a 1)
        text = without_given(q.text, text if q.asks in ("date", "duration") else without_dates(text))
        kinds = {"duration": ("duration", "date")}.get(q.asks, (q.asks,))
        if q.asks == "length" and _HOW_LONG.search(q.text):
            kinds = ("length", "duration")  # "How long is the warranty?" asks for a time
        if not any(has_value(text, k) for k in kinds):
            # "in which month ...?": a month is the value asked for
            return q.asks == "date" and bool(_MONTH_ASKED.search(q.text) and _MONTH.search(text))
        if q.asks == "length":
            asked, stated = _dimensions(q.text), _dimensions(text)
            return not (asked and stated and not asked & stated)
        return True
    if q.asks in ("name", "entity"):
        question = low(q.text)
        parts = sentences(text) or [""]
        own = parts[-1]  # the sentence itself, not its lead ...
        names = capitalised_names(own, skip_initial=True)
        if len(parts) > 1 and re.match(r"(He|She|They)\b", own):
            names.append(opening_name(parts[-2]))  # ... unless "She" is the lead's subject
        if any(n and low(n) not in question and n not in _CURRENCY_CODES for n in names):
            return True
        # "what excess does it show?": an amount answers it when it is an amount of that noun
        named = bool(q.head) and q.head[0] in norm_stems(own)
        return q.asks == "entity" and named and (
            has_value(text, "money") or has_value(text, "percent"))
    return False


def _anchor_docs(t: Transcript) -> frozenset[str]:
    """Documents behind resolved entities, and documents one typed step from them."""
    anchors = t.anchors()
    articles = {a.id for a in anchors if a.kind == "document"}
    docs = {s for a in anchors for s in a.sources} | articles
    for step in t.of("traverse"):
        for item in step.results:
            path = str(item.get("path", ""))
            # an extracted "mentions" edge only links articles to articles
            weak = "[mentions]" in path and step.args.get("entity_id") not in articles
            if item.get("kind") == "document" and path.count("-[") <= 1 and not weak:
                docs.add(str(item["id"]))
    return frozenset(docs)


def _bridges(q: Question, pool: list[Sentence]) -> frozenset[str]:
    """Names in sentences that mention the question's subject, not in the question."""
    mentions = [low(m) for m in q.mentions]
    question = low(q.text)
    return frozenset(
        n for s in pool if any(m in low(s.rendered) for m in mentions)
        for n in capitalised_names(s.rendered) if low(n) not in question
    )


def build_scoring(t: Transcript, pool: list[Sentence]) -> Scoring:
    """Everything sentence scoring needs to know about the question and the candidates."""
    anchors = t.anchors()
    strong = [m for m in t.question.mentions if is_specific(m)]
    names = _distinctive(
        [*dict.fromkeys(n for a in anchors for n in (a.mention, a.name) if n), *strong], pool)
    focus = (*t.question.focus, *(w for c in clauses(t.question) for w in c.focus))
    return Scoring(
        weights=term_weights(tuple(dict.fromkeys(focus)), pool),
        anchor_docs=_anchor_docs(t),
        anchor_names=names,
        # a distinctive name, or an entity resolved from a specific mention, pins the subject
        specific=bool(names) or any(is_specific(a.mention) and a.sources for a in anchors),
        day=effective_date(t.question, anchors),
        proper_nouns=frozenset(
            n for s in pool for n in capitalised_names(s.text, skip_initial=True)),
        on_topic=_bridges(t.question, pool),
        distinctive=_distinctive(list(t.question.mentions), pool),
    )


def _distinctive(names: list[str], pool: list[Sentence]) -> tuple[str, ...]:
    """Names that single out a few documents (a product named everywhere anchors nothing)."""
    documents = {s.sources[0] for s in pool if s.sources}
    limit = max(2, 0.4 * len(documents))
    kept = []
    for name in dict.fromkeys(names):
        lowered = low(name)
        holders = {s.sources[0] for s in pool
                   if s.sources and lowered in low(f"{s.rendered} {s.title}")}
        if len(holders) <= limit:
            kept.append(name)
    return tuple(kept)


def off_subject(item: Scored, q: Question, env: Scoring) -> bool:
    """Whether a sentence is about another named subject that nothing links to.

    ``Velmar has a population of ...`` does not answer a question about Kessling. A name
    the question's subject leads to counts as linked only for a multi-hop question: for
    "How deep is Kessel Harbour?", "Gannet Rock Lighthouse is a 24-metre tower at the
    entrance to Kessel Harbour" measures the lighthouse.
    """
    if not item.elsewhere:
        return False
    return not q.relative or opening_name(item.sentence.rendered) not in env.on_topic


def opening_name(text: str) -> str:
    """The capitalised words a sentence opens with (``Velmar``, ``Ilse Brandt``)."""
    opening = re.match(r"[A-Z][\w'’\-]*(?:\s+(?:(?:of|the|de|von|van)\s+)?[A-Z][\w'’\-]*)*", text)
    if not opening or opening.group(0).split()[0].lower() in STOPWORDS:
        return ""  # "Because HE-12 ...", "The engineer ...": no named subject up front
    return opening.group(0)


_LIFESPAN = re.compile(r"\(\s*(?:c\.\s*)?1?\d{3}\s*(?:[–-]|to)\s*(?:c\.\s*)?1?\d{3}\s*\)")
_LIFE_KEYS = norm_stems("born died")


def _credit(env: Scoring, sentence: Sentence) -> dict[str, float]:
    """How fully the sentence covers each focus term (see ``Scored.credit``)."""
    # "It rises in ...": the sentence before says what "it" is, so its words nearly count
    lead_share = 0.8 if re.match(r"(It|He|She|They)\b", sentence.text) else 0.5
    if sentence.lead.endswith("?"):
        lead_share = 0.9  # the question a FAQ answer answers says what the answer is about
    own = norm_stems(sentence.text)
    if _LIFESPAN.search(sentence.text):
        own = own | _LIFE_KEYS  # "Ebbe Lannart (1819–1888)" says when he was born and died
    layers = (
        (1.0, own),
        (lead_share, norm_stems(sentence.lead)),
        (0.75, norm_stems(sentence.heading)),
        (0.4, norm_stems(sentence.title)),
    )
    credit: dict[str, float] = {}
    for term in env.weights:
        for share, keys in layers:
            if term_in(term, keys):
                credit[term] = share
                break
    return credit


def _anchored(q: Question, sentence: Sentence, env: Scoring) -> bool:
    """Whether a sentence is about the question's subject.

    It comes from a document about it, or names it, or (for a multi-hop question) names a
    bridge to it.
    """
    if env.anchor_docs & set(sentence.sources):
        return True
    own = low(sentence.rendered)
    titled = f"{own} {low(sentence.title)}"
    if any(low(n) in titled for n in env.anchor_names):
        return True
    return q.relative and any(
        low(b) in own for b in env.on_topic if " " in b or IDENTIFIER.fullmatch(b)
    )


def _is_label(q: Question, text: str) -> bool:
    """A bare label (``Claim: CLM-1190.``) or a record field the question did not ask about."""
    if len(re.findall(r"\b[a-z]{3,}\b", text)) < 4:
        return True
    field = _FIELD.match(text)
    if field is None:
        return False
    return not any(term_in(w, norm_stems(field.group(1))) for w in q.focus)


def _score_one(q: Question, sentence: Sentence, env: Scoring) -> Scored:
    anchored = _anchored(q, sentence, env)
    bonus = 0.1 * sentence.rank + time_fit(q, sentence, env.day)
    if env.day:
        bonus += stated_window_fit(sentence.text, env.day)
    if env.specific:
        bonus += 0.25 if anchored else -0.1
    if sets_aside(q.text, sentence.rendered):
        bonus -= 0.3  # "31 days, unless needed for an investigation" is the other cases' value
    if len(_HEADER_FIELD.findall(sentence.text)) >= 2:
        bonus -= 0.3  # an e-mail header block is not a statement
    bonus -= 0.1 * (len(sentence.text) > 300)
    subject = opening_name(sentence.rendered)
    elsewhere = bool(q.mentions and subject in env.proper_nouns
                     and low(subject) not in low(q.text))
    return Scored(sentence, _credit(env, sentence), round(bonus, 6), anchored,
                  _is_label(q, sentence.text), elsewhere)


def score_sentences(t: Transcript, pool: list[Sentence]) -> tuple[list[Scored], Scoring]:
    """Score every candidate against the question (coverage is computed per clause)."""
    env = build_scoring(t, pool)
    return [_score_one(t.question, s, env) for s in pool], env


def fit(item: Scored, q: Question, weights: dict[str, float]) -> float:
    """How well a candidate answers question or clause ``q``: coverage plus bonuses.

    A sentence about another named subject loses ``OFF_SUBJECT``.
    """
    text = item.sentence.rendered
    is_typed = typed(q, text)
    named = bool(q.asks == "entity" and q.head and q.head[0] in norm_stems(text))
    # "what excess does it show?": a stated amount of the noun beats a passing name
    amount = named and has_value(text, "money")
    value = coverage_of([item], q.focus, weights) + item.bonus
    value += 0.2 * is_typed + 0.1 * (is_typed and named) + 0.05 * amount
    # a bare label only helps when it carries the value asked for
    value -= 0.2 * (item.label and not is_typed)
    return value - OFF_SUBJECT * item.elsewhere


def ranked(items: list[Scored], q: Question, weights: dict[str, float],
            whole: Question | None = None) -> list[Scored]:
    """Best first for ``q``; a clause's ties go to what also fits the ``whole`` question."""
    context = whole.focus if whole else ()
    return sorted(items, key=lambda s: (
        -(fit(s, q, weights) + 0.1 * coverage_of([s], context, weights)), s.sentence.order))


def coverage_of(items: list[Scored], terms: tuple[str, ...], weights: dict[str, float]) -> float:
    """Weighted share of ``terms`` that the items cover (partial credit for context)."""
    if not terms:
        return 1.0
    total = sum(weights.get(w, 1.0) for w in terms) or 1.0
    got = sum(
        weights.get(w, 1.0) * max((i.credit.get(w, 0.0) for i in items), default=0.0)
        for w in terms
    )
    return got / total

"""The offline planner's answer: chosen source sentences with citations, or INSUFFICIENT.

Extractive on purpose: every sentence of the answer is a sentence a tool returned (or a
dated statement built from a timeline), ending with the document ids it came from. When
what was retrieved does not cover the question, or lacks the kind of value it asks for,
the answer says so and shows what was found instead of guessing.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import date

from groundgate.knowledge.text import STOPWORDS
from groundgate.models.offline_evidence import Sentence, collect
from groundgate.models.offline_plan import effective_date, event_anchor, is_specific
from groundgate.models.offline_question import Question, clauses
from groundgate.models.offline_temporal import contradiction_lines, temporal_lines, window_of
from groundgate.models.offline_text import (
    IDENTIFIER,
    capitalised_names,
    find_dates,
    find_years,
    has_value,
    norm_stems,
    term_key,
    values_of,
)
from groundgate.models.offline_trace import Transcript

__all__ = ["Scored", "compose", "insufficiency", "score_sentences", "select"]

MAX_SENTENCES = 4
OFF_SUBJECT = 0.15
VALUE_KINDS = ("date", "money", "number", "duration", "percent", "length")
_HEDGES = re.compile(
    r"\b(approximately|approx|about|around|roughly|estimated?|estimates|unknown|not known|"
    r"does not know|do not know|not confirmed|unconfirmed|circa|likely|probably)\b|"
    r"\b\d+\s?[-–]\s?\d+\b",
    re.IGNORECASE,
)
_ABSENT = r"(?:no|not|never|without|nor)\s+(?:\w+\s+){0,2}"
_CURRENCY_CODES = {"GBP", "USD", "EUR", "CHF", "JPY"}


@dataclass(frozen=True, eq=False)
class Scored:
    """A candidate sentence with what it covers (compared by identity).

    Attributes:
        sentence: The candidate.
        credit: Focus term -> how fully the sentence covers it: 1 in its own words,
            less when only its heading (0.75), the sentence before it (0.5) or its
            document's title (0.4) has it.
        bonus: Everything but coverage: anchoring, retrieval rank, fit to the date.
        anchored: Whether it comes from or names an entity the question is about.
    """

    sentence: Sentence
    credit: dict[str, float]
    bonus: float
    anchored: bool
    label: bool
    """Whether it is a bare label (``Claim: CLM-1190``) rather than a statement."""
    elsewhere: bool = False
    """Whether it opens with a named subject the question does not name."""

    @property
    def covered(self) -> frozenset[str]:
        """Focus terms in the sentence's own words."""
        return frozenset(w for w, c in self.credit.items() if c >= 1.0)


@dataclass(frozen=True)
class Scoring:
    """What scoring needs besides the sentence: weights, anchor docs, the date."""

    weights: dict[str, float]
    anchor_docs: frozenset[str]
    anchor_names: tuple[str, ...]
    specific: bool
    day: date | None
    proper_nouns: frozenset[str] = frozenset()
    """Names the pool uses mid-sentence (so a sentence opening with one is about it)."""
    on_topic: frozenset[str] = frozenset()
    """Names in sentences that mention the question's subject (bridges of a multi-hop)."""


def _term_in(term: str, keys: set[str]) -> bool:
    parts = norm_stems(term)
    return bool(parts) and parts <= keys


def term_weights(terms: tuple[str, ...], pool: list[Sentence]) -> dict[str, float]:
    """Inverse document frequency of each term over the candidate pool (rare words count)."""
    keyed = [norm_stems(f"{s.text} {s.title} {s.heading}") for s in pool]
    weights = {}
    for term in terms:
        df = sum(_term_in(term, keys) for keys in keyed)
        weights[term] = 1.0 + math.log((len(keyed) + 1) / (df + 1))
    return weights


def typed(q: Question, text: str) -> bool:
    """Whether ``text`` states a value of the kind ``q`` asks for."""
    if q.asks in VALUE_KINDS:
        kinds = {"duration": ("duration", "date")}.get(q.asks, (q.asks,))
        return any(has_value(text, k) for k in kinds)
    if q.asks in ("name", "entity"):
        question = q.text.lower()
        names = capitalised_names(text, skip_initial=True)
        if any(n.lower() not in question and n not in _CURRENCY_CODES for n in names):
            return True
        # "what excess does it show?": an amount answers it when it is an amount of that noun
        named = bool(q.head) and q.head[0] in norm_stems(text)
        return q.asks == "entity" and named and (
            has_value(text, "money") or has_value(text, "percent"))
    return False


def _scoring(t: Transcript, pool: list[Sentence]) -> Scoring:
    anchors = t.anchors()
    docs = {s for a in anchors for s in a.sources} | {a.id for a in anchors if a.kind == "document"}
    documents = {a.id for a in anchors if a.kind == "document"}
    for step in t.of("traverse"):
        for item in step.results:
            path = str(item.get("path", ""))
            weak = "[mentions]" in path and step.args.get("entity_id") not in documents
            if item.get("kind") == "document" and path.count("-[") <= 1 and not weak:
                docs.add(str(item["id"]))
    strong = [m for m in t.question.mentions if is_specific(m)]
    names = tuple(dict.fromkeys(n for a in anchors for n in (a.mention, a.name) if n)) + tuple(
        strong)
    focus = tuple(dict.fromkeys(w for c in clauses(t.question) for w in c.focus))
    proper = {n for s in pool for n in capitalised_names(s.text, skip_initial=True)}
    mentions = [m.lower() for m in t.question.mentions]
    question = t.question.text.lower()
    bridges = {
        n for s in pool if any(m in s.text.lower() for m in mentions)
        for n in capitalised_names(s.rendered) if n.lower() not in question
    }
    return Scoring(
        weights=term_weights(tuple(dict.fromkeys((*t.question.focus, *focus))), pool),
        anchor_docs=frozenset(docs),
        anchor_names=names,
        specific=bool(strong),
        day=effective_date(t.question, anchors),
        proper_nouns=frozenset(proper),
        on_topic=frozenset(bridges),
    )


def off_subject(item: Scored, q: Question, env: Scoring) -> bool:
    """Whether a sentence opens with a name the question is not about (``Velmar has a
    population of ...`` asked about Kessling) and that no sentence links to it."""
    return item.elsewhere and opening_name(item.sentence.rendered) not in env.on_topic


def opening_name(text: str) -> str:
    """The capitalised words a sentence opens with (``Velmar``, ``Ilse Brandt``)."""
    opening = re.match(r"[A-Z][\w'’\-]*(?:\s+(?:(?:of|the|de|von|van)\s+)?[A-Z][\w'’\-]*)*", text)
    if not opening or opening.group(0).split()[0].lower() in STOPWORDS:
        return ""  # "Because HE-12 ...", "The engineer ...": no named subject up front
    return opening.group(0)


def _time_fit(q: Question, sentence: Sentence, day: date | None) -> float:
    """Reward sentences whose years or validity fit the question's date; penalise misfits."""
    bonus = 0.0
    if q.year:
        years = find_years(sentence.text)
        spans = re.findall(r"\b(\d{4})\s*(?:[-–]|to|until|and)\s*(\d{4})\b", sentence.text)
        if any(int(a) <= q.year < int(b) for a, b in spans) or q.year in years:
            bonus += 0.3
        elif years:
            bonus -= 0.15
    window = window_of(sentence.valid)
    if day and window:
        bonus += 0.15 if window.contains(day) else -0.3
    return bonus


_HEADER_FIELD = re.compile(r"\b(?:From|To|Cc|Date|Subject|Sent|Re):")
_DATED_START = re.compile(r"\b(?:from|effective|with effect from|starting|as of|since)\s+$", re.I)
_DATED_END = re.compile(r"\b(?:until|to|before)\s+$", re.I)


def _stated_window_fit(text: str, day: date) -> float:
    """Penalise a sentence that itself says it starts after ``day`` or ended by then."""
    for offset, stated in find_dates(text):
        before = text[max(0, offset - 20) : offset]
        if _DATED_START.search(before) and stated > day:
            return -0.3
        if _DATED_END.search(before) and stated <= day:
            return -0.3
    return 0.0


def _credit(env: Scoring, sentence: Sentence) -> dict[str, float]:
    # "It rises in ...": the sentence before says what "it" is, so its words nearly count
    lead_share = 0.8 if re.match(r"(It|He|She|They)\b", sentence.text) else 0.5
    layers = (
        (1.0, norm_stems(sentence.text)),
        (lead_share, norm_stems(sentence.lead)),
        (0.75, norm_stems(sentence.heading)),
        (0.4, norm_stems(sentence.title)),
    )
    credit: dict[str, float] = {}
    for term in env.weights:
        for share, keys in layers:
            if _term_in(term, keys):
                credit[term] = share
                break
    return credit


def _score_one(q: Question, sentence: Sentence, env: Scoring) -> Scored:
    lowered = f"{sentence.rendered} {sentence.title}".lower()
    own = sentence.rendered.lower()
    anchored = (
        bool(env.anchor_docs & set(sentence.sources))
        or any(n.lower() in lowered for n in env.anchor_names)
        or (q.relative and any(b.lower() in own for b in env.on_topic
                               if " " in b or IDENTIFIER.fullmatch(b)))
    )
    bonus = 0.1 * sentence.rank + _time_fit(q, sentence, env.day)
    if env.day:
        bonus += _stated_window_fit(sentence.text, env.day)
    if env.specific:
        bonus += 0.25 if anchored else -0.1
    if len(_HEADER_FIELD.findall(sentence.text)) >= 2:
        bonus -= 0.3  # an e-mail header block is not a statement
    bonus -= 0.1 * (len(sentence.text) > 300)
    label = len(re.findall(r"\b[a-z]{3,}\b", sentence.text)) < 4
    subject = opening_name(sentence.rendered)
    elsewhere = bool(q.mentions and subject in env.proper_nouns
                     and subject.lower() not in q.text.lower())
    return Scored(sentence, _credit(env, sentence), round(bonus, 6), anchored, label, elsewhere)


def score_sentences(t: Transcript, pool: list[Sentence]) -> tuple[list[Scored], Scoring]:
    """Score every candidate against the question (coverage is computed per clause)."""
    env = _scoring(t, pool)
    return [_score_one(t.question, s, env) for s in pool], env


def fit(item: Scored, q: Question, weights: dict[str, float]) -> float:
    """How well a candidate answers question or clause ``q``: coverage plus bonuses
    (a sentence about another named subject loses ``OFF_SUBJECT``)."""
    is_typed = typed(q, item.sentence.rendered)
    named = bool(q.asks == "entity" and q.head and q.head[0] in norm_stems(item.sentence.rendered))
    # a bare label ("Claim: CLM-1190.") only helps when it carries the value asked for
    return coverage_of([item], q.focus, weights) + item.bonus + 0.2 * is_typed + 0.1 * (
        is_typed and named
    ) - 0.2 * (item.label and not is_typed) - OFF_SUBJECT * item.elsewhere


def _ranked(items: list[Scored], q: Question, weights: dict[str, float],
            whole: Question | None = None) -> list[Scored]:
    """Best first for ``q``; a clause's ties go to what also fits the ``whole`` question."""
    context = whole.focus if whole else ()
    return sorted(items, key=lambda s: (
        -(fit(s, q, weights) + 0.1 * coverage_of([s], context, weights)), s.sentence.order))


_LIMITING = re.compile(r"\b(not|except|unless|no longer|never|excluded|neither|nor)\b", re.I)


def _clause_picks(scored: list[Scored], clause: Question, weights: dict[str, float],
                  chosen: list[Scored], whole: Question) -> list[Scored]:
    """The best sentence for a clause; for a yes/no clause also its best limiting one."""
    ranked = [s for s in _ranked(scored, clause, weights, whole) if s not in chosen]
    if not ranked or coverage_of([ranked[0]], clause.focus, weights) < 0.2:
        return []
    picks = [ranked[0]]
    if clause.asks in (*VALUE_KINDS, "entity", "name") and not typed(clause, ranked[0].sentence.text):
        for item in ranked[1:20]:
            if typed(clause, item.sentence.rendered) and coverage_of(
                [item], clause.focus, weights
            ) >= 0.3:
                picks.append(item)
                break
    if clause.asks == "yesno" and not _LIMITING.search(ranked[0].sentence.rendered):
        for item in ranked[1:20]:
            if (_LIMITING.search(item.sentence.rendered)
                    and coverage_of([item], clause.focus, weights) >= 0.4):
                picks.append(item)
                break
    return picks


def select(scored: list[Scored], q: Question, weights: dict[str, float]) -> list[Scored]:
    """The best sentences for each clause, then those adding uncovered question words."""
    chosen: list[Scored] = []
    for clause in clauses(q):
        chosen += _clause_picks(scored, clause, weights, chosen, q)
    if not chosen:
        return []
    limit = MAX_SENTENCES + (len(clauses(q)) > 1)
    floor = 0.5 * max(fit(c, q, weights) for c in chosen)
    covered = set().union(*(c.covered for c in chosen))
    total = sum(weights.get(w, 1.0) for w in q.focus) or 1.0
    while len(chosen) < limit:
        best, gain = None, 0.1
        for item in _ranked(scored, q, weights):
            if item in chosen or fit(item, q, weights) < floor:
                continue
            extra = sum(weights.get(w, 1.0) for w in item.covered - covered if w in q.focus)
            if extra / total > gain + 1e-9:
                best, gain = item, extra / total
        if best is None:
            break
        chosen.append(best)
        covered |= best.covered
    return chosen


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


def _clause_gap(q: Question, chosen: list[Scored], env: Scoring) -> str | None:
    """Why one clause is not answered by the chosen sentences, or ``None``."""
    weights, specific = env.weights, env.specific
    missing = [w for w in q.focus if not any(w in c.credit for c in chosen)]
    floor = 0.5 if len(q.focus) <= 4 else 0.4
    if len(q.focus) >= 3 and coverage_of(chosen, q.focus, weights) < floor:
        return "the retrieved sources do not address " + ", ".join(missing[:6])
    candidates = [c for c in chosen if c.anchored or not specific]
    if q.asks in VALUE_KINDS:
        answers = [c for c in candidates if typed(q, c.sentence.rendered)
                   and not off_subject(c, q, env)]
        if not answers:
            return f"no retrieved passage states the {q.asks} asked for"
        if max(coverage_of([a], q.predicate, weights) for a in answers) < 0.3:
            return f"no retrieved passage gives the {q.asks} for " + " ".join(q.predicate[:6])
    if q.asks == "entity" and q.head:
        holders = [c for c in candidates if typed(q, c.sentence.rendered)]
        best = max((coverage_of([h], q.predicate, weights)
                    + 0.15 * (q.head[0] in norm_stems(h.sentence.rendered)) for h in holders),
                   default=0.0)
        if best < 0.35:
            return "no retrieved passage names the " + " ".join(missing[:1] or q.head)
    return None


def insufficiency(q: Question, chosen: list[Scored], scored: list[Scored],
                  env: Scoring) -> str | None:
    """Why the retrieved evidence cannot answer the question, or ``None`` if it can."""
    if not chosen:
        return "nothing retrieved bears on the question"
    for clause in clauses(q):
        gap = _clause_gap(clause, chosen, env)
        if gap:
            return gap
    if q.exact and any(_HEDGES.search(c.sentence.text) for c in chosen if typed(q, c.sentence.rendered)):
        return "the sources give only an estimate or an approximate value, not an exact one"
    if q.asks in VALUE_KINDS and q.head:
        absent = re.compile(rf"\b{_ABSENT}{re.escape(q.head[0])}\b")
        for item in scored:
            if item.anchored and absent.search(_keyed_text(item.sentence.text)):
                return "the sources say this has not happened or is not recorded"
    return None


def _keyed_text(text: str) -> str:
    """The text with every word replaced by its comparison key (for negation patterns)."""
    return " ".join(term_key(w) for w in re.findall(r"[A-Za-z0-9]+", text))


def cite(text: str, sources: tuple[str, ...]) -> str:
    """A sentence ending with its citation: ``Text. [A, B]``."""
    text = text.strip()
    if not text.endswith((".", "!", "?", "…")):
        text += "."
    return f"{text} [{', '.join(sources[:3])}]"


def _reading_order(chosen: list[Scored]) -> list[Scored]:
    """Chosen sentences in order, except that a sentence another one leads into (``It
    ...`` follows ``The Ostra River is ...``) is moved just before it."""
    out: list[Scored] = []
    for item in chosen:
        if item in out:
            continue
        lead = next((c for c in chosen if c.sentence.text == item.sentence.lead), None)
        if lead is not None and lead not in out:
            out.append(lead)
        out.append(item)
    return out


def cited_lines(sentence: Sentence, prefix: str = "", with_lead: bool = True) -> list[str]:
    """The sentence (and its lead, when it needs one) as cited answer lines."""
    if with_lead and sentence.lead:
        return [cite(prefix + sentence.lead, sentence.sources), cite(sentence.text, sentence.sources)]
    return [cite(prefix + sentence.text, sentence.sources)]


def _render(chosen: list[Scored]) -> list[str]:
    texts = {c.sentence.text for c in chosen}
    lines: list[str] = []
    for item in _reading_order(chosen):
        lines += cited_lines(item.sentence, with_lead=item.sentence.lead not in texts)
    return lines


def _event_sentence(t: Transcript, scored: list[Scored]) -> Scored | None:
    """The sentence the question's event date was read from (``loss 20 February 2026``)."""
    anchor = event_anchor(t.question, t.anchors())
    if anchor is None:
        return None
    first = anchor.text.split(". ")[0].rstrip(".")
    for item in scored:
        if first and first in item.sentence.text:
            return item
    return None


def _disagreement(q: Question, chosen: list[Scored], scored: list[Scored],
                  weights: dict[str, float]) -> list[str]:
    """A sentence from another document giving a different value for the same thing."""
    if q.asks not in VALUE_KINDS:
        return []
    answers = [c for c in chosen if typed(q, c.sentence.rendered)]
    if not answers:
        return []
    first = answers[0]
    kind = "date" if q.asks == "date" else ("duration" if q.asks == "duration" else q.asks)
    values = values_of(first.sentence.rendered, kind)
    subject = first.covered & set(q.predicate)
    for item in _ranked(scored, q, weights)[:15]:
        other = values_of(item.sentence.rendered, kind)
        shared = len(item.covered & subject) / len(subject) if subject else 0.0
        if (item in chosen or not other or other & values or not typed(q, item.sentence.rendered)
                or set(item.sentence.sources) & set(first.sentence.sources)
                or shared < 0.6 or coverage_of([item], q.focus, weights) < 0.3
                or (first.anchored and not item.anchored)
                or (first.sentence.valid and item.sentence.valid)):
            continue
        return cited_lines(item.sentence, f"Another source gives a different {q.asks}: ")
    return []


def _later(q: Question, chosen: list[Scored], scored: list[Scored],
           weights: dict[str, float], day: date | None) -> list[str]:
    """The best matching passage from a document that only applies after the date."""
    if not (day and q.temporal):
        return []
    later = []
    for item in scored:
        window = window_of(item.sentence.valid)
        if item in chosen or not window or not window.valid_from or window.valid_from <= day:
            continue
        later.append((coverage_of([item], q.focus, weights), item.sentence.order, item, window))
    if not later:
        return []
    value, _, item, window = min(
        later, key=lambda x: (-round(x[0], 1), x[3].valid_from or date.max, x[1])
    )
    if value < 0.4 or window.valid_from is None:
        return []
    return cited_lines(
        item.sentence, f"From {window.valid_from.isoformat()} (after {day.isoformat()}): "
    )


def compose(t: Transcript) -> str:
    """The final answer text for the transcript."""
    q = t.question
    pool = collect(t)
    scored, env = score_sentences(t, pool)
    chosen = select(scored, q, env.weights)
    event = _event_sentence(t, scored)
    if event and event not in chosen:
        chosen.insert(0, event)
    lines = _render(chosen)
    lines += _disagreement(q, chosen, scored, env.weights)
    lines += temporal_lines(t, env.day)
    lines += [line for line in _later(q, chosen, scored, env.weights, env.day) if line not in lines]
    lines += contradiction_lines(t, " ".join([q.text, *(c.sentence.text for c in chosen)]))
    reason = insufficiency(q, chosen, scored, env)
    if reason:
        found = lines or ["Nothing relevant was retrieved."]
        return "\n".join([f"INSUFFICIENT: {reason}.", "What the sources do say:", *found])
    return "\n".join(lines)

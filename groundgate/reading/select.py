"""Choosing and rendering the sentences of the offline planner's answer."""

from __future__ import annotations

import re

from groundgate.knowledge.text import fold
from groundgate.reading.evidence import Sentence
from groundgate.reading.question import Question, clauses
from groundgate.reading.score import (
    VALUE_KINDS,
    Scored,
    coverage_of,
    fit,
    ranked,
    typed,
    year_fit,
)
from groundgate.reading.text import capitalised_names

__all__ = ["MAX_SENTENCES", "cite", "cited_lines", "render", "select"]

MAX_SENTENCES = 4
"""Sentences in an answer (one more for a question with several parts)."""
_LIMITING = re.compile(r"\b(not|except|unless|no longer|never|excluded|neither|nor)\b", re.I)


def _clause_picks(scored: list[Scored], clause: Question, weights: dict[str, float],
                  chosen: list[Scored], whole: Question) -> list[Scored]:
    """The best sentence for a clause, and maybe a second one.

    The second states the value the clause asks for when the best does not, or, for a
    yes/no clause, limits the answer (``does not apply retroactively``).
    """
    order = [s for s in ranked(scored, clause, weights, whole) if s not in chosen]
    if not order or coverage_of([order[0]], clause.focus, weights) < 0.2:
        return []
    best = order[0]
    if clause.asks in (*VALUE_KINDS, "entity", "name") and not typed(clause, best.sentence.rendered):
        extra = next((item for item in order[1:20] if typed(clause, item.sentence.rendered)
                      and coverage_of([item], clause.focus, weights) >= 0.3), None)
        return [best, extra] if extra else [best]
    if clause.asks == "yesno" and not _LIMITING.search(best.sentence.rendered):
        extra = next((item for item in order[1:20] if _LIMITING.search(item.sentence.rendered)
                      and coverage_of([item], clause.focus, weights) >= 0.4), None)
        return [best, extra] if extra else [best]
    return [best]


def _next_hop(scored: list[Scored], q: Question, weights: dict[str, float],
              chosen: list[Scored], covered: set[str]) -> Scored | None:
    """For a described subject, the sentence about the name the chosen ones lead to.

    "In what year was the founder of Corran Yard born?": the chosen sentence names the
    founder (Ebbe Lannart); the next hop is what is said about him ("Ebbe Lannart
    (1819–1888) ..."), not about any other founder the words also fit.
    """
    asked = fold(q.text).lower()
    asked_words = set(asked.split())
    names = {fold(name).lower() for c in chosen
             for name in capitalised_names(c.sentence.rendered, skip_initial=True) if " " in name}
    bridges = {n for n in names if n not in asked and not asked_words & set(n.split())}
    if not bridges:
        return None
    best, gain = None, 0.0
    for item in ranked(scored, q, weights):
        if item in chosen:
            continue
        about = fold(f"{item.sentence.title} {item.sentence.rendered}").lower()
        if not any(b in about for b in bridges):
            continue
        extra = sum(weights.get(w, 1.0) for w in item.covered - covered if w in q.focus)
        if extra > gain:
            best, gain = item, extra
    return best


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
    hop = _next_hop(scored, q, weights, chosen, covered) if q.described else None
    if hop is not None:
        chosen.append(hop)
        covered |= hop.covered
    while len(chosen) < limit:
        best, gain = None, 0.1
        for item in ranked(scored, q, weights):
            if item in chosen or fit(item, q, weights) < floor or year_fit(
                q, item.sentence.rendered
            ) < 0:
                continue
            extra = sum(weights.get(w, 1.0) for w in item.covered - covered if w in q.focus)
            if extra / total > gain + 1e-9:
                best, gain = item, extra / total
        if best is None:
            break
        chosen.append(best)
        covered |= best.covered
    return chosen

def cite(text: str, sources: tuple[str, ...]) -> str:
    """A sentence ending with its citation: ``Text. [A, B]``."""
    text = text.strip()
    if not text.endswith((".", "!", "?", "…")):
        text += "."
    return f"{text} [{', '.join(sources[:3])}]"


def _reading_order(chosen: list[Scored]) -> list[Scored]:
    """Chosen sentences in order, each lead moved just before the sentence it leads.

    ``It rises ...`` follows ``The Ostra River is ...`` when both were chosen.
    """
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
    if with_lead and sentence.lead and not sentence.lead.endswith("?"):  # a question leads, unsaid
        return [cite(prefix + sentence.lead, sentence.sources), cite(sentence.text, sentence.sources)]
    return [cite(prefix + sentence.text, sentence.sources)]


def render(chosen: list[Scored]) -> list[str]:
    """The chosen sentences as cited lines, in reading order."""
    texts = {c.sentence.text for c in chosen}
    lines: list[str] = []
    for item in _reading_order(chosen):
        lines += cited_lines(item.sentence, with_lead=item.sentence.lead not in texts)
    return lines

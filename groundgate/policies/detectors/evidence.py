"""The passages an answer rests on, and those it was composed beside, as ``Passage`` values.

First, for every kept claim, the chunk of its cited documents that shares most of its
words (``role="rests"``); then every passage the run retrieved (``search_evidence`` and
``get_source`` results, as returned and in the order the run saw them). Detectors choose
from these: the lexical one reads the retrieved passages, as the disagreement policy
always has, and the resting ones for whether a register entry bears; the semantic one
and the judge start from the resting ones and compare them with the rest.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from groundgate.answer.model import Claim
from groundgate.knowledge.ingest.chunking import chunk_document
from groundgate.knowledge.ingest.extract import sentences
from groundgate.knowledge.model import Validity
from groundgate.knowledge.port import KnowledgeStore
from groundgate.knowledge.text import content_terms, coverage, stem, stems
from groundgate.policies.detectors.base import Passage
from groundgate.policies.stated import holds_name, question_names
from groundgate.reading.question import analyse
from groundgate.reading.text import find_dates, find_years
from groundgate.tools.envelope import Envelope, read_envelopes

__all__ = [
    "about_subject",
    "answer_passages",
    "dated_apart",
    "resting_passages",
    "retrieved_passages",
    "shared_topic",
    "statements",
]

_PASSAGE_TOOLS = ("search_evidence", "get_source")


def retrieved_passages(envelopes: Iterable[Mapping[str, Any] | Envelope]) -> list[Passage]:
    """Each distinct retrieved passage once, in the order the run saw them."""
    seen: set[tuple[str, str]] = set()
    out: list[Passage] = []
    for env in read_envelopes(envelopes):
        if env.error or env.tool not in _PASSAGE_TOOLS:
            continue
        for item in env.results:
            text = item.snippet
            for sid in item.source_ids:
                if not text.strip() or (sid, text) in seen:
                    continue
                seen.add((sid, text))
                out.append(
                    Passage(
                        source_id=sid,
                        text=text,
                        title=item.title,
                        validity=item.validity or Validity(),
                    )
                )
    return out


def resting_passages(claims: Sequence[Claim], store: KnowledgeStore) -> list[Passage]:
    """The chunk each kept claim rests on, once each, in the claims' order."""
    chunks: dict[str, list[str]] = {}
    out: list[Passage] = []
    seen: set[tuple[str, str]] = set()
    for claim in claims:
        if claim.status == "removed":
            continue
        terms = content_terms(claim.text)
        best: tuple[str, str] | None = None
        best_cover = 0.0
        for sid in claim.citations:
            if sid not in chunks:
                doc = store.get_document(sid)
                chunks[sid] = [f"{c.heading}\n{c.text}" for c in chunk_document(doc)] if doc else []
            for text in chunks[sid]:
                cover = coverage(terms, text)
                if cover > best_cover:
                    best, best_cover = (sid, text), cover
        if best is None or best in seen:
            continue
        seen.add(best)
        doc = store.get_document(best[0])
        out.append(
            Passage(
                source_id=best[0],
                text=best[1],
                title=doc.title if doc else "",
                validity=doc.validity if doc else Validity(),
                role="rests",
            )
        )
    return out


def answer_passages(
    claims: Sequence[Claim], envelopes: Iterable[Mapping[str, Any] | Envelope], store: KnowledgeStore
) -> list[Passage]:
    """The passages the claims rest on, then every retrieved passage."""
    return [*resting_passages(claims, store), *retrieved_passages(envelopes)]


_MARKUP = re.compile(r"\*\*|__|^#+\s*|^\s*(?:[-*]|\d+[.)])\s+", re.M)
_ANSWER_WORD = re.compile(r"^(yes|no)[.!]?$", re.I)


def statements(text: str) -> list[str]:
    """A passage's sentences that state something: no headings, no questions; "No." joins what follows."""
    out: list[str] = []
    pending = ""
    for line in _MARKUP.sub("", text).splitlines():
        line = line.strip()
        if not line or (
            len(line.split()) <= 8 and not re.search(r"[.!;:]$|[.!]\W*$", line) and "." not in line
        ):
            continue  # a heading or a title line
        for sentence in sentences(line):
            if sentence.endswith("?"):
                continue  # a question in the source (an FAQ's) states nothing
            if _ANSWER_WORD.match(sentence):
                pending = sentence + " "
                continue
            out.append(pending + sentence)
            pending = ""
    return out


def about_subject(question: str, passage: Passage) -> bool:
    """Whether the passage (with its title) speaks of every name the question gives.

    A name is a run of capitalised words, the question's opening word left out ("Hollin
    Ridge", "Harrow Blue", "Ostrum Green" in "Does Ostrum Green contain chromium?"); the
    passage holds all of a name of one or two words, and half of a longer one ("the
    valley" and "the park" for "Kestrel Valley Country Park"). A passage
    about another thing is no rival answer.
    """
    found = stems(f"{passage.title}\n{passage.text}")
    return all(holds_name(name, found) for name in question_names(question))


def shared_topic(left: str, right: str) -> str:
    """What two sentences are both about, in the first one's words ("Dogs on the Hollin Ridge trail")."""
    from groundgate.knowledge.ingest.contradictions import readable_topic

    return readable_topic(left, {stem(w) for w in stems(left) & stems(right)})


def dated_apart(question: str, statements_: Sequence[str]) -> bool:
    """Whether each position is dated by its own words, each to another time: a change, not a dispute.

    "Until 31 March 2025: £9.40" and "From 1 April 2025: £10.20" give one fare at two
    times. Not for a question that asks for a time: then the times are the answers.
    """
    if question and analyse(question).asks == "date":
        return False
    times = []
    for statement in statements_:
        stated = {d.isoformat() for _, d in find_dates(statement)} or {str(y) for y in find_years(statement)}
        if not stated:
            return False
        times.append(frozenset(stated))
    return len(set(times)) == len(times) and not any(
        a & b for i, a in enumerate(times) for b in times[i + 1:])

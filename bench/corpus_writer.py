"""Writes the synthetic corpus: documents, glossaries and declared knowledge, seeded.

``generate(chunks, out, seed=...)`` is what ``bench/scale.py`` and
``bench/bench_knowledge.py`` call; the same seed and size always give byte-identical files.
What it draws from is ``corpus_words.py``.
"""

from __future__ import annotations

import json
import random
import re
import shutil
from datetime import date, timedelta
from pathlib import Path

from corpus_words import (
    CODES,
    DOC_KINDS,
    DOMAIN,
    ENTITY_KINDS,
    FUNCTION,
    OWNERS,
    RELATIONSHIP_TYPES,
    Corpus,
    EntitySpec,
    Vocabulary,
)

__all__ = ["generate"]


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


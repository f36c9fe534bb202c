"""The gate's guarantee, in ids, checked by one pure function that returns a frozen verdict.

- **G1** Every open register entry that applies is shown with all its positions and their
  sources: in full when it bears on the question, as a note when only the answer speaks to it.
- **G2** No sentence the answer shows states or implies one position as the answer, rests
  only on one position's sources, or says an open entry is resolved.
- **G3** Every citation is a source the run retrieved, or one the register supplied and that
  is labelled as such (``Citation.supplied_by``).
- **G4** Every insufficient flag and tripped bound is surfaced.
- **G5** Text inside documents never changes the register, an entry's status, or the gate:
  what the answer shows of an entry is what the register holds, and no sentence the answer
  shows speaks for the register or the gate.

This module is where the decision lives. `applicable` is the one definition of whether an
entry bears on the question or the answer (`docs/gate.md`), `check` tests a finished answer
against G1-G5, and `carries_instructions` reads a document for text addressed to the
model. The gate (`policies/apply.py`) composes, calls `check`, and acts on every violation;
it decides nothing this module does not. The judgements are lexical (words, ids, names).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from groundgate.answer.model import Answer, Claim, ContestedPoint
from groundgate.knowledge.model import Contradiction, Position
from groundgate.knowledge.port import KnowledgeStore
from groundgate.knowledge.text import content_terms, coverage, key_parts, stem, stems, term_covered
from groundgate.policies.honesty import bound_note, failure_notes, insufficient_notes

__all__ = [
    "Applicable",
    "InvariantVerdict",
    "Register",
    "RunTrace",
    "Violation",
    "applicable",
    "asks_for_verdict",
    "bears_on_question",
    "carries_instructions",
    "check",
    "disputed_axis",
    "touched_ids",
]

Invariant = Literal["G1", "G2", "G3", "G4", "G5"]

TOPIC_OVERLAP = 0.6
"""Share of an entry's topic words a sentence must hold to restate the disputed topic."""
POSITION_OVERLAP = 0.5
"""Share of a position's words a sentence (or a passage) must hold to restate it."""
POSITION_ECHOED = 1 / 3
"""Share of a position's words a passage naming one of the entry's entities must hold."""
PASSAGE_TOPIC = 0.67
"""Share of a topic's words a passage must hold to be about the topic."""
NAMED_TOPIC = 1 / 3
"""Share of a topic's words a yes/no question naming one of the entry's entities must hold."""
DRAFT_TOPIC = 0.67
"""Share of a topic's words the answer's sentences together must hold to be about the topic."""
QUESTION_FIT = 0.5
"""Share of the question's words a passage must hold to be about the question."""
VERDICT_RESTATED = 0.5
"""Share of what a yes/no question asks beyond the topic a sentence must restate to answer it."""
DISTINCT_TERMS = 3
"""Words found in one position and no other (its sources' names aside) that mark a sentence as
that position's paraphrase; one is enough in a sentence that names the position's source."""


@dataclass(frozen=True)
class Violation:
    """One breach of the guarantee: which invariant, where, and why."""

    invariant: Invariant
    sentence: str
    """The sentence at fault (G2, G3, G5), the entry's topic (G1) or the missing note (G4)."""
    reason: str
    entry_id: str | None = None
    """The register entry concerned, if any."""
    applies_by: Literal["question", "answer"] | None = None
    """For G1: whether the entry bears on the question (shown in full) or only on the answer."""

    def to_json(self) -> dict[str, Any]:
        """The violation as plain data (answer extras, traces)."""
        return {k: v for k, v in self.__dict__.items() if v is not None}


@dataclass(frozen=True)
class RunTrace:
    """What the run did, as far as the guarantee needs it."""

    question: str
    retrieved: frozenset[str] = frozenset()
    """Source ids any tool result of the run named."""
    touched: frozenset[str] = frozenset()
    """Entity ids the run resolved, found or walked."""
    insufficient: tuple[str, ...] = ()
    """One note per insufficient or failed tool call."""
    failures: tuple[str, ...] = ()
    """The notes of failed tool calls (the rest are lookups that found nothing)."""
    bound: str | None = None
    """The note of the bound that stopped the run, if one did."""
    rests_on: Mapping[str, str] = field(default_factory=dict)
    """Claim text to the passage of its cited sources it rests on."""
    detected: frozenset[str] = frozenset()
    """Open entries the run's detector says bear on the answer (``Detector.bearing``)."""

    @classmethod
    def of(
        cls, question: str, envelopes: Iterable[dict[str, Any]], *,
        bound_tripped: dict[str, Any] | None = None, rests_on: Mapping[str, str] | None = None,
        detected: Iterable[str] = (),
    ) -> RunTrace:
        """The trace of a run from its envelopes."""
        envelopes = list(envelopes)
        retrieved: set[str] = set()
        for env in envelopes:
            if env.get("error"):
                continue
            for item in env.get("results", ()):
                retrieved.update(item.get("source_ids") or ())
                for position in (item.get("data") or {}).get("positions", []) or []:
                    retrieved.update(position.get("source_ids", []))
        return cls(
            question=question, retrieved=frozenset(retrieved), touched=frozenset(touched_ids(envelopes)),
            insufficient=tuple(insufficient_notes(envelopes)), bound=bound_note(bound_tripped),
            failures=tuple(failure_notes(envelopes)),
            rests_on=dict(rests_on or {}), detected=frozenset(detected),
        )


_ENTITY_TOOLS = ("resolve_entity", "search_knowledge", "traverse", "timeline")


def touched_ids(envelopes: Iterable[dict[str, Any]]) -> set[str]:
    """Entity ids the run resolved, found or walked (not every passage it skimmed)."""
    ids: set[str] = set()
    for env in envelopes:
        if env.get("error") or env["tool"] not in _ENTITY_TOOLS:
            continue
        if env["tool"] in ("traverse", "timeline"):
            ids.add(str((env.get("args") or {}).get("entity_id", "")))
        if env["tool"] != "timeline":
            ids.update(item["id"] for item in env.get("results", ()))
    ids.discard("")
    return ids


@dataclass(frozen=True)
class Register:
    """The contradiction register as the gate reads it: every entry and its entities' names."""

    entries: tuple[Contradiction, ...]
    names: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Entity id to its name and aliases."""
    titles: Mapping[str, str] = field(default_factory=dict)
    """Position source id to its document's title."""

    @classmethod
    def read(cls, store: KnowledgeStore) -> Register:
        """Every entry (open and resolved), its entities' names and its sources' titles.

        Raises:
            StoreError: The register cannot be read.
        """
        entries = tuple(store.contradictions(status=None))
        names: dict[str, tuple[str, ...]] = {}
        for entity_id in dict.fromkeys(e for entry in entries for e in entry.entity_ids):
            entity = store.get_entity(entity_id)
            if entity is not None:
                names[entity_id] = tuple(n for n in (entity.name, *entity.aliases) if n.strip())
        titles = {}
        for sid in dict.fromkeys(s for entry in entries for s in entry.source_ids):
            doc = store.get_document(sid)
            if doc is not None:
                titles[sid] = doc.title
        return cls(entries=entries, names=names, titles=titles)

    @property
    def open(self) -> tuple[Contradiction, ...]:
        """The entries nobody has resolved."""
        return tuple(e for e in self.entries if e.status == "open")

    def entry(self, entry_id: str | None) -> Contradiction | None:
        """The entry with this id, if the register holds it."""
        return next((e for e in self.entries if entry_id and e.id == entry_id), None)

    def names_of(self, entry: Contradiction) -> tuple[str, ...]:
        """The names and aliases of the entry's entities."""
        return tuple(n for e in entry.entity_ids for n in self.names.get(e, ()))


@dataclass(frozen=True)
class Applicable:
    """Which open entries apply to an answer, and how (G1)."""

    question: tuple[Contradiction, ...] = ()
    """Entries that bear on the question: presented in full, no side taken."""
    answer: tuple[Contradiction, ...] = ()
    """Entries the answer speaks to that the question does not turn on: shown as a note."""
    nearby: tuple[Contradiction, ...] = ()
    """Entries whose entities or position sources the run touched and nothing in the answer speaks
    to (trace only)."""


@dataclass(frozen=True)
class InvariantVerdict:
    """Whether an answer keeps G1-G5; the caller acts on the violations."""

    violations: tuple[Violation, ...]
    applicable: Applicable

    @property
    def holds(self) -> bool:
        """Whether no invariant is violated."""
        return not self.violations

    def of(self, *invariants: Invariant) -> tuple[Violation, ...]:
        """The violations of the given invariants."""
        return tuple(v for v in self.violations if v.invariant in invariants)

    def to_json(self) -> dict[str, Any]:
        """The verdict as plain data (answer extras, traces)."""
        return {
            "holds": self.holds,
            "violations": [v.to_json() for v in self.violations],
            "applies": {
                "question": [e.id for e in self.applicable.question],
                "answer": [e.id for e in self.applicable.answer],
                "nearby": [e.id for e in self.applicable.nearby],
            },
        }


# -- whether an entry bears on the question or the answer (the one definition) --------------

_VERDICT_OPENERS = frozenset(
    "is are was were am do does did should shall can could will would must may might has have had".split()
)


def asks_for_verdict(question: str) -> bool:
    """Whether the question is a yes/no question.

    It is when it, or a clause after its first comma, opens with an auxiliary verb
    ("Was ...", "On claim CLM-1190, is ...", "Could you ...").
    """
    clauses = [question, *question.split(",", 1)[1:]]
    return any((words := clause.split()) and words[0].lower() in _VERDICT_OPENERS for clause in clauses)


def disputed_axis(entry: Contradiction) -> set[str]:
    """Words every position uses that the topic does not: what the positions argue over.

    "Handlers need no separate approval" and "covered only with prior written approval"
    share "approval" beyond the topic "whether trace-and-access costs are automatically
    included"; a question about approval asks about the split even without the topic's words.
    """
    if len(entry.positions) < 2:
        return set()
    shared = set.intersection(*({stem(t) for t in content_terms(p.statement)} for p in entry.positions))
    return shared - {stem(t) for t in content_terms(entry.topic)}


def _words(text: str) -> str:
    return " " + " ".join(key_parts(text)) + " "


def _names_in(names: Iterable[str], text: str) -> bool:
    words = _words(text)
    return any(_words(name) in words for name in names if key_parts(name))


def _question_bears(entry: Contradiction, question: str, threshold: float) -> bool:
    """The question covers the topic, or asks about what the positions argue over."""
    terms = content_terms(entry.topic)
    if terms and coverage(terms, question) >= threshold:
        return True
    return bool(disputed_axis(entry) & {stem(t) for t in content_terms(question)})


def _states_the_point(entry: Contradiction, passage: str, names: Sequence[str]) -> bool:
    """A passage covers the topic, restates a position, or names an entity while echoing one."""
    topic = content_terms(entry.topic)
    if topic and coverage(topic, passage) >= PASSAGE_TOPIC:
        return True
    echo = max((coverage(content_terms(p.statement), passage) for p in entry.positions), default=0.0)
    if echo >= POSITION_OVERLAP:
        return True
    return echo >= POSITION_ECHOED and _names_in(names, passage)


def states_point_for(
    entry: Contradiction, question: str, passages: Iterable[str], names: Sequence[str]
) -> bool:
    """Whether a passage about the question states the entry's point."""
    asked = content_terms(question)
    about = [p for p in passages if p and coverage(asked, p) >= QUESTION_FIT]
    return any(_states_the_point(entry, passage, names) for passage in about)


def _verdict_rests_on(entry: Contradiction, trace: RunTrace, names: Sequence[str]) -> bool:
    """A yes/no question's verdict depends on the entry: a passage it rests on states the point."""
    return states_point_for(entry, trace.question, trace.rests_on.values(), names)


def _verdict_turns_on(entry: Contradiction, question: str, said: Sequence[str]) -> bool:
    """A yes/no question's verdict, as the answer gives it, turns on the entry.

    It does when a sentence about the question speaks to what the positions argue over
    ("... so no written approval was needed"), names the entry, or has its owner rule on it.
    """
    asked = content_terms(question)
    axis = disputed_axis(entry)
    owner = [entry.owner] if entry.owner else []
    for sentence in said:
        if coverage(asked, sentence) < QUESTION_FIT:
            continue
        if axis & _term_stems(sentence) or _about(sentence, entry, ()):
            return True
        if _names_in(owner, sentence) and (_SETTLED.search(sentence) or _PRECEDENCE.search(sentence)):
            return True
    return False


def bears_on_question(
    entry: Contradiction, trace: RunTrace, names: Sequence[str], threshold: float, said: Sequence[str] = ()
) -> bool:
    """Whether the question turns on the entry.

    It does when the question covers the topic or asks about the axis, or, for a yes/no
    question, when it names one of the entry's entities and holds ``NAMED_TOPIC`` of the
    topic ("Should the customer on claim CLM-1190 get all 14 kitchen units replaced?"), a
    passage the answer rests on states the point, or the answer's verdict turns on it.
    """
    if _question_bears(entry, trace.question, threshold):
        return True
    if not asks_for_verdict(trace.question):
        return False
    # the topic beyond the entity's own name: naming the product is not asking about its charge time
    named = {w for name in names for w in key_parts(name)}
    topic = [t for t in content_terms(entry.topic) if not set(key_parts(t)) <= named]
    if _names_in(names, trace.question) and topic and coverage(topic, trace.question) >= NAMED_TOPIC:
        return True
    return _verdict_rests_on(entry, trace, names) or _verdict_turns_on(entry, trace.question, said)


_DISPUTE_TALK = re.compile(
    r"\b(?:positions?|disagree(?:s|d|ment|ments)?|dispute[sd]?|disputing|contradict(?:s|ed|ion|ions)?|"
    r"contested|conflict(?:s|ing)?|register|sides?|undecided|unresolved|debate[sd]?|controvers(?:y|ial))\b",
    re.I,
)
"""Words that talk about a disagreement rather than about the world."""
_SETTLED = re.compile(
    r"\b(?:resolved|resolution|settled|decided|closed|concluded|withdrawn|retracted|overruled|overturned|"
    r"out[- ]of[- ]date|outdated|obsolete|no longer|in favou?r of|prevails?|takes? precedence|"
    r"final (?:decision|ruling|word|answer)|ruled|ruling|binding|agreed|confirmed|upheld)\b", re.I,
)
"""Words that say a question has been decided."""
_PRECEDENCE = re.compile(
    r"\b(?:only|sole) (?:current|valid|applicable|binding|relevant) "
    r"(?:rule|source|document|guidance|position)"
    r"|\bno longer (?:applies|apply|in force|valid|current|relevant)|\b(?:takes?|has|have) precedence"
    r"|\bprevails?\b|\boverrides?\b|\bsupersedes?\b|\b(?:is|are) (?:the )?(?:authoritative|binding)\b"
    r"|\bhas been (?:replaced|superseded|withdrawn|retired)", re.I,
)
"""Words that settle a disagreement by ranking its sources ("CHG-04 is the only current rule")."""
_SETTLED_WHAT = re.compile(
    r"\b(?:matter|question|issue|point|debate|dispute|disagreement|positions?|register|committee|board)\b"
    r"|^\W*(?:it|this|that|these|they|which)\b", re.I,
)
"""What a sentence says was settled when it is the disagreement ("The matter has been settled").
A claim that was "settled 2 May 2025" (paid) is not."""


def _about(sentence: str, entry: Contradiction, names: Sequence[str]) -> tuple[str, bool] | None:
    """Why a sentence is about the entry itself, and whether saying so takes a side.

    Naming the entry takes a side (only the gate speaks of register entries), as does
    saying the dispute over its subject is settled; naming its subject while speaking of
    "the dispute" only mentions it. ``None`` when the sentence is not about the entry.
    """
    if entry.id and re.search(rf"(?<![\w-]){re.escape(entry.id)}(?![\w-])", sentence, re.I):
        return f"it names {entry.id}", True
    if _names_in(names, sentence) and _DISPUTE_TALK.search(sentence):
        if _SETTLED.search(sentence):
            return "it says the disagreement is settled, which the register does not", True
        return "it speaks of the disagreement", False
    return None


def _restates(sentence: str, entry: Contradiction) -> str | None:
    """Why a sentence restates the entry's topic or one of its positions; ``None`` when it does not."""
    topic = content_terms(entry.topic)
    if topic and coverage(topic, sentence) >= TOPIC_OVERLAP:
        return "it restates the disputed topic"
    for number, position in enumerate(entry.positions, start=1):
        terms = content_terms(position.statement)
        if terms and coverage(terms, sentence) >= POSITION_OVERLAP:
            return f"it restates position {number}"
    return None


def applicable(
    register: Register, trace: RunTrace, sentences: Iterable[str], *, threshold: float = 0.5
) -> Applicable:
    """Which open entries apply (G1): by the question, by the answer's sentences, or by touch only.

    An entry applies by the question when the rules of ``bears_on_question`` say so or the
    run's detector said it bears on the answer (``trace.detected``: the detector read the
    passages the answer rests on, which may state the entry's point in other words).

    The answer applies an entry when its sentences together hold ``DRAFT_TOPIC`` of the
    topic's words, or one of them is about the entry itself (names it, or names its subject
    while speaking of "the dispute").

    ``sentences`` are the answer's own sentences (what grounding kept, before the gate
    withheld anything): an entry the draft spoke to applies even once those sentences go.
    """
    said = list(sentences)
    together = " ".join(said)
    question, answer, nearby = [], [], []
    for entry in register.open:
        names = register.names_of(entry)
        topic = content_terms(entry.topic)
        if entry.id in trace.detected or bears_on_question(entry, trace, names, threshold, said):
            question.append(entry)
        elif (topic and coverage(topic, together) >= DRAFT_TOPIC) or any(
            _about(s, entry, names) for s in said
        ):
            answer.append(entry)
        elif (set(entry.entity_ids) | set(entry.source_ids)) & trace.touched:
            nearby.append(entry)
    return Applicable(tuple(question), tuple(answer), tuple(nearby))


# -- whether a sentence takes a side (G2) or speaks for the register (G5) --------------------

_LEAD = re.compile(
    r"^(?:(?:so|in short|in brief|overall|simply put|basically|short answer|the answer is|"
    r"to answer your question|well)\s*(?:[,:—–-]\s*)?)*(?P<word>[a-z]+(?:\s(?:at\sall|course))?)\b", re.I,
)
"""A sentence's opening word after fillers ("In short, yes"); each filler is read one way only."""
_VERDICT_WORDS = frozenset(
    "yes no yeah yep nope correct incorrect true false right wrong indeed absolutely certainly "
    "definitely sure naturally affirmative negative".split()
) | {"not at all", "of course"}


def _verdict_lead(sentence: str) -> str | None:
    """Why a sentence opens with a verdict ("Yes.", "In short, no:"); ``None`` when it does not."""
    lead = _LEAD.match(sentence.strip(" \"'“(["))
    if lead and lead.group("word").lower() in _VERDICT_WORDS:
        return f"it opens with a verdict ({lead.group('word')})"
    if re.search(r"\bthe answer is (?:yes|no)\b", sentence, re.I):
        return "it gives a verdict"
    return None


def _verdict(sentence: str, question: str, entry: Contradiction) -> str | None:
    """Why a sentence answers the yes/no question itself; ``None`` when it does not."""
    topic = stems(entry.topic)
    asked = [t for t in content_terms(question) if not term_covered(t, topic)]
    if asked and coverage(asked, sentence) >= VERDICT_RESTATED:
        return "it restates what the yes/no question asks"
    own = content_terms(sentence)
    asked_all = content_terms(question)
    if coverage(asked_all, sentence) >= VERDICT_RESTATED and coverage(own, question) >= VERDICT_RESTATED:
        return "it restates the yes/no question's proposition"  # and says little else: an answer to it
    if not own or all(term_covered(t, stems(question) | topic) for t in own):
        return "it only echoes the yes/no question"
    return None


def _term_stems(text: str) -> set[str]:
    """Stems of a text's content words, hyphenated words kept whole (as ``disputed_axis`` reads them)."""
    return {stem(t) for t in content_terms(text)}


_CAPITALISED = re.compile(r"[A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*)+|\b[A-Z][A-Z0-9]+(?:-[A-Z0-9]+)*\b")
"""Runs of two or more capitalised words ("Home Plus"), and codes or acronyms ("CHG-04", "FAQ")."""
_ARTICLES = frozenset({"the", "a", "an", "our", "this", "that"})


def _source_names(position: Position, titles: Mapping[str, str]) -> tuple[set[str], list[str]]:
    """The words that name a position's sources, and the phrases by which a sentence names them.

    "The Home Plus policy wording covers ..." from "Harbourline Home Plus Policy Wording":
    the title's words and the statement's capitalised runs name the source; a sentence names
    it by a source id, a code or acronym ("CHG-04", "FAQ") or two capitalised words in a row.
    """
    texts = [position.statement, *(titles.get(s, "") for s in position.source_ids)]
    words = {stem(part) for text in texts[1:] for part in key_parts(text)}
    phrases = list(position.source_ids)
    for text in texts:
        for match in _CAPITALISED.finditer(text):
            run = [w for w in match.group(0).split() if w.lower() not in _ARTICLES]
            words.update(stem(p) for w in run for p in key_parts(w))
            if len(run) == 1 and (any(c.isdigit() for c in run[0]) or run[0].isupper()):
                phrases.append(run[0])
            phrases.extend(" ".join(pair) for pair in zip(run, run[1:], strict=False))
    return words, phrases


def _distinct(entry: Contradiction, titles: Mapping[str, str]) -> list[tuple[set[str], list[str]]]:
    """Per position: the stems it uses and no other does, beyond its sources' names; and those names."""
    sets = [_term_stems(p.statement) for p in entry.positions]
    out = []
    for i, (own, position) in enumerate(zip(sets, entry.positions, strict=True)):
        named, phrases = _source_names(position, titles)
        others = set().union(*(o for j, o in enumerate(sets) if j != i))
        out.append(({t for t in own - others if not {stem(p) for p in key_parts(t)} <= named}, phrases))
    return out


def _one_side(citations: Sequence[str], entry: Contradiction) -> int | None:
    """The position whose sources are all a sentence cites, if only one position's are."""
    if not citations:
        return None
    sides = [n for n, p in enumerate(entry.positions, start=1) if set(citations) <= set(p.source_ids)]
    return sides[0] if len(sides) == 1 else None


def _takes_side(
    claim: Claim, entry: Contradiction, register: Register, question: str, bears: bool
) -> str | None:
    """Why a shown sentence takes a side on the entry (G2); ``None`` when it does not.

    On an entry the question turns on, the question gives the subject: any talk of the
    disagreement, of its being settled, or of what the positions argue over takes a side,
    as do a yes/no verdict, a paraphrase of one position and a sentence resting only on one
    position's sources. On any other entry a sentence must be about the entry itself.
    """
    text = claim.text
    names = register.names_of(entry)
    about = _about(text, entry, names)
    if about and (about[1] or bears):
        return about[0]
    if why := _restates(text, entry):
        return why
    axis = disputed_axis(entry) & _term_stems(text)
    if axis and (bears or _names_in(names, text)):
        return f"it speaks to what the positions argue over ({', '.join(sorted(axis))})"
    if not bears:
        return None
    if _DISPUTE_TALK.search(text):
        return "it speaks of the disagreement, which only the gate presents"
    owner = [entry.owner] if entry.owner else []
    if _SETTLED.search(text) and (_SETTLED_WHAT.search(text) or _names_in(owner, text)):
        return "it says the question is settled, which the register does not"
    if _PRECEDENCE.search(text):
        return "it ranks one source over another, which settles what the register leaves open"
    if why := _verdict_lead(text):
        return why
    if asks_for_verdict(question) and (why := _verdict(text, question, entry)):
        return why
    own = _term_stems(text)
    for number, (distinct, phrases) in enumerate(_distinct(entry, register.titles), start=1):
        said = len(distinct & own)
        if said >= DISTINCT_TERMS or (said and _names_in(phrases, text)):
            return f"it paraphrases position {number}"
    side = _one_side(claim.citations, entry)
    if side is not None:
        return f"it rests only on the sources of position {side}"
    return None


_REGISTER_TALK = re.compile(
    r"\b(?:(?:contradiction |disagreement )?register|the gate|this gate|policy layer)\b[^.]{0,80}?"
    r"\b(?:out[- ]of[- ]date|outdated|obsolete|stale|wrong|incorrect|"
    r"updated?|changed?|closed|resolved|disabled|off|does not apply|no longer|superseded|replaced|ignored?)\b"
    r"|\b(?:update|change|correct|overwrite|ignore|disable)\b[^.]{0,40}\b(?:register|gate)\b", re.I,
)
"""A sentence that speaks for the register or the gate ("The contradiction register is out of date")."""


def _speaks_for_register(sentence: str) -> bool:
    return bool(_REGISTER_TALK.search(sentence))


_INSTRUCTIONS = (
    re.compile(r"\bignore (?:all |any |the )?(?:previous|prior|above|earlier|other|your) "
               r"(?:instructions|rules|guidance|prompts?)\b", re.I),
    re.compile(r"\b(?:ai|a\.i\.|language model|llm|chat ?bot|assistants?|answering model|the model|"
               r"any system|any model)\b[^.\n]{0,60}\b(?:must|should|shall|need to|needs to|are to|is to|"
               r"reading this|answer|tell|cite|say|present)\b", re.I),
    re.compile(r"\bnote to (?:the |any )?(?:ai|assistants?|models?|systems?)\b", re.I),
    re.compile(r"^\s*(?:system|assistant|instructions?)\s*:", re.I | re.M),
    re.compile(r"\b(?:begin|start|end) your (?:answer|response|reply)\b|\byour (?:answer|response|reply) "
               r"(?:must|should)\b", re.I),
    re.compile(r"\b(?:update|change|overwrite|correct) (?:its|your|their|the) "
               r"(?:contradiction )?register\b", re.I),
)


def carries_instructions(text: str) -> bool:
    """Whether a document's text carries instructions addressed to the model reading it.

    "Ignore previous instructions", "Note to any AI assistant", "Assistants must cite this",
    "SYSTEM: ...", "Begin your answer with", "update its register": a document is data,
    and what it tells a reader to do is never done (G5).
    """
    return any(p.search(text) for p in _INSTRUCTIONS)


# -- the check -------------------------------------------------------------------------------


def _as_entry(point: ContestedPoint) -> Contradiction:
    """A disagreement found in the evidence, read like a register entry (no id)."""
    return Contradiction(
        id=point.contradiction_id or "", topic=point.topic,
        positions=tuple(Position(statement=p.statement, source_ids=p.source_ids) for p in point.positions),
    )


def _shows(point: ContestedPoint, entry: Contradiction) -> bool:
    """Whether a presented point is the register's entry as the register holds it."""
    return (
        point.topic == entry.topic and point.owner == entry.owner and point.status == "open"
        and [(p.statement, tuple(p.source_ids)) for p in point.positions]
        == [(p.statement, tuple(p.source_ids)) for p in entry.positions]
    )


def _in_text(point: ContestedPoint, text: str) -> bool:
    return all(p.statement in text and all(s in text for s in p.source_ids) for p in point.positions)


def check(
    answer: Answer, trace: RunTrace, register: Register, *, topic_relevance: float = 0.5
) -> InvariantVerdict:
    """Check a finished answer against G1-G5; pure, so any caller can use it on any answer.

    Args:
        answer: The answer as the user gets it (``claims`` still hold what the gate withheld).
        trace: What the run retrieved, touched and flagged.
        register: The register and its entities' names.
        topic_relevance: Share of a topic's words the question must hold for the entry to bear.
    """
    said = [c.text for c in answer.claims if c.grounded_by != "none" or c.status == "flagged"]
    applies = applicable(register, trace, said, threshold=topic_relevance)
    shown = [c for c in answer.claims if c.status != "removed"]
    found: list[Violation] = []
    by_id = {p.contradiction_id: p for p in answer.contested if p.contradiction_id}
    asides = {p.contradiction_id: p for p in answer.asides if p.contradiction_id}

    ways: tuple[tuple[Literal["question", "answer"], tuple[Contradiction, ...]], ...] = (
        ("question", applies.question), ("answer", applies.answer),
    )
    for how, entries in ways:
        for entry in entries:
            point = by_id.get(entry.id) or (asides.get(entry.id) if how == "answer" else None)
            if point is None or not _in_text(point, answer.text):
                found.append(Violation(
                    "G1", entry.topic, f"{entry.id} applies (by the {how}) but the answer does not show "
                    "every position with its sources", entry.id, how,
                ))
    for point in (*answer.contested, *answer.asides):
        held = register.entry(point.contradiction_id)
        if point.contradiction_id and (held is None or held.status != "open" or not _shows(point, held)):
            found.append(Violation(
                "G5", point.topic, f"{point.contradiction_id} is shown other than the register holds it",
                point.contradiction_id,
            ))

    bearing = [(e, True) for e in applies.question] + [(e, False) for e in applies.answer]
    bearing += [(_as_entry(p), True) for p in answer.contested if not p.contradiction_id]
    for claim in shown:
        if _speaks_for_register(claim.text):
            found.append(Violation("G5", claim.text, "it speaks for the register or the gate"))
            continue
        for entry, bears in bearing:
            why = _takes_side(claim, entry, register, trace.question, bears)
            if why:
                found.append(Violation("G2", claim.text, why, entry.id or None))
                break
        unknown = [s for s in claim.citations if s not in trace.retrieved]
        if unknown:
            found.append(Violation(
                "G3", claim.text, f"it cites {', '.join(unknown)}, which the run never retrieved",
            ))

    supplied = {p.contradiction_id: {s for pos in p.positions for s in pos.source_ids}
                for p in (*answer.contested, *answer.asides) if p.contradiction_id}
    for citation in answer.citations:
        if citation.source_id in trace.retrieved:
            continue
        if citation.supplied_by not in supplied or citation.source_id not in supplied[citation.supplied_by]:
            found.append(Violation(
                "G3", citation.source_id, "never retrieved, and not labelled as the register's",
            ))

    for note in (*([trace.bound] if trace.bound else []), *trace.insufficient):
        # a lookup that found nothing is said in the text when the answer is missing; a failure
        # or a bound always
        quiet = answer.answered and note not in trace.failures and note != trace.bound
        surfaced = note in answer.text or quiet
        if note not in answer.insufficient or not surfaced:
            found.append(Violation("G4", note, "the answer does not surface this flag or bound"))
    return InvariantVerdict(violations=tuple(found), applicable=applies)

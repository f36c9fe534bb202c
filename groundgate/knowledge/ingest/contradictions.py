"""The ingest-time contradiction detector.

Two sentences from different documents conflict when they state different values of the
same unit about nearly the same subject (the same words, give or take a couple), while
both documents are valid at the same time and neither supersedes the other. Extra
qualifiers ("on new business in zone H3") change the subject, so scoped rules do not
collide with general ones. The detector only ever opens entries; a person resolves them.

That is the lexical reading. Any detector of the gate's protocol (``PolicySet.detector``:
semantic, a model judge) can read the same corpus at ingest (``ingest(..., detector=)``,
``knowledge/ingest/detected.py``); whatever finds it, an entry is made by
``detected_entry``: origin ``detected``, status ``open``, never resolved.
"""

from __future__ import annotations

import bisect
import hashlib
import re
from array import array
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping
from datetime import date, datetime

from groundgate.knowledge.ingest.extract import ValueStatement
from groundgate.knowledge.ingest.scratch import Scratch, StatementRow
from groundgate.knowledge.model import Contradiction, Position, Validity
from groundgate.knowledge.text import stem

__all__ = ["detect_contradictions", "detected_entry", "normal_value", "values_key"]

MIN_SHARED_WORDS = 3
MAX_DIFFERENT_WORDS = 2
MIN_JACCARD = 0.6
MAX_POSITIONS = 4
"""A subject stated with more different values than this is a property of many things
("the loan period for item 7 is 14 days", one document per item), not one disagreement:
no register entry could present that many positions, and pairing them is quadratic."""


def normal_value(unit: str, value: str) -> str:
    """A value in one spelling: dates as ISO, numbers without trailing zeros."""
    if unit != "date":
        return value.rstrip("0").rstrip(".") if "." in value else value
    for fmt in ("%Y-%m-%d", "%d %B %Y", "%d %b %Y", "%B %d, %Y", "%B %d %Y", "%b %d, %Y"):
        try:
            return datetime.strptime(value.replace(".", ""), fmt).date().isoformat()
        except ValueError:
            continue
    return value


_JOINERS = frozenset("of for the in on at to a an and with by".split())


def readable_topic(sentence: str, subject: frozenset[str] | set[str]) -> str:
    """The words of ``sentence`` that make up a subject, in its order and spelling.

    Function words between two subject words stay ("late fee for printed books"), so the
    register reads as prose rather than as stems.
    """
    words = re.findall(r"[A-Za-z][A-Za-z'\-]*", sentence)
    kept = [stem(w.lower()) in subject for w in words]
    last = max((i for i, k in enumerate(kept) if k), default=-1)
    out: list[str] = []
    for i, word in enumerate(words[: last + 1]):
        if kept[i] or (out and word.lower() in _JOINERS and any(kept[i + 1 : last + 1])):
            out.append(word)
    while out and out[-1].lower() in _JOINERS:
        out.pop()
    return " ".join(out[:14]) or "conflicting values"


_OWN_TIME = re.compile(r"\b(?:next|previous|last|following|upcoming)\s+(?:\*\*)?[a-z]", re.I)
"""A subject dated by its own document: "Next meeting: Monday 17 March 2025" in one set of
minutes and "Next meeting: Monday 12 May 2025" in the next are two meetings."""
_PRONOUN_SUBJECT = re.compile(
    r"(?:^|[.;:]\s+|,\s+(?:and|but|then)\s+|\b(?:and|but)\s+)(?:he|she|it|they)\s+[a-z]", re.I
)


def _title_key(title: str) -> str:
    return " ".join(title.lower().split())


def _similar(left: tuple[str, ...], right: tuple[str, ...]) -> bool:
    a, b = frozenset(left), frozenset(right)
    shared = a & b
    if len(shared) < MIN_SHARED_WORDS:
        return False
    return len(a ^ b) <= MAX_DIFFERENT_WORDS and len(shared) / len(a | b) >= MIN_JACCARD


def _similar_pairs(subjects: list[tuple[str, ...]]) -> Iterator[tuple[int, int]]:
    """Index pairs ``i < j`` that can pass :func:`_similar`, and a few that cannot.

    Prefix filtering, so that the detector is not quadratic in the number of statements:
    order every subject's words by how few subjects use them (ties by the word). Similar
    subjects share at least ``max(len) - MAX_DIFFERENT_WORDS`` words, and two sets that
    share ``t`` words have intersecting prefixes of ``len - t + 1`` words in that order,
    so only pairs whose first ``MAX_DIFFERENT_WORDS + 1`` rarest words meet can be
    similar. Subjects with fewer than ``MIN_SHARED_WORDS`` words match nothing.
    """
    frequency: Counter[str] = Counter(word for subject in subjects for word in subject)
    prefix_size = MAX_DIFFERENT_WORDS + 1
    # Tuples and arrays of machine integers: a corpus of a million chunks has about as many
    # subjects, and lists of Python ints for them cost a gigabyte more than these.
    postings: dict[str, array[int]] = defaultdict(lambda: array("q"))
    prefixes: list[tuple[str, ...]] = []
    for index, subject in enumerate(subjects):
        if len(subject) < MIN_SHARED_WORDS:
            prefixes.append(())
            continue
        prefix = tuple(sorted(subject, key=lambda w: (frequency[w], w))[:prefix_size])
        prefixes.append(prefix)
        for word in prefix:
            postings[word].append(index)
    for index, prefix in enumerate(prefixes):
        later: set[int] = set()
        for word in prefix:
            posting = postings[word]
            # postings are ascending; keep only the subjects after this one
            later.update(posting[bisect.bisect_right(posting, index) :])
        for other in sorted(later):
            yield index, other


def values_key(statement: ValueStatement) -> str:
    """A statement's distinct values in one spelling, sorted: equal exactly when the sets are."""
    return "\x1f".join(sorted({normal_value(statement.unit, v) for v in statement.values}))


def _candidate_pairs(
    scratch: Scratch, unit: str, about: Mapping[str, frozenset[str]]
) -> list[tuple[int, int]]:
    """Pairs ``i < j`` of statement ids of ``unit``, in nested-loop order, that may conflict.

    Statements with the same subject and the same values never conflict, so they are
    grouped first (boilerplate repeated across documents is one group); a subject with more
    than ``MAX_POSITIONS`` different values is many things' property and pairs with nothing. Pairs come only
    from two groups with different values and similar subjects, and only between
    statements whose documents are not about disjoint things (see ``subjects`` of
    :func:`detect_contradictions`). Only those groups' statements are read back.
    """
    keys: list[tuple[tuple[str, ...], str]] = []
    members: list[str] = []
    values_of: Counter[tuple[str, ...]] = Counter()
    for subject, vals, ids in scratch.groups(unit):
        keys.append((subject, vals))
        members.append(ids)
        values_of[subject] += 1
    kept = [k for k, (subject, _) in enumerate(keys) if values_of[subject] <= MAX_POSITIONS]
    doc_of: dict[int, str] = {}

    def documents(group_ids: str) -> list[tuple[int, str]]:
        ids = Scratch.ids(group_ids)
        missing = [i for i in ids if i not in doc_of]
        if missing:
            doc_of.update(scratch.doc_ids(missing))
        return [(i, doc_of[i]) for i in ids]

    pairs: list[tuple[int, int]] = []
    for a, b in _similar_pairs([keys[k][0] for k in kept]):
        (left_subject, left_values), (right_subject, right_values) = keys[kept[a]], keys[kept[b]]
        if left_values == right_values or not _similar(left_subject, right_subject):
            continue
        right = documents(members[kept[b]])
        by_topic: dict[str, list[int]] = defaultdict(list)
        open_ended: list[int] = []
        for j, doc_id in right:
            topics = about.get(doc_id, frozenset())
            if not topics:
                open_ended.append(j)
            for topic in topics:
                by_topic[topic].append(j)
        for i, doc_id in documents(members[kept[a]]):
            topics = about.get(doc_id, frozenset())
            if topics:
                partners = set(open_ended)
                for topic in topics:
                    partners.update(by_topic.get(topic, ()))
            else:
                partners = {j for j, _ in right}
            pairs.extend((i, j) if i < j else (j, i) for j in partners)
    pairs.sort()
    return pairs


def detect_contradictions(
    scratch: Scratch,
    *,
    validity: Mapping[str, Validity],
    related: set[frozenset[str]],
    covered: set[frozenset[str]],
    entity_ids: Mapping[str, tuple[str, ...]],
    today: date,
    subjects: Mapping[str, frozenset[str]] | None = None,
    titles: Mapping[str, str] | None = None,
) -> list[Contradiction]:
    """Open entries for conflicting value statements.

    Args:
        scratch: The value statements of every document of the ingest (``scratch.py``).
        validity: Document id to its effective window (after supersession).
        related: Pairs of document ids where one supersedes the other (never conflicts).
        covered: Pairs of document ids already covered by a declared register entry.
        entity_ids: Document id to the entity ids it is about.
        today: The opening date of new entries.
        subjects: Document id to what the document is about (identifiers in its title,
            declared entity ids); two documents about disjoint things never conflict.
        titles: Document id to its title. A sentence whose subject is "he", "she", "it" or
            "they" is about its own document's subject: two such sentences from documents
            with different titles ("He joined the firm in 1972" in Karl Weber's article,
            "She joined the firm in 2004" in Rosa Lind's) are about two things.
    """
    subjects = subjects or {}
    titles = titles or {}
    found: dict[str, Contradiction] = {}
    for unit in scratch.units():
        pairs = _candidate_pairs(scratch, unit, subjects)
        for start in range(0, len(pairs), _PAIRS_READ):
            window = pairs[start : start + _PAIRS_READ]
            rows = scratch.rows(sorted({i for pair in window for i in pair}))
            for i, j in window:
                conflict = _conflict(rows[i], rows[j], validity, related, covered, subjects, titles)
                if conflict is not None:
                    entry = detected_entry(*conflict, entity_ids=entity_ids, today=today)
                    found[entry.id] = entry
    return sorted(found.values(), key=lambda c: c.id)


_PAIRS_READ = 2_000
"""Candidate pairs whose statements are read back at a time."""


def _conflict(
    left: StatementRow,
    right: StatementRow,
    validity: Mapping[str, Validity],
    related: set[frozenset[str]],
    covered: set[frozenset[str]],
    subjects: Mapping[str, frozenset[str]],
    titles: Mapping[str, str],
) -> tuple[str, list[tuple[str, tuple[str, ...]]]] | None:
    """The topic and positions of the disagreement between two statements, if they conflict."""
    pair = frozenset((left.doc_id, right.doc_id))
    if len(pair) < 2 or pair in related or pair in covered:
        return None
    left_about = subjects.get(left.doc_id, frozenset())
    right_about = subjects.get(right.doc_id, frozenset())
    if left_about and right_about and not left_about & right_about:
        return None
    if left.vals == right.vals:
        return None
    if not validity[left.doc_id].overlaps(validity[right.doc_id]):
        return None
    if not _similar(left.subject, right.subject):
        return None
    own = (_PRONOUN_SUBJECT.search(left.sentence) or _PRONOUN_SUBJECT.search(right.sentence)
           or _OWN_TIME.search(left.sentence) or _OWN_TIME.search(right.sentence))
    if own and (
        _title_key(titles.get(left.doc_id, left.doc_id))
        != _title_key(titles.get(right.doc_id, right.doc_id))
    ):
        return None  # each is about its own article's subject, or its own time
    return (
        readable_topic(left.sentence, set(left.subject) & set(right.subject)),
        [(left.sentence, (left.doc_id,)), (right.sentence, (right.doc_id,))],
    )


def detected_entry(
    topic: str, positions: list[tuple[str, tuple[str, ...]]], *, entity_ids: Mapping[str, tuple[str, ...]],
    today: date,
) -> Contradiction:
    """A register entry for a disagreement a detector found: ``detected``, ``open``, no owner.

    Its id is a hash of the positions' statements, so the same finding re-ingested is the
    same entry. Its entities are the documents' declared ones, or the documents themselves.
    """
    key = "|".join(sorted(statement for statement, _ in positions))
    sources = [sid for _, ids in positions for sid in ids]
    entities = tuple(dict.fromkeys(e for sid in sources for e in entity_ids.get(sid, ()))) or tuple(
        sorted(set(sources))
    )
    return Contradiction(
        id="CTR-D-" + hashlib.sha256(key.encode()).hexdigest()[:8],
        topic=topic,
        entity_ids=entities,
        positions=tuple(Position(statement=statement, source_ids=ids) for statement, ids in positions),
        status="open",
        owner=None,
        opened_at=today,
        origin="detected",
    )

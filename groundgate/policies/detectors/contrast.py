"""Whether two clauses that speak to the same point answer it differently.

The semantic detector finds the clauses (by meaning); this module says whether the two
answers differ, in the slot the question asks about:

- a yes/no question: one clause is negative and the other is not ("dogs are welcome" /
  "no dog may be taken"; "not", "no", "never", "without", "prohibited", "banned", ...),
  or one holds a word the other holds with a negating prefix ("signed" / "unsigned");
- a who- or which-question: the names each gives (runs of capitalised words the
  question does not hold) have nothing in common;
- a when-question: the periods each gives (a decade or century in words or digits, a
  year, a season, the years after a war) do not overlap.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from groundgate.knowledge.text import stem
from groundgate.policies.detectors.base import Kind
from groundgate.policies.stated import NAME, question_names
from groundgate.policies.wording import asks_for_verdict

__all__ = ["asked_kind", "contrast", "is_negative", "names", "overlaps", "periods"]

_NEGATORS = frozenset(
    """not no never none nothing nobody neither nor cannot without lacks lack lacking absent
    prohibited prohibit prohibits forbidden forbid forbids banned ban bans barred unable
    refused refuses excluded excludes""".split()
)
_CONTRACTED = re.compile(r"\b\w+n['’]t\b", re.I)
_WORD = re.compile(r"[a-z]+(?:['’-][a-z]+)*")
_PREFIXES = ("un", "non", "non-", "dis", "in", "im")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def is_negative(clause: str, question: str = "") -> bool:
    """Whether the clause denies, forbids or says something is absent.

    A negating word the question itself uses ("Can someone without an account ...?") is
    part of what is asked, not of the answer ("... even without an account").
    """
    asked = set(_words(question))
    return bool(_CONTRACTED.search(clause)) or any(w in _NEGATORS and w not in asked for w in _words(clause))


NEGATION_REACH = 3
"""Words either side of a negating word within which a word of the question must stand."""
_LEAD_NO = re.compile(r"^\W*no\b\W", re.I)


def denies_asked(clause: str, question: str) -> bool:
    """Whether the clause denies what the question asks about, not something beside it.

    A negating word counts when a word of the question (beyond the names it gives) stands
    within ``NEGATION_REACH`` words of it ("no dog may be taken" for "Are dogs allowed
    ...?"; not "food may not be eaten" for "Does the library have a reading room?"), or
    when the clause opens with a bare "No." answering it. Without a question (at ingest),
    any negating word counts.
    """
    if not is_negative(clause, question):
        return False
    if not question or _LEAD_NO.match(clause):
        return True
    named = {w.lower() for name in question_names(question) for w in _words(name)}
    asked = {_root(w) for w in _words(question) if w not in named and len(w) > 2}
    asked -= {_root(w) for w in _NEGATORS}
    words = _WORD.findall(clause.lower())
    for index, word in enumerate(words):
        if word in _NEGATORS or _CONTRACTED.fullmatch(word):
            near = words[max(0, index - NEGATION_REACH) : index + NEGATION_REACH + 1]
            if any(_alike(_root(w), a) for w in near for a in asked):
                return True
    return False


def _root(word: str) -> str:
    return stem(word)


def _alike(left: str, right: str) -> bool:
    """One root is the other, or begins it ("eat", "eaten")."""
    short, long = sorted((left, right), key=len)
    return len(short) >= 3 and long.startswith(short)


def _prefix_opposed(left: str, right: str) -> bool:
    """One clause holds a word that the other holds with a negating prefix ("signed", "unsigned")."""
    a, b = set(_words(left)), set(_words(right))
    return any(
        len(w) >= 4 and any(p + w in other for p in _PREFIXES)
        for words, other in ((a, b), (b, a))
        for w in words
    )


_SMALL = frozenset("of and for the & de van von".split())


_AGENT = re.compile(r"\bby\s+((?:[\w&'’-]+\s+){0,4}[\w&'’-]+)", re.I)
_AGENT_END = re.compile(
    r"\s+(?:in|on|at|for|from|with|under|since|during|who|which|whose|that|and|but)\b.*$", re.I
)


def names(clause: str, question: str) -> set[str]:
    """Who or what a clause names that the question does not: "Pinecrest Labs", "the parish council".

    Runs of capitalised words (a lone one opening the clause is not a name: "Dogs"), and
    what follows "by" ("managed by the parish council"). A name made only of the
    question's words is its subject, not an answer.
    """
    asked = {w.lower() for w in re.findall(r"[\w&'.-]+", question)}
    found: set[str] = set()
    candidates = [(m.start(), m.group(0)) for m in NAME.finditer(clause)]
    candidates += [(-1, _AGENT_END.sub("", m.group(1))) for m in _AGENT.finditer(clause)]
    for start, text in candidates:
        words = [w.strip(".,;:'’") for w in text.split()]
        if start == 0 and len(words) == 1:
            continue
        if all(w.lower() in asked or w.lower() in _SMALL for w in words):
            continue
        found.add(" ".join(w.lower() for w in words))
    return found


_ORDINAL_CENTURY = {
    "tenth": 900,
    "eleventh": 1000,
    "twelfth": 1100,
    "thirteenth": 1200,
    "fourteenth": 1300,
    "fifteenth": 1400,
    "sixteenth": 1500,
    "seventeenth": 1600,
    "eighteenth": 1700,
    "nineteenth": 1800,
    "twentieth": 1900,
    "twenty-first": 2000,
}
_HUNDREDS = {
    "fifteen": 1500, "sixteen": 1600, "seventeen": 1700, "eighteen": 1800, "nineteen": 1900, "twenty": 2000,
}
_DECADES = {
    "tens": 10,
    "twenties": 20,
    "thirties": 30,
    "forties": 40,
    "fifties": 50,
    "sixties": 60,
    "seventies": 70,
    "eighties": 80,
    "nineties": 90,
}
_PART = r"(?:(?P<part>early|mid|late)[\s-]+)?"
_WORD_DECADE = re.compile(
    _PART
    + r"(?P<hundred>fifteen|sixteen|seventeen|eighteen|nineteen|twenty)[\s-]+"
    r"(?P<decade>hundreds|tens|twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties)\b",
    re.I,
)
_DIGIT_DECADE = re.compile(_PART + r"\b(?P<year>1[5-9]\d0|20[0-2]0)['’]?s\b", re.I)
_CENTURY = re.compile(
    _PART + r"(?:the\s+)?(?P<ordinal>" + "|".join(_ORDINAL_CENTURY) + r")\s+century\b", re.I
)
_YEAR = re.compile(r"\b(1[5-9]\d\d|20\d\d)\b(?!['’]?s)")
_WARS = re.compile(r"\b(?P<when>after|before|during)\s+the\s+(?P<war>first|second)\s+world\s+war\b", re.I)
_SEASON = re.compile(
    r"\b(?:(?P<part>early|mid|late)[\s-]+)?(?P<season>spring|summer|autumn|fall|winter)\b", re.I
)


def _narrowed(start: int, length: int, part: str | None) -> tuple[int, int]:
    if not part:
        return start, start + length - 1
    third = max(length // 3, 1)
    offset = {"early": 0, "mid": third, "late": length - third}[part.lower()]
    return start + offset, start + offset + third - 1


def periods(text: str) -> set[tuple[int, int] | str]:
    """The periods a text gives: year ranges, and seasons by name ("late spring")."""
    found: set[tuple[int, int] | str] = set()
    for m in _WORD_DECADE.finditer(text):
        base = _HUNDREDS[m.group("hundred").lower()]
        decade = m.group("decade").lower()
        if decade == "hundreds":  # "the early nineteen-hundreds": the century's first years
            found.add((base, base + 9))
        else:
            found.add(_narrowed(base + _DECADES[decade], 10, m.group("part")))
    for m in _DIGIT_DECADE.finditer(text):
        found.add(_narrowed(int(m.group("year")), 10, m.group("part")))
    for m in _CENTURY.finditer(text):
        found.add(_narrowed(_ORDINAL_CENTURY[m.group("ordinal").lower()], 100, m.group("part")))
    for m in _YEAR.finditer(text):
        found.add((int(m.group(1)), int(m.group(1))))
    for m in _WARS.finditer(text):
        end = 1918 if m.group("war").lower() == "first" else 1945
        start = 1914 if end == 1918 else 1939
        found.add(
            {"after": (end, end + 9), "before": (start - 10, start - 1), "during": (start, end)}[
                m.group("when").lower()
            ]
        )
    for m in _SEASON.finditer(text):
        season = m.group("season").lower().replace("fall", "autumn")
        found.add(f"{(m.group('part') or '').lower()} {season}".strip())
    return found


def overlaps(left: Iterable[tuple[int, int] | str], right: Iterable[tuple[int, int] | str]) -> bool:
    """Whether two sets of periods share a year (or a season, by name)."""
    for a in left:
        for b in right:
            if isinstance(a, str) or isinstance(b, str):
                if isinstance(a, str) and isinstance(b, str) and a.split()[-1] == b.split()[-1]:
                    return True
            elif a[0] <= b[1] and b[0] <= a[1]:
                return True
    return False


_ENTITY_OPENERS = re.compile(r"^\s*(?:who|whom|whose|which|by\s+whom)\b", re.I)
_PERIOD_OPENERS = re.compile(
    r"^\s*(?:when|in\s+which\s+(?:year|decade|century|season)|what\s+(?:year|decade|"
    r"century|season|period))\b",
    re.I,
)


_SEVERAL = re.compile(
    r"\bor\b|,\s*and\b|\band\s+(?:what|who|which|when|where|how|does|did|do|is|was|are|were|has|had|can)\b"
    r"|\b(?:more|less|fewer|older|younger|taller|longer|larger|bigger|smaller)\b",
    re.I,
)
_RELATIVE = re.compile(r"(?<=\w)\s+(?:where|whose|that|who|whom|which|when|before|after|under)\s+\w", re.I)


def asked_kind(question: str) -> Kind | None:
    """What the question asks for: a yes or a no, a name, a period; ``None`` for anything else.

    Only for a question about one thing: one that compares ("Which is older, X or Y?"),
    asks several things ("Did ..., and does ...?") or reaches its subject through another
    ("Who founded the firm where ...?") has answers in several sources that are not rivals.
    Nor is a who-question pinned to a time ("Who was head coach in 2011?"): who held a
    role when is history, not a disagreement.
    """
    if _SEVERAL.search(question) or _RELATIVE.search(question.split("?")[0]):
        return None
    if _PERIOD_OPENERS.match(question):
        return "period"
    if _ENTITY_OPENERS.match(question):
        return None if periods(question) else "entity"
    if asks_for_verdict(question):
        return "polarity"
    return None


def contrast(kind: Kind, left: str, right: str, question: str) -> bool:
    """Whether two clauses about the same point give different answers of ``kind``."""
    if kind == "polarity":
        return denies_asked(left, question) != denies_asked(right, question) or _prefix_opposed(left, right)
    if kind == "entity":
        if periods(left) or periods(right):
            return False  # a role held at a time ("since 2019", "from 2011 to 2019") is history
        a, b = names(left, question), names(right, question)
        return bool(a) and bool(b) and not _shares_a_name(a, b, question)
    if kind == "period":
        when_left, when_right = periods(left), periods(right)
        return bool(when_left) and bool(when_right) and not overlaps(when_left, when_right)
    return False


def _shares_a_name(left: set[str], right: set[str], question: str) -> bool:
    """Two sets of names share one, or a word the question does not hold ("Hallam Brothers", "Hallam")."""
    if left & right:
        return True
    asked = {w.lower() for w in re.findall(r"[\w&'.-]+", question)}

    def words(found: set[str]) -> set[str]:
        return {
            w
            for n in found
            for w in n.split()
            if w not in _SMALL and w not in _ARTICLES and w not in asked and len(w) > 2
        }

    return bool(words(left) & words(right))


_ARTICLES = frozenset("the a an its their his her our own".split())

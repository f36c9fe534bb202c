"""The asked slot: what kind of value a question wants, read from its form.

"What time does it leave?" wants a time of day, "How much does it weigh?" a weight, "By
how much can it be extended?" a number in any unit; "When the ward reopened, were all its
beds in use?" is a yes/no question, asked by what follows the scene-setting clause.
Nothing here knows a corpus.
"""

from __future__ import annotations

import re

from groundgate.knowledge.text import STOPWORDS

__all__ = ["DETERMINERS", "LEADING_PREPOSITION", "QUESTION_TAG", "asked_kind", "is_verb_like", "scene_set"]

_YESNO = re.compile(
    r"^(?:(?:is|are|was|were|do|does|did|could|should|has|have|had|would|must)(?:n['’]t)?"
    r"|can|can['’]t|will|won['’]t|may)\b", re.I
)
QUESTION_TAG = re.compile(
    r",\s*(?:is|are|was|were|do|does|did|can|could|has|have|had|will|would|should|must|may)"
    r"(?:n['’]t|\s+not)?\s+\w+\s*\?\s*$", re.I
)
"""A question tag, which makes a statement a yes/no question: "..., didn't she?"."""

_QUANTITY_SLOT = re.compile(
    r"(?:what|which) (?:is|was|are|were) the (?:total|maximum|minimum\b"
    # a superlative limited by what can be done is a limit: "the longest cable that may be used"
    r"|(?:highest|lowest|longest|shortest|largest|smallest|biggest|greatest|heaviest|fastest"
    r"|slowest|widest|deepest|tallest)\b.*\b(?:can|could|may|might|must|should)\b"
    # "most" as a pronoun, not an adverb ("the most the Trust pays", not "the most common")
    r"|(?:most|least) (?:the|a|an|that|which|you|we|they|it|one|anyone|someone)\b)"
)
"""A slot that is a quantity: "what is the total ...", "the highest level that can be set"."""
LEADING_PREPOSITION = re.compile(r"^(?:in|at|on|for|from|to|of|with|during|under)\s+(?=wh)")
"""A preposition before the question word: "In which year ..." asks as "Which year ..." does."""
_LEADING_CLAUSE = re.compile(r"^(?:when|once|after|before|while|if)\b[^,?]*,\s*(?=\w)")
"""A clause that sets the scene before the question proper: "When the ward reopened, were ..."."""


def scene_set(text: str) -> bool:
    """Whether a clause sets the scene before the question proper asks (after its comma)."""
    lowered = text.lower()
    main = _LEADING_CLAUSE.sub("", lowered)
    return main != lowered and bool(_YESNO.match(main) or main.startswith(("wh", "how")))


def asked_kind(text: str) -> str:
    """The kind of value the question wants (see ``Question.asks``)."""
    lowered = LEADING_PREPOSITION.sub("", text.lower())
    if scene_set(lowered):
        lowered = _LEADING_CLAUSE.sub("", lowered)  # the question is what follows the comma
    rules = (
        # a time of day: "what time does it leave", "until what time" (not "what time of year")
        # ("within what time" asks for a period)
        (r"(?<!within )\b(?:what|which) time\b(?! of\b)", "time"),
        (r"^(when|since when)\b|\bwhat (date|day|year|month)\b|\bwhich (date|year|month)\b"
         r"|\bin what year\b|\bwhen (did|was|were|is|does|do)\b", "date"),
        # ("by how much" asks for a difference, in whatever unit: "by up to three months";
        # "how much does it weigh" a weight)
        (r"(?<!by )\bhow much\b(?! more)(?!.*\bweigh)|\bwhat did (it|they|\w+) cost\b"
         r"|^(what|which)\b.*\b(amount|cost|price|value|fee|sum|salary|wage|budget|revenue|income"
         r"|earnings|payout)s?\b", "money"),
        (r"\bhow much\b.*\bweigh|\bhow heavy\b|\bwhat (is|was) the weight\b", "weight"),
        (r"\bhow long (is|was|are|were)\b|\bhow (tall|high|deep|wide|far)\b|\bwhat (is|was) the "
         r"(length|height|depth|width|distance)\b", "length"),
        (r"\bhow long\b|\bwithin what (period|time)\b|\bwhat period\b|\bhow soon\b"
         r"|\bby when\b", "duration"),
        (r"\bwhat percentage\b|\bwhat share\b|\bwhat proportion\b", "percent"),
        (r"\bhow many\b|\bby how much\b|\bhow old\b|\bwhat (\w+ ){0,3}age\b|\bhow much more\b|\bhow often\b"
         r"|\bwhat (\w+ ){0,3}(speed|number|rate|frequency|size|height|length|population)\b",
         "number"),
        (r"^(who|whom|whose|where)\b|\bwho\b", "name"),
    )
    for pattern, kind in rules:
        if re.search(pattern, lowered):
            return kind
    if _QUANTITY_SLOT.match(lowered):
        return "number"
    if _YESNO.match(lowered) or QUESTION_TAG.search(lowered):
        return "yesno"
    words = re.findall(r"[^\W_][\w\-']*", lowered)
    if len(words) >= 3 and words[0] in ("which", "what") and words[1] not in STOPWORDS:
        if not is_verb_like(words[1], words[2]):
            return "entity"
    return "text"


DETERMINERS = frozenset("the a an this that these those its his her their our your it".split())
"""Words that open a noun phrase: a word before one is taken for a verb (``maintains the``)."""


def is_verb_like(word: str, following: str) -> bool:
    """A guess without a tagger: ``maintains the``, ``settled it``, ``applies to``."""
    inflected = (word.endswith("s") and not word.endswith("ss")) or (
        word.endswith("ed") and not word.endswith("eed")
    )
    return inflected and (following in DETERMINERS or following in STOPWORDS)

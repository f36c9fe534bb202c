"""Kinds of event a sentence or question speaks of: a small English lexicon.

"took effect", "went live" and "comes into force" are all a ``start``; "was published" is
a ``publication``. Two sentences that give different dates for the same kind of event
about the same thing disagree; a publication date next to an effective date does not.
The lexicon is English, not any corpus's vocabulary.
"""

from __future__ import annotations

import re

__all__ = ["EVENTS", "EVENT_WORDS", "event_kinds"]

EVENTS: dict[str, tuple[str, ...]] = {
    "start": (
        "take effect", "takes effect", "took effect", "taken effect", "taking effect",
        "come into force", "comes into force", "came into force", "in force", "effective",
        "go live", "goes live", "went live", "gone live", "now live", "live from",
        "start", "starts", "started", "begin", "begins", "began", "begun", "commence",
        "commences", "commenced", "launch", "launched", "introduced", "applies from",
    ),
    "end": (
        "end", "ends", "ended", "expire", "expires", "expired", "cease", "ceased",
        "withdrawn", "discontinued", "terminated", "closed", "no longer applies",
    ),
    "completion": ("completed", "finished", "built", "constructed", "erected", "opened"),
    "birth": ("born", "birth"),
    "death": ("died", "dies", "death", "passed away"),
    "founding": ("founded", "established", "incorporated", "set up", "formed"),
    "publication": (
        "publish", "published", "publishes", "issued", "issue", "released", "circulate",
        "circulated", "sent", "announced",
    ),
    "decision": ("decided", "approved", "agreed", "adopted", "signed off", "ratified"),
    "review": ("review", "reviewed", "reviews", "revisit", "revisited"),
}
_PATTERNS = {
    kind: re.compile(r"\b(?:" + "|".join(re.escape(p) for p in phrases) + r")\b")
    for kind, phrases in EVENTS.items()
}
EVENT_WORDS = frozenset(word for phrases in EVENTS.values() for p in phrases for word in p.split())


def event_kinds(text: str) -> frozenset[str]:
    """The kinds of event a sentence or question speaks of ("took effect" is ``start``)."""
    lowered = " ".join(text.lower().split())
    return frozenset(kind for kind, pattern in _PATTERNS.items() if pattern.search(lowered))

"""G5 in words: text addressed to the model, and sentences that speak for the register.

A document is data: what it tells a reader to do is never done (``carries_instructions``
keeps such a passage from rescuing a claim in grounding), and no sentence the answer shows
may speak for the register or the gate (``speaks_for_register``).
"""

from __future__ import annotations

import re

__all__ = ["carries_instructions", "speaks_for_register"]


_REGISTER_TALK = re.compile(
    r"\b(?:(?:contradiction |disagreement )?register|the gate|this gate|policy layer)\b[^.]{0,80}?"
    r"\b(?:out[- ]of[- ]date|outdated|obsolete|stale|wrong|incorrect|"
    r"updated?|changed?|closed|resolved|disabled|off|does not apply|no longer|superseded|replaced|ignored?)\b"
    r"|\b(?:update|change|correct|overwrite|ignore|disable)\b[^.]{0,40}\b(?:register|gate)\b", re.I,
)
"""A sentence that speaks for the register or the gate ("The contradiction register is out of date")."""


def speaks_for_register(sentence: str) -> bool:
    """Whether a sentence speaks for the register or the gate ("The register is out of date")."""
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

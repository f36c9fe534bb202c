"""Which policies run, fixed when the agent or pipeline is built."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from groundgate.policies.detectors.base import Detector
from groundgate.policies.detectors.lexical import LexicalDetector

__all__ = ["PolicySet"]


@dataclass(frozen=True)
class PolicySet:
    """The policy configuration. Turning a policy off is an explicit build argument."""

    contradictions: bool = True
    """Present every position of an open register entry that bears on the answer."""
    disagreement: bool = True
    """Present conflicting values found in the evidence that no register entry covers."""
    honesty: bool = True
    """Surface every insufficient flag and tripped bound."""
    grounding: Literal["remove", "flag"] = "remove"
    """What happens to a claim no source or walked path supports."""
    topic_relevance: float = 0.5
    """Share of a contested topic's words the question must contain for it to bear."""
    detector: Detector = field(default_factory=LexicalDetector)
    """Who answers the two fuzzy questions: does an open entry bear on the answer, do the
    passages it rests on disagree on what was asked. ``LexicalDetector`` (numbers, dates,
    names; the default), ``SemanticDetector`` (the bundled MiniLM) or ``JudgeDetector``
    (a chat model); see ``groundgate/policies/detectors/``."""

    @classmethod
    def off(cls) -> PolicySet:
        """Every policy off (the ablation); grounding only flags."""
        return cls(contradictions=False, disagreement=False, honesty=False, grounding="flag")

    @property
    def label(self) -> str:
        """``on``/``off`` for reports."""
        return "on" if self.contradictions or self.disagreement or self.honesty else "off"

"""Detectors: whether an open entry bears on an answer, and whether its passages disagree.

One protocol (``Detector``), chosen in ``PolicySet.detector``; see ``base.py``.
"""

from groundgate.policies.detectors.base import (
    Bearing,
    BearingQuestion,
    Detection,
    Detector,
    Finding,
    FindingPosition,
    Kind,
    Passage,
)
from groundgate.policies.detectors.evidence import answer_passages
from groundgate.policies.detectors.lexical import LexicalDetector
from groundgate.policies.detectors.points import detected_points, presentable

__all__ = [
    "Bearing",
    "BearingQuestion",
    "Detection",
    "Detector",
    "Finding",
    "FindingPosition",
    "Kind",
    "LexicalDetector",
    "Passage",
    "answer_passages",
    "detected_points",
    "presentable",
]

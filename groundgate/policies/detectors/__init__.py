"""Detectors: whether an open entry bears on an answer, and whether its passages disagree.

One protocol (``Detector``), chosen in ``PolicySet.detector``; see ``base.py``.
"""

from groundgate.policies.detectors import base
from groundgate.policies.detectors.base import *  # noqa: F403 - the protocol's names, as base.py lists them
from groundgate.policies.detectors.evidence import answer_passages
from groundgate.policies.detectors.lexical import LexicalDetector
from groundgate.policies.detectors.points import detected_points, presentable

__all__ = [*base.__all__, "LexicalDetector", "answer_passages", "detected_points", "presentable"]

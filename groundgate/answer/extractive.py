"""An extractive draft from the trace, for runs where the model gave no answer text."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from groundgate.knowledge.ingest.extract import sentences
from groundgate.knowledge.text import content_terms, coverage

__all__ = ["extractive_draft"]

MIN_FIT = 0.5
"""Share of the question's content words a sentence must contain to be used."""


def extractive_draft(question: str, envelopes: Iterable[dict[str, Any]], *, limit: int = 3) -> str:
    """The best-fitting sentences from retrieved passages, each with its source id.

    Returns ``"INSUFFICIENT: ..."`` when no sentence fits the question well enough.
    """
    terms = content_terms(question)
    scored: dict[str, tuple[float, int, str]] = {}
    order = 0
    for env in envelopes:
        if env.get("error") or env["tool"] not in ("search_evidence", "get_source"):
            continue
        for item in env.get("results", ()):
            sources = item.get("source_ids") or ()
            if not sources:
                continue
            for sentence in sentences(item.get("snippet", "")):
                if sentence.startswith("#") or len(sentence) < 20:
                    continue
                fit = coverage(terms, sentence)
                order += 1
                if sentence not in scored or scored[sentence][0] < fit:
                    scored[sentence] = (fit, order, sources[0])
    best = sorted(scored.items(), key=lambda kv: (-kv[1][0], kv[1][1]))[:limit]
    best = [(s, v) for s, v in best if v[0] >= MIN_FIT]
    if not best:
        return "INSUFFICIENT: no retrieved passage states what the question asks."
    return " ".join(f"{s.rstrip('.')}. [{v[2]}]" for s, v in best)

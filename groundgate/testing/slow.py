"""``SlowStore``: a real store whose evidence search is slow, for testing a run's time bounds."""

from __future__ import annotations

import time
from typing import Any

from groundgate.knowledge.model import EvidenceHit
from groundgate.knowledge.port import KnowledgeStore

__all__ = ["SlowStore"]


class SlowStore:
    """Delegates every read to ``inner``; ``search_evidence`` first sleeps ``delay`` seconds.

    Use it to see a wall-clock or tool-timeout bound trip the way a slow backend would trip
    it: ``build_agent(SlowStore(store, 0.5), model, bounds=Bounds(tool_timeout_s=0.05))``.
    """

    def __init__(self, inner: KnowledgeStore, delay: float) -> None:
        self._inner, self._delay = inner, delay

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def search_evidence(self, *args: Any, **kwargs: Any) -> list[EvidenceHit]:
        """The inner store's search, ``delay`` seconds later."""
        time.sleep(self._delay)
        return self._inner.search_evidence(*args, **kwargs)

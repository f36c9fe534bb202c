"""An agent over an in-memory store ingested from a small corpus, for tests.

```python
from groundgate.testing.agent import agent_over_corpus
from groundgate.testing.fake import ScriptedChatModel, answer, call

model = ScriptedChatModel(script=[...])
agent = agent_over_corpus("tests/corpus", model)
out = agent.invoke({"question": "..."})
```

Without a corpus it uses the small library corpus that ships with the conformance suite;
without a model it uses the offline planner. Ingest time is fixed, so runs are repeatable.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from langgraph.graph.state import CompiledStateGraph

from groundgate.graph.build import build_agent
from groundgate.knowledge.embed import Embedder
from groundgate.knowledge.embedded.store import SQLiteStore
from groundgate.knowledge.ingest.pipeline import ingest
from groundgate.testing.conformance import INGEST_TIME, conformance_corpus
from groundgate.tools.registry import ALL_TOOLS

__all__ = ["INGEST_TIME", "agent_over_corpus", "memory_store"]

def memory_store(
    corpus: Path | str | None = None,
    *,
    embedder: Embedder | None = None,
    now: datetime = INGEST_TIME,
) -> SQLiteStore:
    """A writable in-memory store with ``corpus`` ingested (the library corpus by default).

    Ingest time is fixed (``INGEST_TIME``), so what is recorded does not depend on today.
    """
    store = SQLiteStore.from_path(":memory:")
    store.setup()
    ingest(store, Path(corpus) if corpus is not None else conformance_corpus(), now=now, embedder=embedder)
    return store


def agent_over_corpus(
    corpus: Path | str | SQLiteStore | None = None,
    model: BaseChatModel | None = None,
    *,
    tools: Sequence[str] = ALL_TOOLS,
    embedder: Embedder | None = None,
    **build: Any,
) -> CompiledStateGraph:
    """The compiled agent over ``corpus`` (a folder, or a store from ``memory_store``).

    Args:
        corpus: A corpus folder, an already ingested store, or ``None`` for the library corpus.
        model: The planner; the offline planner when omitted.
        tools: The tools it may call (``["search_evidence"]`` for the search-box agent).
        embedder: A query embedder for hybrid search, if any.
        **build: Further ``build_agent`` arguments (``bounds``, ``policies``, ``checkpointer``...).
    """
    if model is None:
        from groundgate.models.offline import OfflinePlanner

        model = OfflinePlanner()
    store = corpus if isinstance(corpus, SQLiteStore) else memory_store(corpus, embedder=embedder)
    return build_agent(store.read_only_view(), model, tools=tools, embedder=embedder, **build)

"""pytest fixtures for testing your use of groundgate.

Enable them in your top-level ``conftest.py``:

```python
pytest_plugins = ["groundgate.testing.fixtures"]
```

then take ``groundgate_agent`` (the compiled agent) or ``groundgate_store`` (the
in-memory store it reads) in a test. Override ``groundgate_corpus`` to ingest your own
folder, ``groundgate_model`` to script the planner, ``groundgate_tools`` for the
search-box agent:

```python
@pytest.fixture
def groundgate_model():
    return ScriptedChatModel(script=[AIMessage("", tool_calls=[call("search_evidence", {"query": "fee"})]),
                                     answer("EUR 0.25 a day [LIB-004]")])
```
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from langchain_core.language_models import BaseChatModel
from langgraph.graph.state import CompiledStateGraph

from groundgate.knowledge.embedded.store import SQLiteStore
from groundgate.testing.agent import agent_over_corpus, memory_store
from groundgate.testing.conformance import conformance_corpus
from groundgate.tools.registry import ALL_TOOLS

__all__ = [
    "groundgate_agent",
    "groundgate_corpus",
    "groundgate_model",
    "groundgate_store",
    "groundgate_tools",
]


@pytest.fixture
def groundgate_corpus() -> Path:
    """The corpus folder to ingest: the small library corpus unless you override it."""
    return conformance_corpus()


@pytest.fixture
def groundgate_model() -> BaseChatModel:
    """The planner: the deterministic offline planner unless you override it."""
    from groundgate.models.offline import OfflinePlanner

    return OfflinePlanner()


@pytest.fixture
def groundgate_tools() -> tuple[str, ...]:
    """The tools the agent may call: all eight unless you override it."""
    return ALL_TOOLS


@pytest.fixture
def groundgate_store(groundgate_corpus: Path) -> Iterator[SQLiteStore]:
    """A fresh in-memory store with ``groundgate_corpus`` ingested, closed after the test."""
    store = memory_store(groundgate_corpus)
    yield store
    store.close()


@pytest.fixture
def groundgate_agent(
    groundgate_store: SQLiteStore, groundgate_model: BaseChatModel, groundgate_tools: tuple[str, ...]
) -> CompiledStateGraph:
    """The compiled agent over ``groundgate_store`` (read-only) with ``groundgate_model``."""
    return agent_over_corpus(groundgate_store, groundgate_model, tools=groundgate_tools)

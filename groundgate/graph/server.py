"""The agent as the LangGraph server serves it (``langgraph dev``; see ``langgraph.json``).

The server is a development tool (``pip install -e '.[server]'``), never a runtime
dependency: this module only builds the graph. Settings come from the same variables as the
CLI (``GROUNDGATE_STORE``, ``GROUNDGATE_MODEL``, ``GROUNDGATE_EMBEDDER``, ``GROUNDGATE_CACHE``,
and ``GROUNDGATE_TELEMETRY`` for spans), read when the server first builds the graph.
``GROUNDGATE_BACKEND`` picks the backend as ``--backend`` does on the command line
(``embedded`` by default; ``azure`` reads ``GROUNDGATE_AZURE_*``).
"""

from __future__ import annotations

import asyncio
import functools
import os
from dataclasses import replace

from langgraph.graph.state import CompiledStateGraph

from groundgate.graph.build import build_agent
from groundgate.knowledge.backends import open_backend
from groundgate.knowledge.embed import make_embedder
from groundgate.models.factory import make_chat_model
from groundgate.settings import Settings

__all__ = ["build_server_agent", "make_graph"]


async def make_graph() -> CompiledStateGraph:
    """The graph factory ``langgraph.json`` names: built once, off the server's event loop.

    Opening the store reads files (and ingests the bundled corpus on first use); the server
    forbids blocking calls on its loop, so the build runs on a worker thread.
    """
    return await asyncio.to_thread(build_server_agent)


@functools.lru_cache(maxsize=1)
def build_server_agent() -> CompiledStateGraph:
    """The agent over the configured backend and store (the bundled corpus by default) and model (offline)."""
    settings = replace(Settings.from_env(), backend=os.environ.get("GROUNDGATE_BACKEND", "embedded"))
    embedder = make_embedder(settings.embedder)
    store = open_backend(settings, embedder=embedder)
    telemetry = None
    exporter = os.environ.get("GROUNDGATE_TELEMETRY", "none")
    if exporter != "none":
        from groundgate.telemetry import make_telemetry

        telemetry = make_telemetry(exporter)
    return build_agent(
        store, make_chat_model(settings.model, env=os.environ), embedder=embedder,
        model_name=settings.model, telemetry=telemetry,
    )

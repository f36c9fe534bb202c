"""groundgate: a bounded, gated LangGraph agent answering over a knowledge layer.

The names most programs need, importable from here::

    from groundgate import SQLiteStore, build_agent, ingest, make_chat_model

    store = SQLiteStore.from_path(":memory:")
    store.setup()
    ingest(store, "corpus/")
    agent = build_agent(store.read_only_view(), make_chat_model("offline"))
    agent.invoke({"question": "...", "as_of": None})

Each name loads its module on first use, so ``import groundgate`` imports nothing else; the
rest of the package is reached by its folder (``groundgate.tools``, ``groundgate.knowledge``...).
"""

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from groundgate.graph.bounds import Bounds
    from groundgate.graph.build import build_agent
    from groundgate.knowledge.embedded.store import SQLiteStore
    from groundgate.knowledge.ingest.pipeline import ingest
    from groundgate.models.factory import make_chat_model
    from groundgate.pipeline.build import build_pipeline
    from groundgate.pipeline.router import build_router
    from groundgate.policies.policyset import PolicySet

_EXPORTS = {
    "Bounds": "groundgate.graph.bounds",
    "PolicySet": "groundgate.policies.policyset",
    "SQLiteStore": "groundgate.knowledge.embedded.store",
    "build_agent": "groundgate.graph.build",
    "build_pipeline": "groundgate.pipeline.build",
    "build_router": "groundgate.pipeline.router",
    "ingest": "groundgate.knowledge.ingest.pipeline",
    "make_chat_model": "groundgate.models.factory",
}
"""Each exported name and the module that defines it."""

__all__ = [
    "Bounds",
    "PolicySet",
    "SQLiteStore",
    "build_agent",
    "build_pipeline",
    "build_router",
    "ingest",
    "make_chat_model",
]


def __getattr__(name: str) -> object:
    """Load an exported name from its module on first use (PEP 562)."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'groundgate' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(module), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})

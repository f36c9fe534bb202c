"""Dependencies of a run, apart from state: store, model, tools, bounds, policies."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypedDict, TypeVar

from langchain_core.language_models import BaseChatModel
from langgraph.runtime import Runtime

from groundgate.graph.bounds import Bounds
from groundgate.knowledge.embed import Embedder
from groundgate.knowledge.port import KnowledgeStore
from groundgate.policies.policyset import PolicySet
from groundgate.reading import Reader, default_reader
from groundgate.tools.base import ToolDeps
from groundgate.tools.envelope import Envelope
from groundgate.tools.registry import ALL_TOOLS, execute, select

__all__ = ["Bounds", "Context", "LaneOptions", "ToolRunner", "bind_context"]


class ToolRunner(Protocol):
    """Runs one tool call and returns its envelope, never raising.

    ``registry.execute`` runs it in process, ``groundgate.mcp.client.McpToolRunner`` over
    MCP, and ``Telemetry.trace_tools`` wraps either in a span.
    """

    def __call__(
        self, name: str, args: dict[str, Any], deps: ToolDeps, *, allowed: Iterable[str], call_id: str
    ) -> Envelope:
        """Run ``name`` with ``args``; an unknown or disallowed name is an error envelope."""
        ...


@dataclass(frozen=True)
class Context:
    """Everything a node may use besides the state. Frozen: a run cannot change it."""

    store: KnowledgeStore
    """The knowledge store, opened read-only for the agent."""
    model: BaseChatModel
    """The planner chat model."""
    tools: tuple[str, ...] = ALL_TOOLS
    """The tool names the planner may call."""
    bounds: Bounds = field(default_factory=Bounds)
    """Hard bounds of a run."""
    policies: PolicySet = field(default_factory=PolicySet)
    """The policy layer, fixed at build time."""
    embedder: Embedder | None = None
    """Query embedder for hybrid evidence search, if configured."""
    model_name: str = "offline"
    """The model's name, for the trace."""
    run_tool: ToolRunner = execute
    """How a tool call is executed (in process by default; over MCP, or traced, when configured)."""
    reader: Reader = field(default_factory=default_reader)
    """How evidence is read into an extractive answer and its answerability (``groundgate.reading``)."""

    def __post_init__(self) -> None:
        select(self.tools)  # an unknown tool name is a developer error, raised at build time


class LaneOptions(TypedDict, total=False):
    """The options both lanes take; ``build_router`` passes them to ``build_agent`` and ``build_pipeline``."""

    bounds: Bounds | None
    """Hard bounds of a run (``Bounds()`` when omitted)."""
    policies: PolicySet | None
    """The policy layer (``PolicySet()`` when omitted)."""
    embedder: Embedder | None
    """Query embedder for hybrid evidence search, if the store was ingested with one."""
    model_name: str | None
    """The name the trace shows for the model."""
    run_tool: ToolRunner | None
    """How tool calls execute (the registry's ``execute`` when omitted)."""
    reader: Reader | None
    """How evidence is read into an extractive answer (``default_reader()`` when omitted)."""


State = TypeVar("State")


def bind_context(node: Callable[[State, Runtime[Any]], Any], context: Any) -> Callable[[State], Any]:
    """``node`` with a fixed runtime context, whatever graph runs it.

    The runtime is built once here rather than per call: a compiled agent carries its own
    store, model and policies even inside a parent graph that has a context of its own.
    """
    runtime: Runtime[Any] = Runtime(context=context)

    def run(state: State) -> Any:
        return node(state, runtime)

    run.__name__ = getattr(node, "__name__", "node")
    run.__doc__ = node.__doc__
    return run

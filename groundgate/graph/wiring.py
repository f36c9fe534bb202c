"""What both lanes' wiring shares: nodes bound to a context, and the gated end.

Both lanes end ``draft -> grounding_check -> gate -> END``: the same grounding and the
same policies whatever drafted the answer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from langgraph.graph import END, StateGraph
from langgraph.runtime import Runtime

from groundgate.graph.context import bind_context
from groundgate.nodes.gate import gate
from groundgate.nodes.grounding_check import grounding_check

__all__ = ["add_gated_end", "add_nodes"]

Node = Callable[[Any, Runtime[Any]], Any]


def add_nodes(graph: StateGraph[Any, Any, Any, Any], nodes: Mapping[str, Node], ctx: Any = None) -> None:
    """Add ``nodes`` by name; with ``ctx`` each is bound to it (the graph then needs no context)."""
    for name, node in nodes.items():
        # langgraph's add_node overloads do not match a plain function of a TypedDict under
        # mypy; the graph itself checks the node at compile time
        graph.add_node(name, bind_context(node, ctx) if ctx is not None else node)  # type: ignore[call-overload]


def add_gated_end(graph: StateGraph[Any, Any, Any, Any], after: str, ctx: Any = None) -> None:
    """``after -> grounding_check -> gate -> END``, the two nodes bound to ``ctx`` when given."""
    add_nodes(graph, {"grounding_check": grounding_check, "gate": gate}, ctx)
    graph.add_edge(after, "grounding_check")
    graph.add_edge("grounding_check", "gate")
    graph.add_edge("gate", END)

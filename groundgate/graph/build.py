"""``build_agent``: the explicit state machine, compiled with its dependencies bound.

```
START -> plan -> [tool calls?] -> tool_call -> bound_check -> plan ...
                 [answer or bound tripped] -> compose -> grounding_check -> gate -> END
```
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from langchain_core.language_models import BaseChatModel
from langgraph.graph import START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime

from groundgate.graph.context import Bounds, Context, ToolRunner
from groundgate.graph.state import AgentInput, AgentOutput, AgentState
from groundgate.graph.wiring import add_gated_end, add_nodes
from groundgate.knowledge.embed import Embedder
from groundgate.knowledge.port import KnowledgeStore
from groundgate.models import writes_answers
from groundgate.nodes.bound_check import bound_check, route_after_bound_check
from groundgate.nodes.compose import compose
from groundgate.nodes.plan import plan, route_after_plan
from groundgate.nodes.tool_call import tool_call
from groundgate.policies.policyset import PolicySet
from groundgate.reading import Reader, default_reader
from groundgate.tools.registry import ALL_TOOLS, execute

if TYPE_CHECKING:
    from groundgate.telemetry.setup import Telemetry

__all__ = ["build_agent", "build_graph"]

Node = Callable[[AgentState, Runtime[Context]], dict[str, Any]]


def build_graph(ctx: Context | None = None) -> StateGraph[AgentState, Any, AgentInput, AgentOutput]:
    """The uncompiled wiring; with ``ctx`` every node is bound to it."""
    # Bound to ``ctx``, the graph takes no context from its caller (a server would try to build one).
    graph = StateGraph(
        AgentState, context_schema=Context if ctx is None else None, input_schema=AgentInput,
        output_schema=AgentOutput,
    )
    nodes: dict[str, Node] = {"plan": plan, "tool_call": tool_call, "bound_check": bound_check,
                              "compose": compose}
    add_nodes(graph, nodes, ctx)
    graph.add_edge(START, "plan")
    graph.add_conditional_edges("plan", route_after_plan, ["tool_call", "compose"])
    graph.add_edge("tool_call", "bound_check")
    graph.add_conditional_edges("bound_check", route_after_bound_check, ["plan", "compose"])
    add_gated_end(graph, "compose", ctx)
    return graph


def build_agent(
    store: KnowledgeStore,
    model: BaseChatModel,
    *,
    tools: Sequence[str] = ALL_TOOLS,
    bounds: Bounds | None = None,
    policies: PolicySet | None = None,
    embedder: Embedder | None = None,
    model_name: str | None = None,
    name: str = "groundgate",
    checkpointer: Any = None,
    run_tool: ToolRunner | None = None,
    telemetry: Telemetry | None = None,
    reader: Reader | None = None,
) -> CompiledStateGraph:
    """Compile the agent with its store, model, tools, bounds and policies fixed.

    Input: ``{"question": ..., "as_of": "YYYY-MM-DD" | None}``; output:
    ``{"answer": {...}, "trace": {...}}``. It embeds as a subgraph node as it is. The
    search-box agent is ``build_agent(store, model, tools=["search_evidence"])``.
    ``run_tool`` executes tool calls elsewhere (e.g. ``McpToolRunner`` over MCP);
    ``telemetry`` emits OpenTelemetry spans for the run (none when omitted); ``reader``
    reads the evidence into an extractive answer (``groundgate.reading``; the offline
    planner answers with it too).
    """
    run_tool = run_tool or execute
    if telemetry is not None:
        store, run_tool = telemetry.trace_store(store), telemetry.trace_tools(run_tool)
    reader = reader or default_reader()
    if not writes_answers(model):
        model = model.model_copy(update={"reader": reader})  # the planner answers with the run's reader
    ctx = Context(
        store=store,
        model=model,
        tools=tuple(tools),
        bounds=bounds or Bounds(),
        policies=policies or PolicySet(),
        embedder=embedder,
        model_name=model_name or getattr(model, "model_name", None) or model._llm_type,
        run_tool=run_tool,
        reader=reader,
    )
    # Bounds are enforced by bound_check in code, not by LangGraph's recursion limit.
    agent = build_graph(ctx).compile(name=name, checkpointer=checkpointer)
    if telemetry is not None:
        agent = agent.with_config(callbacks=[telemetry.callbacks(name, ctx.model_name)])
    return agent

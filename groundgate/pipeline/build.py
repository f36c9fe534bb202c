"""``build_pipeline``: lane A, the fixed fused pipeline, compiled like the agent.

```
START -> retrieve -> rerank -> answer -> grounding_check -> gate -> END
```

``retrieve`` makes every tool call of the run in one fixed pass (search, resolve, walk);
``rerank`` orders the union once; ``answer`` drafts from the top of it. The last two
nodes are the agent's own ``grounding_check`` and ``gate``, so both lanes are held to the
same grounding and the same policies. Input ``{"question", "as_of"}``, output
``{"answer", "trace"}``, exactly as ``build_agent``.
"""

from __future__ import annotations

from langchain_core.language_models import BaseChatModel
from langgraph.graph import START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from groundgate.graph.context import Bounds, ToolRunner
from groundgate.graph.state import AgentInput, AgentOutput
from groundgate.graph.wiring import add_gated_end, add_nodes
from groundgate.knowledge.embed import Embedder
from groundgate.knowledge.port import KnowledgeStore
from groundgate.models import writes_answers
from groundgate.models.offline import OfflinePlanner
from groundgate.pipeline.compose import answer
from groundgate.pipeline.context import PIPELINE_TOOLS, PipelineContext, PipelineState
from groundgate.pipeline.rerank import rerank
from groundgate.pipeline.retrieve import retrieve
from groundgate.policies.policyset import PolicySet
from groundgate.reading import Reader, default_reader
from groundgate.tools.registry import execute

__all__ = ["build_pipeline", "build_pipeline_graph"]


def build_pipeline_graph(
    ctx: PipelineContext | None = None,
) -> StateGraph[PipelineState, PipelineContext, AgentInput, AgentOutput]:
    """The uncompiled wiring; with ``ctx`` every node is bound to it."""
    graph = StateGraph(
        PipelineState, context_schema=PipelineContext, input_schema=AgentInput, output_schema=AgentOutput
    )
    add_nodes(graph, {"retrieve": retrieve, "rerank": rerank, "answer": answer}, ctx)
    graph.add_edge(START, "retrieve")
    graph.add_edge("retrieve", "rerank")
    graph.add_edge("rerank", "answer")
    # The agent's own grounding_check and gate run on the pipeline's state (a superset of theirs).
    add_gated_end(graph, "answer", ctx)
    return graph


def build_pipeline(
    store: KnowledgeStore,
    model: BaseChatModel | None = None,
    *,
    policies: PolicySet | None = None,
    bounds: Bounds | None = None,
    embedder: Embedder | None = None,
    model_name: str | None = None,
    keep: int = 20,
    hops: int = 2,
    name: str = "groundgate-pipeline",
    run_tool: ToolRunner | None = None,
    reader: Reader | None = None,
) -> CompiledStateGraph[PipelineState, PipelineContext, AgentInput, AgentOutput]:
    """Compile lane A with its store, policies and (optional) answer model fixed.

    Args:
        store: The knowledge store (read-only is enough).
        model: ``None`` or the offline planner: the answer is extractive and deterministic.
            Any other chat model writes the answer from the reranked bundle in one call.
        policies: The policy layer (the same ``PolicySet`` the agent takes).
        bounds: The run's bounds, as for the agent: the tool timeout holds each round of calls, a
            bound reached after the first round skips the walks, and the answer model is not
            called past the token budget and is held to the wall clock. The answer says which tripped.
        embedder: Query embedder for hybrid search, if the store was ingested with one.
        model_name: The name the trace shows for the model.
        keep: Evidence items, best first, an answer model is shown (the extractive answer
            reads the whole reranked union).
        hops: Steps of each typed traversal (1-3).
        name: The compiled graph's name.
        run_tool: How tool calls execute (the registry's ``execute`` by default), as for the agent.
        reader: Reads the reranked union into the extractive answer (``groundgate.reading``).
    """
    answer_model = model if writes_answers(model) else None
    ctx = PipelineContext(
        store=store,
        model=answer_model or OfflinePlanner(),
        tools=PIPELINE_TOOLS,
        policies=policies or PolicySet(),
        bounds=bounds or Bounds(),
        embedder=embedder,
        model_name=model_name or (
            "offline" if answer_model is None
            else getattr(answer_model, "model_name", None) or answer_model._llm_type
        ),
        keep=keep,
        hops=hops,
        answer_model=answer_model,
        run_tool=run_tool or execute,
        reader=reader or default_reader(),
    )
    return build_pipeline_graph(ctx).compile(name=name)

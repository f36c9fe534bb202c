"""What lane A's nodes may use: the agent's ``Context`` plus the pipeline's own dials."""

from __future__ import annotations

from dataclasses import dataclass

from langchain_core.language_models import BaseChatModel

from groundgate.errors import ConfigError
from groundgate.graph.context import Context
from groundgate.graph.state import AgentState

__all__ = ["PIPELINE_TOOLS", "PipelineContext", "PipelineState"]

PIPELINE_TOOLS: tuple[str, ...] = ("search_evidence", "resolve_entity", "traverse")
"""The tools lane A calls, always in this order of stages."""


@dataclass(frozen=True)
class PipelineContext(Context):
    """The agent's context (store, policies, embedder, ...) and lane A's fixed plan."""

    search_top_k: int = 8
    """Passages the hybrid evidence search returns."""
    max_walks: int = 2
    """Resolved entities walked from (best first)."""
    hops: int = 2
    """Steps of each typed traversal."""
    walk_top_k: int = 20
    """Paths each traversal returns."""
    keep: int = 20
    """Evidence items (passages and paths), best first, that an answer model is shown.

    The extractive answer reads the whole reranked union: its sentence scoring needs every
    walked path to tell what the question is about (on the bundled golden set, cutting the
    union to the top 12 cost 3 of 36 correct answers).
    """
    answer_model: BaseChatModel | None = None
    """A real chat model writes the answer from the reranked bundle; ``None`` is extractive."""

    def __post_init__(self) -> None:
        super().__post_init__()
        if min(self.search_top_k, self.max_walks, self.hops, self.walk_top_k, self.keep) < 1:
            raise ConfigError("search_top_k, max_walks, hops, walk_top_k and keep must be positive")
        if self.hops > 3:
            raise ConfigError("hops is at most 3")


class PipelineState(AgentState, total=False):
    """The agent's state plus the rerank of the retrieved union."""

    ranked: list[dict]
    """Every evidence item, best first, with its score and (for walks) its typed path."""

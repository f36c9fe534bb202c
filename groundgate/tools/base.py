"""What a tool is: a name, a model-facing description, an argument model and a function."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from pydantic import BaseModel, ConfigDict, Field

from groundgate.knowledge.embed import Embedder
from groundgate.knowledge.port import KnowledgeStore
from groundgate.tools.envelope import Envelope

__all__ = ["AsOfArgs", "ToolArgs", "ToolDeps", "ToolSpec"]


class ToolArgs(BaseModel):
    """Base of every tool's arguments: unknown keys are an error the model sees."""

    model_config = ConfigDict(extra="forbid")


class AsOfArgs(ToolArgs):
    """Arguments that can be pinned to a date."""

    as_of: date | None = Field(
        None,
        description="YYYY-MM-DD.",
    )


@dataclass(frozen=True)
class ToolDeps:
    """What a tool may use: the store (read-only), an optional embedder, the default date."""

    store: KnowledgeStore
    embedder: Embedder | None = None
    default_as_of: date | None = None


@dataclass(frozen=True)
class ToolSpec:
    """A registered tool."""

    name: str
    description: str
    args_model: type[ToolArgs]
    run: Callable[[ToolArgs, ToolDeps], Envelope]

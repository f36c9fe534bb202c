"""What a tool is: a name, a model-facing description, an argument model and a function.

A tool module declares its arguments and one function, made a tool by ``@tool``:

```python
@tool("What the model is told the tool does.")
def search_evidence(args: Args, deps: ToolDeps) -> Found:
    ...
    return Found(results, empty_reason="no passage matches ...")
```

The tool is named after the function and its arguments are the model the first parameter is
annotated with; what it found becomes the envelope here, the same way for every tool.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, TypeVar, get_type_hints

from pydantic import BaseModel, ConfigDict, Field

from groundgate.knowledge.embed import Embedder
from groundgate.knowledge.port import KnowledgeStore
from groundgate.tools.envelope import Envelope, ResultItem
from groundgate.tools.schema import HIDDEN

__all__ = ["AsOfArgs", "Found", "SearchArgs", "ToolArgs", "ToolDeps", "ToolSpec", "kinds_filter", "tool"]


class ToolArgs(BaseModel):
    """Base of every tool's arguments: unknown keys are an error the model sees."""

    model_config = ConfigDict(extra="forbid")


class AsOfArgs(ToolArgs):
    """Arguments that can be pinned to a date."""

    as_of: date | None = Field(
        None,
        description="YYYY-MM-DD.",
    )


class SearchArgs(ToolArgs):
    """Arguments of a search: words to look for, and how many results."""

    query: str = Field(..., min_length=2, max_length=400, description="What to look for.")
    top_k: int = Field(6, ge=1, le=20, description="1-20.")


def kinds_filter(what: str) -> Any:
    """A search's ``kinds`` field: only results of these ``what`` kinds, a filter models are not offered."""
    return Field(default_factory=list, description=f"Only these {what} kinds.", json_schema_extra=HIDDEN)


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


@dataclass(frozen=True)
class Found:
    """What one call found, before it is an envelope."""

    results: Sequence[ResultItem]
    empty_reason: str
    """Why nothing was found: the envelope's ``reason`` when ``results`` is empty."""
    as_of: date | None = None
    """The date the call was answered for, if any."""
    truncated: bool = False
    """More was found than ``results`` holds."""
    empty_is_answer: bool = False
    """Finding nothing answers the question (an empty register), so it is not ``insufficient``."""


A = TypeVar("A", bound=ToolArgs)


def tool(description: str) -> Callable[[Callable[[A, ToolDeps], Found]], ToolSpec]:
    """Make a tool of a function ``name(args: Args, deps: ToolDeps) -> Found``.

    Args:
        description: What the model is told the tool does.

    Returns:
        A decorator giving the ``ToolSpec``: named after the function, with the argument
        model its ``args`` parameter is annotated with, whose run wraps what the function
        found into the envelope (the call's arguments as JSON, its sources, ``insufficient``).
    """

    def make(find: Callable[[A, ToolDeps], Found]) -> ToolSpec:
        name = find.__name__
        args_model = get_type_hints(find)["args"]

        def run(args: Any, deps: ToolDeps) -> Envelope:
            found = find(args, deps)
            envelope = Envelope.of(
                name, list(found.results), args=args.model_dump(mode="json"), as_of=found.as_of,
                empty_reason=found.empty_reason, truncated=found.truncated,
            )
            if found.empty_is_answer and not found.results:
                return envelope.model_copy(update={"insufficient": False})
            return envelope

        return ToolSpec(name, description, args_model, run)

    return make

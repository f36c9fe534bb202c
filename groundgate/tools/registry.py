"""The registry of the eight tools, their execution, and their LangChain form."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable
from typing import Any

from langchain_core.tools import BaseTool, StructuredTool
from pydantic import ValidationError

from groundgate.errors import ConfigError, GroundgateError
from groundgate.tools import (
    diff,
    get_source,
    list_contradictions,
    resolve_entity,
    search_evidence,
    search_knowledge,
    timeline,
    traverse,
)
from groundgate.tools.base import ToolDeps, ToolSpec
from groundgate.tools.envelope import Envelope, error_envelope
from groundgate.tools.schema import usage_hint

__all__ = ["ALL_TOOLS", "TOOLS", "as_langchain_tools", "execute", "select", "timed_call"]

TOOLS: dict[str, ToolSpec] = {
    spec.name: spec
    for spec in (
        search_evidence.SPEC,
        search_knowledge.SPEC,
        traverse.SPEC,
        timeline.SPEC,
        diff.SPEC,
        resolve_entity.SPEC,
        list_contradictions.SPEC,
        get_source.SPEC,
    )
}
ALL_TOOLS: tuple[str, ...] = tuple(TOOLS)
"""The names of the eight tools, in contract order."""


def select(names: Iterable[str]) -> tuple[ToolSpec, ...]:
    """The specs for ``names``; an unknown name is a developer error."""
    chosen = []
    for name in names:
        if name not in TOOLS:
            raise ConfigError(f"unknown tool {name!r}; the tools are {', '.join(ALL_TOOLS)}")
        chosen.append(TOOLS[name])
    return tuple(chosen)


def _validation_message(spec: ToolSpec, exc: ValidationError) -> str:
    """One short corrective line: what was wrong, and how the tool is called."""
    problems = []
    for error in exc.errors()[:3]:
        where = ".".join(str(p) for p in error["loc"]) or "arguments"
        problems.append(f"{where}: {error['msg']}")
    return f"invalid arguments: {'; '.join(problems)}. Call it as {usage_hint(spec.name, spec.args_model)}"


def execute(
    name: str,
    args: dict[str, Any],
    deps: ToolDeps,
    *,
    allowed: Iterable[str] = ALL_TOOLS,
    call_id: str = "",
) -> Envelope:
    """Run one tool call; every failure becomes an error envelope, never an exception."""
    local = functools.partial(_run, name, args, deps, call_id)
    return timed_call(name, args, allowed=allowed, call_id=call_id, run=local)


def timed_call(
    name: str, args: dict[str, Any], *, allowed: Iterable[str], call_id: str, run: Callable[[], Envelope]
) -> Envelope:
    """What every tool runner does around a call: refuse a tool not ``allowed``, time ``run()``.

    The envelope comes back stamped with ``call_id`` and the milliseconds the call took.
    """
    started = time.perf_counter()
    allowed = tuple(allowed)
    if name not in allowed:
        envelope = error_envelope(
            name, f"unknown tool {name!r}; available: {', '.join(allowed)}", args=args, call_id=call_id
        )
    else:
        envelope = run()
    elapsed = round((time.perf_counter() - started) * 1000, 3)
    return envelope.model_copy(update={"call_id": call_id, "ms": elapsed})


def _run(name: str, args: dict[str, Any], deps: ToolDeps, call_id: str) -> Envelope:
    spec = TOOLS[name]
    try:
        parsed = spec.args_model.model_validate(args)
        return spec.run(parsed, deps)
    except ValidationError as exc:
        return error_envelope(name, _validation_message(spec, exc), args=args, call_id=call_id)
    except GroundgateError as exc:
        return error_envelope(name, str(exc), args=args, call_id=call_id)
    except Exception as exc:  # a backend fault must not crash the run
        return error_envelope(name, f"{type(exc).__name__}: {exc}", args=args, call_id=call_id)


def as_langchain_tools(deps: ToolDeps, names: Iterable[str] = ALL_TOOLS) -> list[BaseTool]:
    """LangChain tools bound to a store: content for the model, the envelope as artifact."""
    tools: list[BaseTool] = []
    for spec in select(names):

        def _call(_spec: ToolSpec = spec, **kwargs: Any) -> tuple[str, Envelope]:
            envelope = execute(_spec.name, kwargs, deps)
            return envelope.for_model(), envelope

        tools.append(
            StructuredTool.from_function(
                func=_call,
                name=spec.name,
                description=spec.description,
                args_schema=spec.args_model,
                response_format="content_and_artifact",
            )
        )
    return tools

"""The tool contract a model sees: compact function schemas, built once per tool set."""

from __future__ import annotations

import functools
import json
from typing import Any

from groundgate.tools.registry import select
from groundgate.tools.schema import compact_schema

__all__ = ["contract_chars", "needs_ids", "tool_schemas"]


@functools.lru_cache(maxsize=32)
def tool_schemas(names: tuple[str, ...]) -> tuple[dict[str, Any], ...]:
    """OpenAI-style function schemas for ``names``, in contract order."""
    return tuple(
        {"type": "function", "function": {
            "name": spec.name, "description": spec.description, "parameters": compact_schema(spec.args_model),
        }}
        for spec in select(names)
    )


def contract_chars(names: tuple[str, ...], system_prompt: str) -> int:
    """Characters of the whole contract a model is sent: the system prompt and the schemas."""
    return len(system_prompt) + len(json.dumps(list(tool_schemas(names))))


@functools.lru_cache(maxsize=32)
def needs_ids(names: tuple[str, ...]) -> frozenset[str]:
    """The tools of ``names`` whose every required argument is an id a tool returned.

    ``traverse(entity_id)``, ``timeline(entity_id)``, ``diff(new_id)``, ``get_source(source_id)``.
    Before anything is found a model has no such id (the question's ``CLM-1108`` is a
    mention for ``resolve_entity``, not an entity id), so their schemas are not worth
    sending yet.
    """
    out: set[str] = set()
    for spec in select(names):
        required = compact_schema(spec.args_model).get("required") or []
        if required and all(arg.endswith("_id") for arg in required):
            out.add(spec.name)
    return frozenset(out)

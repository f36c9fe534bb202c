"""Compact JSON schemas of tool arguments, and a one-line usage hint per tool.

Pydantic's JSON schema carries titles, defaults, ``anyOf`` with ``null`` for every
optional field and ``additionalProperties``: noise a small model pays for on every call
and that no model needs. These schemas keep each argument's type, its description and
which arguments are required; bounds and formats are checked when a call is executed,
and a call that breaks them gets one short corrective error back (with ``usage_hint``).
"""

from __future__ import annotations

import functools
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import JsonDict

__all__ = ["HIDDEN", "MODEL_HIDDEN", "compact_schema", "usage_hint"]


def _compact(node: dict[str, Any]) -> dict[str, Any]:
    options = node.get("anyOf")
    if options:
        kept = [o for o in options if o.get("type") != "null"]
        if len(kept) == 1:
            described = {"description": node["description"]} if "description" in node else {}
            return {**_compact(kept[0]), **described}
    out: dict[str, Any] = {}
    for key in ("type", "enum", "description"):
        if key in node:
            out[key] = node[key]
    if "const" in node:
        out["enum"] = [node["const"]]
    if isinstance(node.get("items"), dict):
        out["items"] = _compact(node["items"])
    return out


MODEL_HIDDEN = "x-not-for-models"
"""Schema key of an argument the model's contract leaves out (``Field(json_schema_extra=HIDDEN)``)."""
HIDDEN: JsonDict = {MODEL_HIDDEN: True}
"""``json_schema_extra`` of a filter whose vocabulary a model cannot know: callers may use it;
models are not offered it (a small model fills every filter it is shown, with guesses)."""


def compact_schema(args_model: type[BaseModel]) -> dict[str, Any]:
    """The object schema of a tool's arguments: types, descriptions and required names only."""
    full = args_model.model_json_schema()
    required = list(full.get("required") or ())
    offered = {k: v for k, v in full.get("properties", {}).items() if not v.get(MODEL_HIDDEN)}
    # Required arguments first: a model reads (and writes) them before the options.
    order = sorted(offered.items(), key=lambda item: item[0] not in required)
    schema: dict[str, Any] = {"type": "object", "properties": {name: _compact(prop) for name, prop in order}}
    if required:
        schema["required"] = required
    return schema


@functools.lru_cache(maxsize=64)
def usage_hint(name: str, args_model: type[BaseModel]) -> str:
    """How to call a tool, in one line: ``search_evidence(query: string, top_k?: integer, ...)``."""
    schema = compact_schema(args_model)
    required = set(schema.get("required", ()))
    args = [
        f"{arg}{'' if arg in required else '?'}: {prop.get('type', 'value')}"
        for arg, prop in schema["properties"].items()
    ]
    return f"{name}({', '.join(args)})"

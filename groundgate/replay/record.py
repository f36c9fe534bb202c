"""The run file: the ``--json`` object of a run plus what replaying it needs.

A run file is ``RunResult.to_json()`` with one more key, ``record``: the tools and
bounds the run had, the store and embedder it read, the full conversation with the
model (so the exact text the model was shown is on file) and every tool envelope in full.

Timing (``ms``, ``latency_ms``, ...) differs from run to run by nature; ``comparable``
drops it, so two runs that did the same thing have the same ``canonical_json``.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from langchain_core.messages import messages_to_dict

from groundgate.ask import MODES, RunResult
from groundgate.errors import ConfigError
from groundgate.graph.context import Bounds
from groundgate.settings import Settings

__all__ = [
    "RUN_FORMAT",
    "TIMING_KEYS",
    "canonical_json",
    "comparable",
    "load_run",
    "message_dicts",
    "run_record",
    "save_run",
]

RUN_FORMAT = "groundgate-run/1"
"""The ``record.format`` of the run files this version writes and reads."""

TIMING_KEYS = frozenset({"ms", "latency_ms", "tool_ms", "model_ms", "started_at"})
"""Keys whose values are wall-clock measurements, left out of comparisons."""


def run_record(
    result: RunResult,
    *,
    settings: Settings,
    bounds: Bounds | None = None,
    tools: tuple[str, ...] | None = None,
) -> dict[str, Any]:
    """The run file's content for a finished run.

    Args:
        result: The run, as ``groundgate.ask.ask`` returns it.
        settings: The settings it ran with (store and embedder are recorded).
        bounds: The bounds it ran under (the defaults when omitted).
        tools: The tools it could call (those of its mode when omitted).
    """
    data = result.to_json()
    data["record"] = {
        "format": RUN_FORMAT,
        "tools": list(tools or MODES[result.mode]),
        "bounds": asdict(bounds or Bounds()),
        "store": str(settings.store_path.resolve()) if settings.store_path else None,
        "embedder": settings.embedder,
        "messages": message_dicts(result.messages),
        "envelopes": list(result.envelopes),
    }
    return json.loads(json.dumps(data, default=str))


def message_dicts(messages: Any) -> list[dict[str, Any]]:
    """LangChain messages as JSON data, without their per-run random ids."""
    dicts = messages_to_dict(list(messages))
    for entry in dicts:
        entry.get("data", {}).pop("id", None)
    return dicts


def save_run(path: Path, run: dict[str, Any]) -> None:
    """Write a run file (UTF-8 JSON, one key per line, stable order)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(run, indent=1, ensure_ascii=False, default=str) + "\n", encoding="utf-8")


def load_run(path: Path) -> dict[str, Any]:
    """Read a run file written by ``groundgate ask --save-run``.

    Raises:
        ConfigError: The file is missing, not JSON, or not a run file of this format.
    """
    try:
        run = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read the run file {path}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise ConfigError(f"{path} is not JSON: {exc}") from None
    record = run.get("record") if isinstance(run, dict) else None
    if not isinstance(record, dict) or record.get("format") != RUN_FORMAT:
        found = record.get("format") if isinstance(record, dict) else None
        raise ConfigError(
            f"{path} is not a {RUN_FORMAT} run file (record.format is {found!r}); "
            "write one with `groundgate ask ... --save-run FILE`"
        )
    return run


def comparable(value: Any) -> Any:
    """``value`` without wall-clock fields, at any depth."""
    if isinstance(value, dict):
        return {k: comparable(v) for k, v in value.items() if k not in TIMING_KEYS}
    if isinstance(value, list | tuple):
        return [comparable(v) for v in value]
    return value


def canonical_json(run: dict[str, Any]) -> str:
    """The comparable part of a run as one canonical JSON string."""
    return json.dumps(comparable(run), sort_keys=True, ensure_ascii=False, default=str)

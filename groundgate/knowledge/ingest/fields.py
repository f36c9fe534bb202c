"""Typed reading of corpus fields: each value is what its field needs, or a ``CorpusError``.

YAML gives lists, mappings, booleans, numbers, dates and binary data wherever a user
writes them; nothing here turns one into another by ``str()`` (which would store
``"['A', 'B']"`` as an id). Every error names the file, the line and the field.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from pathlib import Path
from typing import Any

from groundgate.errors import CorpusError

__all__ = ["as_date", "as_id", "as_id_list", "as_mapping", "as_str_list", "as_text", "jsonable"]

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _kind(value: Any) -> str:
    """What a value is, in a user's words."""
    if isinstance(value, bool):
        return "true/false (quote it to mean the word)"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, bytes):
        return "binary data"
    if isinstance(value, set | frozenset):
        return "a set"
    return f"a {type(value).__name__}"


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def as_date(value: Any, path: Path, line: int | None, field: str) -> date | None:
    """A date from a YAML date or timestamp, or an ISO 8601 date or date and time.

    A date and time gives its date as written (``2023-09-26T23:30:00-05:00`` is the 26th).
    """
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        text = value.strip()
        for parse in (date.fromisoformat, datetime.fromisoformat):
            try:
                day = parse(text)
            except ValueError:
                continue
            return day.date() if isinstance(day, datetime) else day
    raise CorpusError(
        path, line,
        f"bad date in {field!r}: {_shown(value)} (expected YYYY-MM-DD or an ISO 8601 date and time)",
    )


def as_text(value: Any, path: Path, line: int | None, field: str) -> str | None:
    """A text field: a string, or a number or date written without quotes; ``None`` if unset."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, int | float | date) and not isinstance(value, bool):
        return value.isoformat() if isinstance(value, date) else str(value)
    raise CorpusError(path, line, f"{field!r} must be text, not {_kind(value)}")


def as_id(value: Any, path: Path, line: int | None, field: str) -> str | None:
    """An id: one line of text without control characters, surrounding spaces dropped."""
    text = as_text(value, path, line, field)
    if text is None:
        return None
    text = text.strip()
    if _CONTROL.search(text):
        raise CorpusError(
            path, line, f"{field!r} must be one line without control characters: {_shown(text)}"
        )
    return text


def as_str_list(value: Any, path: Path, line: int | None, field: str) -> tuple[str, ...]:
    """One string or a list of strings (numbers written without quotes are kept as text)."""
    if value is None or value == "":
        return ()
    items = value if isinstance(value, list) else [value]
    out = []
    for item in items:
        if isinstance(item, list | dict):
            raise CorpusError(path, line, f"{field!r} must be a string or a list of strings")
        text = as_text(item, path, line, field)
        if text is not None:
            out.append(text)
    return tuple(out)


def as_id_list(value: Any, path: Path, line: int | None, field: str) -> tuple[str, ...]:
    """One id or a list of ids."""
    ids = []
    for item in as_str_list(value, path, line, field):
        checked = as_id(item, path, line, field)
        if not checked:
            raise CorpusError(path, line, f"{field!r} holds an empty id")
        ids.append(checked)
    return tuple(ids)


def as_mapping(value: Any, path: Path, line: int | None, field: str) -> dict[str, Any]:
    """Free key/values (``attributes``): a mapping whose values can be stored as JSON."""
    if value is None or value == "":
        return {}
    if not isinstance(value, dict):
        raise CorpusError(path, line, f"{field!r} must be a mapping of keys to values, not {_kind(value)}")
    mapping: dict[str, Any] = jsonable(value, path, line, field)
    return mapping


def jsonable(value: Any, path: Path, line: int | None, field: str) -> Any:
    """``value`` as JSON-ready data: dates as ISO text, the loader's line markers dropped.

    Raises:
        CorpusError: Some part of it (binary data, a set) has no JSON form.
    """
    if isinstance(value, dict):
        return {
            str(k): jsonable(v, path, line, field)
            for k, v in value.items()
            if k not in ("__line__", "__keylines__")
        }
    if isinstance(value, list | tuple):
        return [jsonable(v, path, line, field) for v in value]
    if isinstance(value, date):  # datetime too
        return value.isoformat()
    if value is None or isinstance(value, str | int | float):
        return value
    raise CorpusError(path, line, f"{field!r} holds {_kind(value)}, which cannot be stored")

"""The OData ``$filter`` subset the fake AI Search answers: comparisons, and/or/not, null, parentheses.

Part of the test double (``fake_search``): a filter is parsed into a predicate over records,
with the messages AI Search gives for a bad one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Any

__all__ = ["InvalidFilter", "parse_filter"]


class InvalidFilter(ValueError):
    """A filter AI Search would refuse with 400; the message is the service's wording."""


_FILTER_TOKEN = re.compile(
    r"\s*(?:(?P<str>'(?:[^']|'')*')|(?P<dt>\d{4}-\d{2}-\d{2}T[0-9:.]+(?:Z|[+-]\d{2}:\d{2}))"
    r"|(?P<num>-?\d+(?:\.\d+)?)|(?P<op>\(|\)|,)|(?P<word>[A-Za-z_][A-Za-z0-9_./]*))"
)


def _tokens(text: str) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        match = _FILTER_TOKEN.match(text, pos)
        if not match or match.end() == pos:
            raise InvalidFilter(f"Invalid expression: syntax error at position {pos} in '{text}'.")
        pos = match.end()
        kind = match.lastgroup or ""
        raw = match.group(kind)
        if kind == "str":
            out.append(("value", raw[1:-1].replace("''", "'")))
        elif kind == "dt":
            out.append(("value", datetime.fromisoformat(raw.replace("Z", "+00:00"))))
        elif kind == "num":
            out.append(("value", float(raw)))
        elif kind == "word" and raw in ("null", "true", "false"):
            out.append(("value", {"null": None, "true": True, "false": False}[raw]))
        else:
            out.append((kind, raw))
    return out


def parse_filter(text: str, fields: dict[str, Any]) -> Callable[[dict[str, Any]], bool]:
    """A predicate over records for an OData ``$filter`` on an index with ``fields``.

    Raises:
        InvalidFilter: A syntax error, an unknown field, or a field that is not filterable.
    """
    tokens = _tokens(text)
    pos = 0

    def peek() -> tuple[str, Any] | None:
        return tokens[pos] if pos < len(tokens) else None

    def take() -> tuple[str, Any]:
        nonlocal pos
        if pos >= len(tokens):
            raise InvalidFilter(f"Invalid expression: unexpected end of '{text}'.")
        pos += 1
        return tokens[pos - 1]

    def expression() -> Any:
        left = conjunction()
        while peek() == ("word", "or"):
            take()
            right = conjunction()
            left = (lambda a, b: lambda r: a(r) or b(r))(left, right)
        return left

    def conjunction() -> Any:
        left = unary()
        while peek() == ("word", "and"):
            take()
            right = unary()
            left = (lambda a, b: lambda r: a(r) and b(r))(left, right)
        return left

    def unary() -> Any:
        if peek() == ("word", "not"):
            take()
            inner = unary()
            return lambda r: not inner(r)
        if peek() == ("op", "("):
            take()
            inner = expression()
            if take() != ("op", ")"):
                raise InvalidFilter(f"Invalid expression: ')' expected in '{text}'.")
            return inner
        return comparison()

    def comparison() -> Any:
        kind, field = take()
        if kind != "word" or field not in fields:
            raise InvalidFilter(f"Invalid expression: could not find a property named '{field}'.")
        if not fields[field].get("filterable"):
            raise InvalidFilter(f"Invalid expression: '{field}' is not a filterable field.")
        op_kind, op = take()
        value_kind, value = take()
        if op_kind != "word" or op not in ("eq", "ne", "lt", "le", "gt", "ge") or value_kind != "value":
            raise InvalidFilter(f"Invalid expression near '{field} {op}' in '{text}'.")
        return lambda r: _compare(_field_value(r.get(field)), op, value)

    predicate = expression()
    if pos != len(tokens):
        raise InvalidFilter(f"Invalid expression: unexpected '{tokens[pos][1]}' in '{text}'.")
    return predicate


def _field_value(value: Any) -> Any:
    if isinstance(value, str) and re.match(r"^\d{4}-\d{2}-\d{2}T", value):
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    return value


def _compare(left: Any, op: str, right: Any) -> bool:
    if op == "eq":
        return bool(left == right)
    if op == "ne":
        return bool(left != right)
    if left is None or right is None:
        return False
    try:
        return {"lt": left < right, "le": left <= right, "gt": left > right, "ge": left >= right}[op]
    except TypeError:
        return False

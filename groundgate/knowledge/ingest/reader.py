"""Read corpus files into typed records, with errors that name the file and line."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

import yaml

from groundgate.errors import CorpusError
from groundgate.knowledge.model import Document

__all__ = [
    "DOCUMENT_SUFFIXES",
    "KNOWLEDGE_SUFFIXES",
    "Located",
    "line_of_key",
    "read_document",
    "read_knowledge",
]

DOCUMENT_SUFFIXES = (".md", ".markdown", ".txt")
KNOWLEDGE_SUFFIXES = (".yaml", ".yml")

_DOC_FIELDS = {
    "id", "title", "kind", "version", "effective_from", "effective_to", "published_at",
    "url", "supersedes", "entities", "owner",
}
_DATE_FIELDS = ("effective_from", "effective_to", "published_at")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)


@dataclass(frozen=True)
class Located:
    """A YAML mapping with the 1-based line it starts on."""

    data: dict[str, Any]
    line: int
    key_lines: dict[str, int] = field(default_factory=dict)

    def at(self, key: str) -> int:
        """The line where ``key`` is set in this mapping (its first line when absent)."""
        return self.key_lines.get(key, self.line)


class _LineLoader(yaml.SafeLoader):
    """A safe loader that records where each mapping starts."""


_CSafeLoader: type | None = getattr(yaml, "CSafeLoader", None)


class _FastLineLoader(_CSafeLoader or yaml.SafeLoader):  # type: ignore[misc]
    """The same loader over libyaml's parser when PyYAML has it (several times faster)."""


def _construct_mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> dict[str, Any]:
    mapping: dict[str, Any] = {str(k): v for k, v in loader.construct_mapping(node, deep=True).items()}
    mapping["__line__"] = node.start_mark.line + 1
    mapping["__keylines__"] = {
        str(key.value): key.start_mark.line + 1 for key, _ in node.value if hasattr(key, "value")
    }
    return mapping


def _construct_timestamp(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> Any:
    # YAML reads anything shaped like 2026-13-45 as a date and raises a bare ValueError on
    # an impossible one; kept as text, it reaches the field's own check, which names the
    # file, the line and the field.
    try:
        return loader.construct_yaml_timestamp(node)
    except ValueError:
        return loader.construct_scalar(node)


for _loader in (_LineLoader, _FastLineLoader):
    _loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
    _loader.add_constructor("tag:yaml.org,2002:timestamp", _construct_timestamp)


def _load_yaml(text: str, path: Path, line_offset: int = 0) -> Any:
    if _CSafeLoader is not None and not yaml.reader.Reader.NON_PRINTABLE.search(text):
        try:
            return yaml.load(text, Loader=_FastLineLoader)  # noqa: S506 - a SafeLoader subclass
        except (yaml.YAMLError, ValueError, TypeError):
            pass  # parse again below, so errors read exactly as the pure-Python loader's
    try:
        return yaml.load(text, Loader=_LineLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = (mark.line + 1 + line_offset) if mark else None
        raise CorpusError(path, line, f"bad YAML: {exc.problem or exc}") from exc
    except (yaml.YAMLError, ValueError, TypeError) as exc:  # a constructor's own error
        raise CorpusError(path, None, f"bad YAML: {exc}") from exc


def as_date(value: Any, path: Path, line: int | None, field: str) -> date | None:
    """Accept a YAML date, an ISO string or nothing; anything else names the field."""
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value).strip())
    except ValueError:
        raise CorpusError(
            path, line, f"bad date in {field!r}: {value!r} (expected YYYY-MM-DD)"
        ) from None


def as_str_list(value: Any, path: Path, line: int | None, field: str) -> tuple[str, ...]:
    """Accept one string or a list of strings."""
    if value is None or value == "":
        return ()
    if isinstance(value, str | int):
        return (str(value),)
    if isinstance(value, list) and all(isinstance(v, str | int) for v in value):
        return tuple(str(v) for v in value)
    raise CorpusError(path, line, f"{field!r} must be a string or a list of strings")


def line_of_key(path: Path, key: str) -> int:
    """The 1-based line where ``key:`` is first set in a file (1 when absent)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return 1
    return _key_line(text, key, 0) or 1


def _key_line(front: str, key: str, offset: int) -> int:
    for number, text in enumerate(front.splitlines(), start=1):
        if re.match(rf"\s*{re.escape(key)}\s*:", text):
            return number + offset
    return offset


_WORD_KEY = re.compile(r"\s*(\w+)\s*:")


def _word_key_lines(front: str) -> dict[str, int]:
    """First line of each word-only key; for such keys, what ``_key_line`` finds, in one pass."""
    lines: dict[str, int] = {}
    for number, text in enumerate(front.splitlines(), start=1):
        match = _WORD_KEY.match(text)
        if match:
            lines.setdefault(match.group(1), number)
    return lines


def _path_id(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).with_suffix("").as_posix()
    except ValueError:  # not under root (a single file given directly)
        return path.stem


def read_document(path: Path, root: Path, *, shared_name: bool = False) -> Document:
    """Parse one Markdown or text file, with optional YAML front matter.

    Without an ``id``, the file name without its extension names the document; when
    another file of the corpus has the same name (``shared_name``), its path under
    ``root`` does (``2024/summary``, ``2025/summary``), so the two stay apart.
    """
    try:
        raw = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise CorpusError(path, None, f"not UTF-8 text ({exc.reason})") from exc
    raw = raw.replace("\r\n", "\n")
    front: dict[str, Any] = {}
    body = raw
    front_text = ""
    if raw.startswith("---\n"):
        end = raw.find("\n---", 3)
        if end == -1:
            raise CorpusError(path, 1, "front matter opened with '---' but never closed")
        front_text = raw[4 : end + 1]
        loaded = _load_yaml(front_text, path, line_offset=1)
        if loaded is None:
            loaded = {}
        if not isinstance(loaded, dict):
            raise CorpusError(path, 2, "front matter must be a mapping of keys to values")
        front = {k: v for k, v in loaded.items() if k not in ("__line__", "__keylines__")}
        body = raw[end + 4 :].lstrip("-").lstrip("\n")

    key_lines = _word_key_lines(front_text)

    def line_of(key: str) -> int:
        return key_lines.get(key, 0) + 1

    heading = _HEADING.search(body)
    fallback = _path_id(path, root) if shared_name else path.stem
    doc_id = str(front.get("id") or fallback).strip()
    if not doc_id:
        raise CorpusError(path, line_of("id"), "empty 'id'")
    title = str(front.get("title") or (heading.group(1) if heading else path.stem))
    dates = {f: as_date(front.get(f), path, line_of(f), f) for f in _DATE_FIELDS}
    if dates["effective_from"] and dates["effective_to"]:
        if dates["effective_to"] <= dates["effective_from"]:
            raise CorpusError(path, line_of("effective_to"), "effective_to is not after effective_from")
    metadata = {k: v for k, v in front.items() if k not in _DOC_FIELDS}
    return Document(
        id=doc_id,
        title=title.strip(),
        kind=str(front.get("kind") or "document"),
        version=None if front.get("version") is None else str(front["version"]),
        url=front.get("url"),
        supersedes=as_str_list(front.get("supersedes"), path, line_of("supersedes"), "supersedes"),
        entity_ids=as_str_list(front.get("entities"), path, line_of("entities"), "entities"),
        owner=None if front.get("owner") is None else str(front["owner"]),
        body=body.strip(),
        metadata=_jsonable(metadata),
        path=str(path.relative_to(root)) if path.is_relative_to(root) else str(path),
        **dates,
    )


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    if isinstance(value, date | datetime):
        return value.isoformat()
    return value


def read_knowledge(path: Path) -> dict[str, list[Located]]:
    """Parse a declared-knowledge YAML file into located entity/relationship/contradiction maps."""
    loaded = _load_yaml(path.read_text(encoding="utf-8"), path)
    if loaded is None:
        return {}
    if not isinstance(loaded, dict):
        raise CorpusError(
            path, 1, "a knowledge file must be a mapping with entities/relationships/contradictions"
        )
    out: dict[str, list[Located]] = {}
    for section in ("entities", "relationships", "contradictions"):
        items = loaded.get(section) or []
        if not isinstance(items, list):
            raise CorpusError(path, loaded.get("__line__"), f"{section!r} must be a list")
        located = []
        for item in items:
            if not isinstance(item, dict):
                raise CorpusError(path, None, f"every item of {section!r} must be a mapping")
            line = item.pop("__line__", None)
            key_lines = item.pop("__keylines__", {})
            located.append(Located(data=item, line=line or 1, key_lines=key_lines))
        out[section] = located
    unknown = set(loaded) - {"entities", "relationships", "contradictions", "__line__", "__keylines__"}
    if unknown:
        raise CorpusError(path, 1, f"unknown top-level key(s): {', '.join(sorted(map(str, unknown)))}")
    return out

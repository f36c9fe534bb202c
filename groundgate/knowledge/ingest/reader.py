"""Read corpus files into typed records, with errors that name the file and line."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from groundgate.errors import CorpusError
from groundgate.knowledge.ingest.fields import (
    as_date,
    as_id,
    as_id_list,
    as_str_list,
    as_text,
    jsonable,
)
from groundgate.knowledge.ingest.files import DOCUMENT_SUFFIXES, KNOWLEDGE_SUFFIXES, read_text
from groundgate.knowledge.ingest.yaml_load import load_yaml
from groundgate.knowledge.model import Document

__all__ = [
    "DOCUMENT_SUFFIXES",
    "KNOWLEDGE_SUFFIXES",
    "Located",
    "as_date",
    "as_str_list",
    "line_of_key",
    "parse_document",
    "read_document",
    "read_knowledge",
]

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


def line_of_key(path: Path, key: str) -> int:
    """The 1-based line where ``key:`` is first set in a file (1 when absent)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeError):
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
    """Read and parse one Markdown or text file, with optional YAML front matter.

    Without an ``id``, the file name without its extension names the document; when
    another file of the corpus has the same name (``shared_name``), its path under
    ``root`` does (``2024/summary``, ``2025/summary``), so the two stay apart.

    Raises:
        CorpusError: The file cannot be read, or its front matter is malformed or gives
            a field a value of the wrong kind; names the file and line.
    """
    return parse_document(read_text(path), path, root, shared_name=shared_name)


def parse_document(text: str, path: Path, root: Path, *, shared_name: bool = False) -> Document:
    """Parse the ``text`` of the document file at ``path`` (see ``read_document``).

    Raises:
        CorpusError: The front matter is malformed or gives a field a value of the wrong
            kind; names the file and line.
    """
    raw = text.replace("\r\n", "\n")
    front: dict[str, Any] = {}
    body = raw
    front_text = ""
    if raw.startswith("---\n"):
        end = raw.find("\n---", 3)
        if end == -1:
            raise CorpusError(path, 1, "front matter opened with '---' but never closed")
        front_text = raw[4 : end + 1]
        loaded = load_yaml(front_text, path, line_offset=1)
        if loaded is None:
            loaded = {}
        if not isinstance(loaded, dict):
            raise CorpusError(path, 2, "front matter must be a mapping of keys to values")
        front = {k: v for k, v in loaded.items() if k not in ("__line__", "__keylines__")}
        body = raw[end + 4 :].lstrip("-").lstrip("\n")

    key_lines = _word_key_lines(front_text)

    def line_of(key: str) -> int:
        return key_lines.get(key, 0) + 1

    def field_text(key: str) -> str | None:
        return as_text(front.get(key), path, line_of(key), key)

    heading = _HEADING.search(body)
    fallback = _path_id(path, root) if shared_name else path.stem
    given_id = front.get("id")
    doc_id = as_id(given_id, path, line_of("id"), "id") if given_id not in (None, "") else fallback.strip()
    if not doc_id:
        raise CorpusError(path, line_of("id"), "empty 'id'")
    title = field_text("title") or (heading.group(1) if heading else path.stem)
    dates = {f: as_date(front.get(f), path, line_of(f), f) for f in _DATE_FIELDS}
    if dates["effective_from"] and dates["effective_to"]:
        if dates["effective_to"] <= dates["effective_from"]:
            raise CorpusError(path, line_of("effective_to"), "effective_to is not after effective_from")
    metadata = {k: jsonable(v, path, line_of(k), k) for k, v in front.items() if k not in _DOC_FIELDS}
    return Document(
        id=doc_id,
        title=title.strip(),
        kind=field_text("kind") or "document",
        version=field_text("version"),
        url=field_text("url"),
        supersedes=as_id_list(front.get("supersedes"), path, line_of("supersedes"), "supersedes"),
        entity_ids=as_id_list(front.get("entities"), path, line_of("entities"), "entities"),
        owner=field_text("owner"),
        body=body.strip(),
        metadata=metadata,
        path=str(path.relative_to(root)) if path.is_relative_to(root) else str(path),
        **dates,
    )


def read_knowledge(path: Path) -> dict[str, list[Located]]:
    """Parse a declared-knowledge YAML file into located entity/relationship/contradiction maps.

    Raises:
        CorpusError: The file cannot be read or is not a mapping of those three lists.
    """
    loaded = load_yaml(read_text(path), path, build_items=True)
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
            raise CorpusError(path, loaded["__keylines__"].get(section), f"{section!r} must be a list")
        located = []
        for item in items:
            if not isinstance(item, dict):
                raise CorpusError(
                    path, loaded["__keylines__"].get(section), f"every item of {section!r} must be a mapping"
                )
            line = item.pop("__line__", None)
            key_lines = item.pop("__keylines__", {})
            located.append(Located(data=item, line=line or 1, key_lines=key_lines))
        out[section] = located
    unknown = set(loaded) - {"entities", "relationships", "contradictions", "__line__", "__keylines__"}
    if unknown:
        raise CorpusError(path, 1, f"unknown top-level key(s): {', '.join(sorted(map(str, unknown)))}")
    return out

"""YAML for corpus files: safe, line-marked, and held to the limits while it is composed.

PyYAML's own composer recurses once per level of nesting (libyaml's crashes the process
on deep enough input, the pure-Python one raises ``RecursionError``) and expands aliases
without counting them, so a few hundred bytes can ask for billions of nodes. This module
composes the parser's events into nodes in a loop instead, measuring as it goes: the
nesting depth (through aliases too) against ``MAX_YAML_DEPTH``, and the nodes all alias
uses stand for against ``MAX_YAML_ALIAS_NODES``. Only a document within both limits is
constructed into Python values. Any problem is a ``CorpusError`` naming the file and line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.composer import ComposerError
from yaml.events import (
    AliasEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from groundgate.errors import CorpusError
from groundgate.knowledge.ingest.limits import MAX_YAML_ALIAS_NODES, MAX_YAML_DEPTH

__all__ = ["load_yaml"]


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


_BUILT = "tag:groundgate,2025:built"
"""The tag of a node standing for a value constructed while the rest is still composed."""

for _loader in (_LineLoader, _FastLineLoader):
    _loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
    _loader.add_constructor("tag:yaml.org,2002:timestamp", _construct_timestamp)
    _loader.add_constructor(_BUILT, lambda loader, node: node.value)


def load_yaml(text: str, path: Path, line_offset: int = 0, *, build_items: bool = False) -> Any:
    """The value of the one YAML document in ``text`` (``None`` when it is empty).

    ``line_offset`` is added to line numbers, for YAML that starts further down a file.
    ``build_items`` constructs each item of a list that is a value of the top mapping as
    soon as it is read (a knowledge file's entities, relationships, contradictions), so
    the nodes of a large file, several times its size, are never all in memory at once.

    Raises:
        CorpusError: The YAML is malformed or over a limit; names ``path`` and the line.
    """
    if _CSafeLoader is not None and not yaml.reader.Reader.NON_PRINTABLE.search(text):
        try:
            return _load(_FastLineLoader(text), path, line_offset, build_items)
        except (yaml.YAMLError, ValueError, TypeError):
            pass  # parse again below, so errors read exactly as the pure-Python loader's
    try:
        return _load(_LineLoader(text), path, line_offset, build_items)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = (mark.line + 1 + line_offset) if mark else None
        raise CorpusError(path, line, f"bad YAML: {exc.problem or exc}") from exc
    except (yaml.YAMLError, ValueError, TypeError) as exc:  # a constructor's own error
        raise CorpusError(path, None, f"bad YAML: {exc}") from exc


def _load(loader: yaml.SafeLoader, path: Path, line_offset: int, build_items: bool) -> Any:
    try:
        node = _Composer(loader, path, line_offset, build_items).document()
        return None if node is None else loader.construct_document(node)
    finally:
        loader.dispose()


@dataclass
class _Open:
    """A collection being composed, and the measure of what it holds so far."""

    node: Node
    anchor: str | None
    size: int = 1
    height: int = 0
    key: Node | None = None

    def add(self, child: Node, size: int, height: int) -> None:
        self.size += size
        self.height = max(self.height, height)
        if isinstance(self.node, SequenceNode):
            self.node.value.append(child)
        elif self.key is None:
            self.key = child
        else:
            self.node.value.append((self.key, child))
            self.key = None


@dataclass
class _Composer:
    """PyYAML's composer as a loop over events, measuring depth and alias expansion."""

    loader: yaml.SafeLoader
    path: Path
    line_offset: int
    build_items: bool
    anchors: dict[str, Node] = field(default_factory=dict)
    measured: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Anchor to (nodes, depth) of what it names, once that node is complete."""
    expanded: int = 0

    def _fail(self, event: Any, problem: str) -> CorpusError:
        return CorpusError(self.path, event.start_mark.line + 1 + self.line_offset, problem)

    def document(self) -> Node | None:
        loader = self.loader
        loader.get_event()  # stream start
        if loader.check_event(StreamEndEvent):
            loader.get_event()
            return None
        loader.get_event()  # document start
        root = self._root()
        loader.get_event()  # document end
        if not loader.check_event(StreamEndEvent):
            raise self._fail(loader.get_event(), "a second YAML document ('---'); a corpus file holds one")
        loader.get_event()
        return root

    def _root(self) -> Node:
        stack: list[_Open] = []
        while True:
            event = self.loader.get_event()
            if isinstance(event, AliasEvent):
                node, size, height = self._alias(event)
            elif isinstance(event, ScalarEvent):
                node, size, height = self._scalar(event), 1, 0
            elif isinstance(event, SequenceStartEvent | MappingStartEvent):
                if len(stack) >= MAX_YAML_DEPTH:
                    raise self._too_deep(event)
                stack.append(_Open(self._collection(event), event.anchor))
                continue
            else:  # the end of the innermost collection
                done = stack.pop()
                node, size, height = done.node, done.size, done.height + 1
                node.end_mark = event.end_mark
                if done.anchor is not None:
                    self.measured[done.anchor] = (size, height)
                if self.build_items and len(stack) == 2 and isinstance(stack[-1].node, SequenceNode):
                    # An alias to it still finds the node itself (kept in ``anchors``).
                    value = self.loader.construct_document(node)
                    node = ScalarNode(_BUILT, value, node.start_mark, node.end_mark)
            if len(stack) + height > MAX_YAML_DEPTH:
                raise self._too_deep(event)
            if not stack:
                return node
            stack[-1].add(node, size, height)

    def _too_deep(self, event: Any) -> CorpusError:
        return self._fail(
            event, f"YAML nested deeper than {MAX_YAML_DEPTH} levels (MAX_YAML_DEPTH)"
        )

    def _alias(self, event: Any) -> tuple[Node, int, int]:
        node = self.anchors.get(event.anchor)
        if node is None:
            raise ComposerError(None, None, f"found undefined alias {event.anchor!r}", event.start_mark)
        if event.anchor not in self.measured:
            raise self._fail(event, f"alias *{event.anchor} is used inside the node it names")
        size, height = self.measured[event.anchor]
        self.expanded += size
        if self.expanded > MAX_YAML_ALIAS_NODES:
            raise self._fail(
                event,
                f"YAML aliases expand to more than {MAX_YAML_ALIAS_NODES:,} nodes (MAX_YAML_ALIAS_NODES)",
            )
        return node, size, height

    def _anchor(self, event: Any, node: Node) -> None:
        anchor = event.anchor
        if anchor is None:
            return
        if anchor in self.anchors:
            first = self.anchors[anchor].start_mark.line + 1 + self.line_offset
            raise self._fail(event, f"anchor &{anchor} is defined twice (first on line {first})")
        self.anchors[anchor] = node

    def _scalar(self, event: Any) -> Node:
        if "\x00" in event.value:
            raise self._fail(event, "a NUL character in a value; corpus files are text")
        tag = event.tag
        if tag is None or tag == "!":
            tag = self.loader.resolve(ScalarNode, event.value, event.implicit)
        node = ScalarNode(tag, event.value, event.start_mark, event.end_mark, style=event.style)
        self._anchor(event, node)
        if event.anchor is not None:
            self.measured[event.anchor] = (1, 0)
        return node

    def _collection(self, event: Any) -> Node:
        kind = SequenceNode if isinstance(event, SequenceStartEvent) else MappingNode
        tag = event.tag
        if tag is None or tag == "!":
            tag = self.loader.resolve(kind, None, event.implicit)
        node = kind(tag, [], event.start_mark, None, flow_style=event.flow_style)
        self._anchor(event, node)
        return node

"""The size limits ingest holds every corpus file to (documented in docs/corpus-format.md).

A file over a limit is a ``CorpusError`` that names the file and the limit, raised before
the file can cost more than the limit allows: the size is checked before reading, and the
YAML limits while composing, before anything is built from the text.
"""

from __future__ import annotations

__all__ = ["MAX_FILE_BYTES", "MAX_YAML_ALIAS_NODES", "MAX_YAML_DEPTH"]

MAX_FILE_BYTES = 64 * 1024 * 1024
"""The largest corpus file ingest reads (64 MiB); split larger knowledge files."""

MAX_YAML_DEPTH = 64
"""How deeply YAML collections (mappings and lists) may nest, counting through aliases."""

MAX_YAML_ALIAS_NODES = 100_000
"""How many YAML nodes the aliases (``*name``) of one file may stand for in all.

Each use of an alias counts every node of what it names, so an "alias bomb" of nested
aliases (a few hundred bytes that would expand to billions of nodes) is refused at once.
"""

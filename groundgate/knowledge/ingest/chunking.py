"""Heading-aware chunking: every chunk carries the heading path it sits under."""

from __future__ import annotations

import re

from groundgate.knowledge.model import Chunk, Document

__all__ = ["MAX_CHUNK_CHARS", "chunk_document"]

MAX_CHUNK_CHARS = 900
"""Paragraphs are packed into chunks up to about this size; a longer paragraph stands alone."""

_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$")


def _sections(body: str) -> list[tuple[str, list[str]]]:
    """Split a body into (heading path, paragraphs) sections."""
    sections: list[tuple[str, list[str]]] = []
    path: list[tuple[int, str]] = []
    paragraphs: list[str] = []
    current: list[str] = []

    def flush_paragraph() -> None:
        if current:
            paragraphs.append(" ".join(line.strip() for line in current).strip())
            current.clear()

    def flush_section() -> None:
        flush_paragraph()
        if paragraphs:
            sections.append((" > ".join(title for _, title in path), list(paragraphs)))
            paragraphs.clear()

    for line in body.splitlines():
        match = _HEADING.match(line)
        if match:
            flush_section()
            level = len(match.group(1))
            path = [(lvl, t) for lvl, t in path if lvl < level] + [(level, match.group(2))]
        elif not line.strip():
            flush_paragraph()
        elif line.lstrip().startswith(("- ", "* ", "+ ")) or re.match(r"\s*\d+[.)]\s", line):
            flush_paragraph()  # list items stay separate paragraphs
            current.append(line)
        else:
            current.append(line)
    flush_section()
    return sections


def chunk_document(doc: Document, max_chars: int = MAX_CHUNK_CHARS) -> list[Chunk]:
    """Chunks of ``doc`` in order; headings are kept with the text under them."""
    chunks: list[Chunk] = []
    for heading, paragraphs in _sections(doc.body):
        buffer: list[str] = []
        size = 0
        for paragraph in paragraphs:
            if buffer and size + len(paragraph) > max_chars:
                chunks.append(_chunk(doc, len(chunks), heading, buffer))
                buffer, size = [], 0
            buffer.append(paragraph)
            size += len(paragraph) + 1
        if buffer:
            chunks.append(_chunk(doc, len(chunks), heading, buffer))
    return chunks


def _chunk(doc: Document, ordinal: int, heading: str, paragraphs: list[str]) -> Chunk:
    return Chunk(
        id=f"{doc.id}#{ordinal}",
        doc_id=doc.id,
        ordinal=ordinal,
        heading=heading,
        text="\n".join(paragraphs),
    )

"""Candidate sentences: every statement the tools returned, with the sources to cite.

The offline planner answers extractively, so what it can say is exactly what this module
collects from the envelopes: passages, whole documents, entity descriptions, path notes
and timeline events, each split into sentences and tied to its document ids.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from groundgate.knowledge.ingest.extract import sentences, without_dateline
from groundgate.knowledge.text import content_terms, coverage
from groundgate.reading.transcript import Step, Transcript

__all__ = ["Sentence", "collect", "doc_id_of", "table_rows_apart"]

MIN_CHARS = 12
MAX_CHARS = 420


@dataclass(frozen=True)
class Sentence:
    """A statement that can go into an answer.

    Attributes:
        text: The sentence, cleaned of Markdown.
        sources: Document ids to cite for it.
        tool: The tool that returned it.
        rank: The retrieval score of its result (0..1).
        title: The title of the document or entity it came from.
        heading: The section heading it sits under, if known.
        lead: The sentence before it, when it opens with a pronoun (``It does not...``).
        valid: The validity label of its result (``2025-06-01 → open``), if any.
        order: First-seen position, for stable tie-breaking.
    """

    text: str
    sources: tuple[str, ...]
    tool: str
    rank: float
    title: str
    heading: str
    lead: str
    valid: str | None
    order: int

    @property
    def rendered(self) -> str:
        """The sentence as the answer shows it (with its lead when it needs one)."""
        return f"{self.lead} {self.text}" if self.lead else self.text


def doc_id_of(item: dict[str, Any]) -> str | None:
    """The document id behind a result: its first source, else its id before ``#``."""
    sources = item.get("sources") or []
    if sources:
        return str(sources[0])
    return str(item.get("id", "")).split("#", 1)[0] or None


_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_TERMINAL = re.compile(r"[.!?:)\"”']$")
_PRONOUN = re.compile(r"^(It|Its|This|These|Those|They|Their|He|She|His|Her|That|Such)\b")


_TITLE_WORD = re.compile(r"[A-Z0-9][\w/.\-]*|&|of|and|the")


def _is_title(part: str) -> bool:
    """A short title in the text (``25/035 Annual Parish Meeting.``): it names what follows.

    A minute's item, a numbered rule or a list's entry opens with a few capitalised words and
    then says its thing without naming it again ("To be held on Monday 28 April 2025 ..."),
    as a sentence opening with "It" does. A field ("Inspected: 26 February 2026.") is a
    statement of its own, not a title.
    """
    words = part.rstrip(".:").split()
    return 2 <= len(words) <= 5 and all(_TITLE_WORD.fullmatch(w) for w in words)


def _clean(text: str) -> str:
    text = text.replace("**", "").replace("__", "")
    return re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", text, flags=re.M)


def split_sections(text: str, heading: str = "") -> list[tuple[str, str, str]]:
    """(heading, lead, sentence) triples of a result's text, in order.

    Markdown headings become the heading of what follows; a fragment cut off by the
    envelope (ending in ``…``) is dropped; a sentence opening with a pronoun keeps the
    sentence before it as its lead.
    """
    out: list[tuple[str, str, str]] = []
    previous = ""
    block: list[str] = []

    def flush() -> None:
        nonlocal previous
        for part in sentences(_clean(_unwrap(_table_rows(block)))):
            part = part.strip()
            if part.endswith("…") or len(part) < MIN_CHARS or not re.search(r"[a-z]", part):
                previous = part
                continue
            if part.endswith("?"):
                previous = part  # a question is never an answer; what follows it answers it
                continue
            asked = previous.endswith("?")
            lead = previous if previous and (asked or _PRONOUN.match(part) or _is_title(previous)) else ""
            out.append((heading, lead, part))
            previous = part
        block.clear()

    for line in text.splitlines():
        match = _HEADING.match(line)
        if match:
            flush()
            heading, previous = match.group(1), ""
        else:
            block.append(line)
    flush()
    return out


_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
def _cells(line: str) -> list[str]:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") else inner
    return [c.strip() for c in inner.split("|")]


def _is_rule(cell: str) -> bool:
    return bool(re.fullmatch(r":?-{3,}:?", cell))


def _table_lines(line: str) -> list[str]:
    """A table whose rows were joined onto one line (``| a | b | | --- | --- | | 1 | 2 |``), split.

    The rule row gives the number of columns; each row after it is that many cells and
    the empty cell that joined it to the next, so empty cells inside a row survive.
    """
    stripped = line.strip()
    if not stripped.startswith("|"):
        return [line]
    cells = _cells(stripped)
    start = next((i for i, c in enumerate(cells) if _is_rule(c)), None)
    if start is None or start == 0:
        return [line]
    width = 0
    while start + width < len(cells) and _is_rule(cells[start + width]):
        width += 1
    head = cells[max(0, start - 1 - width): start - 1]
    if len(head) != width or cells[start - 1] != "":
        return [line]
    rows = [head, ["---"] * width]
    at = start + width + 1  # past the empty cell that joined the rule to the first row
    while at + width <= len(cells):
        rows.append(cells[at: at + width])
        at += width + 1
    return ["| " + " | ".join(r) + " |" for r in rows]


def table_rows_apart(text: str) -> str:
    """``text`` with each table whose rows a snippet joined onto one line back on its own lines."""
    return "\n".join(row for line in text.splitlines() for row in _table_lines(line))


def _table_rows(lines: list[str]) -> list[str]:
    """A Markdown table as one statement per row (``Office: Mill Street; Town: Fellmoor.``).

    A row read alone keeps its column names, so it says what each value is. A table whose
    first column is unnamed is a list of attributes: its rows read ``Launch price — AeroSense
    Two: €149; AeroSense Two Pro: €229.`` Other lines pass through.
    """
    out: list[str] = []
    header: list[str] = []
    lines = [row for line in lines for row in _table_lines(line)]
    for i, line in enumerate(lines):
        stripped = line.strip()
        if not stripped.startswith("|"):
            header = []
            out.append(line)
            continue
        if all(_is_rule(c) for c in _cells(stripped) if c):
            continue
        nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
        if not header and nxt.startswith("|") and all(_is_rule(c) for c in _cells(nxt) if c):
            header = _cells(stripped)
            continue
        cells = _cells(stripped)
        names = (header + [""] * len(cells))[: len(cells)]
        if names and not names[0] and cells[0]:
            rest = [f"{h}: {c}" if h else c for h, c in zip(names[1:], cells[1:], strict=True) if c]
            statement = f"{cells[0]} — " + "; ".join(rest)
        else:
            statement = "; ".join(f"{h}: {c}" if h else c for h, c in zip(names, cells, strict=True) if c)
        out.extend(["", statement.rstrip(".") + ".", ""])
    return out


def _unwrap(lines: list[str]) -> str:
    """Join hard-wrapped lines of a paragraph; blank lines and list items still break."""
    paragraphs: list[str] = []
    current: list[str] = []
    for line in lines:
        if not line.strip() or _ITEM.match(line):
            if current:
                paragraphs.append(" ".join(current))
            current = [line.strip()] if line.strip() else []
        else:
            current.append(line.strip())
    if current:
        paragraphs.append(" ".join(current))
    return "\n".join(paragraphs)


def _with_subject(title: str, text: str) -> str:
    """Prefix a description with its entity's name when the text does not name it."""
    terms = content_terms(title)
    if not terms or coverage(terms, text) >= 0.5:
        return text
    return f"{title}: {text}"


def _without_dateline(item: dict[str, Any], text: str) -> str:
    """A document's opening without its own date line (``COASTLINE WIRE | 14 Jan 2025``).

    The line states nothing (``ingest.extract.dateline``), and unwrapped into the first
    sentence it would open it with the outlet's name.
    """
    if str(item.get("id", "")).endswith("#0") or item.get("kind") == "document":
        return without_dateline(text)
    return text


def _item_sentences(step: Step, item: dict[str, Any]) -> list[tuple[str, str, str]]:
    text = _without_dateline(item, str(item.get("text") or ""))
    title = str(item.get("title") or "")
    kind = str(item.get("kind") or "")
    if step.name == "timeline":
        day = title.split(" ", 1)[0]
        return [("", "", f"{day}: {text.rstrip('.')}.")] if text else []
    if step.name in ("resolve_entity", "search_knowledge", "traverse") and kind != "document":
        return [("", "", _with_subject(title, s)) for _, _, s in split_sections(text)[:3]]
    document, _, heading = title.partition(" › ")
    if not heading and step.name == "search_evidence":
        heading = document  # its only heading restated the document's title (``shown_title``)
    parts = split_sections(text, heading.split(" > ")[-1])
    if step.name not in ("search_evidence", "get_source") and parts and not _TERMINAL.search(
        parts[-1][2]
    ):
        parts = parts[:-1]  # a description cut at a fixed length ends mid-sentence
    return parts


def _rank(step: Step, item: dict[str, Any]) -> float:
    score = float(item.get("score") or 0.0)
    if step.name == "get_source":
        return 0.8
    if step.name == "traverse":
        return 0.6 * score
    if step.name == "timeline":
        return 0.5
    return score


def collect(transcript: Transcript) -> list[Sentence]:
    """Every candidate sentence in the transcript, deduplicated, first seen first."""
    seen: dict[str, Sentence] = {}
    for step in transcript.steps:
        if step.failed or step.name == "list_contradictions":
            continue
        for item in step.results:
            doc = doc_id_of(item)
            sources = tuple(str(s) for s in (item.get("sources") or ([doc] if doc else [])))
            if step.name == "traverse" and item.get("kind") == "document":
                sources = (str(item["id"]),)  # the text is the reached document's own opening
            if not sources:
                continue
            title = str(item.get("title") or "").split(" › ", 1)[0]
            for heading, lead, text in _item_sentences(step, item):
                if len(text) > MAX_CHARS:
                    text = text[: MAX_CHARS - 1].rsplit(" ", 1)[0] + "…"
                key = " ".join(text.lower().split())
                old = seen.get(key)
                if old is not None:
                    seen[key] = Sentence(
                        old.text, tuple(dict.fromkeys((*old.sources, *sources))), old.tool,
                        max(old.rank, _rank(step, item)), old.title, old.heading or heading,
                        old.lead or lead, old.valid, old.order,
                    )
                    continue
                seen[key] = Sentence(
                    text=text, sources=sources, tool=step.name, rank=_rank(step, item),
                    title=title, heading=heading, lead=lead, valid=_own_validity(step, item),
                    order=len(seen),
                )
    return _with_document_validity(list(seen.values()), transcript)


def _own_validity(step: Step, item: dict[str, Any]) -> str | None:
    """A result's validity when it is the validity of the text's own document."""
    return item.get("valid") if step.name in ("search_evidence", "get_source") else None


def _with_document_validity(pool: list[Sentence], transcript: Transcript) -> list[Sentence]:
    """Give sentences from a document (e.g. its description) that document's validity."""
    known: dict[str, str] = {}
    for step in transcript.of("search_evidence", "get_source"):
        for item in step.results:
            doc = doc_id_of(item)
            if doc and item.get("valid"):
                known.setdefault(doc, str(item["valid"]))
    return [
        replace(s, valid=known.get(s.sources[0])) if s.valid is None and len(s.sources) == 1
        else s
        for s in pool
    ]

"""The one envelope every tool returns.

What the model sees (``for_model()``: compact JSON, short snippets) is kept apart from
what the application needs (the full ``Envelope``: citations, validity, scores, timing),
which travels beside it as the ToolMessage artifact and in the run's trace.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from datetime import date
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from groundgate.knowledge.model import Validity

__all__ = [
    "Envelope", "ResultItem", "TimeFilter", "described", "error_envelope", "path_score", "read_envelopes",
    "shown_title",
]

SNIPPET_CHARS_FOR_MODEL = 360
"""Passages are cut to this many characters for the model (whole documents: 4,000)."""
SOURCE_CHARS_FOR_MODEL = 4000
ENVELOPE_CHARS_FOR_MODEL = 12_000
"""What one tool result may send the model; past it the lowest-ranked results are left out, and it says so."""


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


def shown_title(title: str) -> str:
    """A passage's ``document › heading > ...`` title without a first heading that repeats the document's.

    Many documents open with their title as a heading (without front matter, that heading
    is the title): sent with every passage, it would be paid for twice. A heading that
    only shares words with the title stays: the reader takes a sentence's subject from it.
    """
    document, sep, path = title.partition(" › ")
    if not sep:
        return title
    first, _, rest = path.partition(" > ")
    a, b = _words(document), _words(first)
    if a and a == b:
        return f"{document} › {rest}" if rest else document
    return title


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ResultItem(_Model):
    """One result: a chunk, entity, path, event, contradiction or document."""

    id: str
    title: str
    kind: str
    snippet: str
    score: float = 1.0
    source_ids: tuple[str, ...] = ()
    validity: Validity | None = None
    path: tuple[str, ...] | None = None
    """For traverse: ``node, -[type]->, node, ...`` alternating nodes and typed edges."""
    data: dict[str, Any] = Field(default_factory=dict)
    """Structured extras (e.g. contradiction positions, diff lines)."""


class TimeFilter(_Model):
    """The time frame a call was answered in."""

    as_of: date | None = None
    known_at: str | None = None


class Envelope(_Model):
    """A tool's answer: results, their sources and validity, and honest flags."""

    tool: str
    call_id: str = ""
    args: dict[str, Any] = Field(default_factory=dict)
    results: tuple[ResultItem, ...] = ()
    source_ids: tuple[str, ...] = ()
    validity: TimeFilter = TimeFilter()
    insufficient: bool = False
    reason: str | None = None
    truncated: bool = False
    error: str | None = None
    ms: float = 0.0

    @classmethod
    def of(
        cls,
        tool: str,
        results: list[ResultItem],
        *,
        args: dict[str, Any],
        as_of: date | None = None,
        empty_reason: str,
        truncated: bool = False,
    ) -> Envelope:
        """An envelope over ``results``; no results means ``insufficient`` with a reason."""
        sources: dict[str, None] = {}
        for item in results:
            for sid in item.source_ids:
                sources.setdefault(sid, None)
        return cls(
            tool=tool,
            args=args,
            results=tuple(results),
            source_ids=tuple(sources),
            validity=TimeFilter(as_of=as_of, known_at=args.get("known_at")),
            insufficient=not results,
            reason=None if results else empty_reason,
            truncated=truncated,
        )

    def for_model(self, sent: frozenset[str] = frozenset(), walked: frozenset[str] | None = None) -> str:
        """Compact JSON for the model: what it needs to reason, nothing more.

        ``sent``: ids of passages an earlier result of the run already sent the model in
        full; they are listed by id only (``"sent": true``), so no passage is paid for twice.
        ``walked``: in a conversation (the agent's), the nodes an earlier walked path already
        described; a path reaching one again, here or later, carries the path and its score,
        not the node's title and text. ``None`` (a result read on its own: lane A, MCP)
        describes every node on every path.
        """
        if self.error:
            return json.dumps({"tool": self.tool, "error": self.error})
        body: dict[str, Any] = {"tool": self.tool}
        if self.insufficient:
            body["insufficient"] = True
            body["reason"] = self.reason
        items = []
        described = set(walked or ())
        start = _walk_start(self) if walked is not None else None
        # in a conversation, a passage of a document an earlier item already titled gives only
        # its headings ("› Roofs"); ``read_transcript`` puts the document's title back
        titled = {i.split("#", 1)[0] for i in sent} if walked is not None else None
        if start:
            body["from"] = start
        for item in self.results:
            if item.id in sent and not item.path and self.tool != "get_source":
                items.append({"id": item.id, "sent": True})
                continue
            if item.path and walked is not None and item.id in described:
                # Another path to a node already described: the path is news, the node is not.
                items.append({"id": item.id, **_path_fields(item, start)})
                continue
            entry: dict[str, Any] = {"id": item.id, "title": shown_title(item.title), "kind": item.kind}
            if titled is not None and not item.path:
                _, sep, headings = entry["title"].partition(" › ")
                doc = item.id.split("#", 1)[0]
                if sep and doc != item.id and doc in titled:
                    entry["title"] = f"› {headings}"
                titled.add(doc)
            snippet = item.snippet
            if item.kind == "document" and f"{item.id}#0" in sent and self.tool != "get_source":
                snippet = ""  # its opening is its first passage, which the model has
            if item.path:
                entry.update(_path_fields(item, start))
                described.add(item.id)
                if len(item.path) > 3:
                    # a node two hops away (through a shared concept, a person): its title and
                    # path; traverse or get_source reads it. One hop away, its text is shown.
                    snippet = ""
            limit = SOURCE_CHARS_FOR_MODEL if self.tool == "get_source" else SNIPPET_CHARS_FOR_MODEL
            if len(snippet) > limit:
                snippet = snippet[: limit - 1] + "…"
            if snippet:
                entry["text"] = snippet
            if "via" not in entry:  # a path's fields already hold its score (after "from", only when news)
                entry.setdefault("score", round(item.score, 2))
            if item.source_ids and item.source_ids not in ((item.id,), (item.id.split("#", 1)[0],)):
                # an item that is its own source, or a passage of its own document, says so by its id
                entry["sources"] = list(item.source_ids)
            if item.validity and (item.validity.valid_from or item.validity.valid_to):
                entry["valid"] = item.validity.label()
            if item.data.get("positions"):
                entry["positions"] = item.data["positions"]
            items.append(entry)
        if items:
            body["results"] = items
        if self.truncated:
            body["truncated"] = True
        text = json.dumps(body, ensure_ascii=False, default=str)
        if len(text) > ENVELOPE_CHARS_FOR_MODEL and items:
            sizes = [len(json.dumps(i, ensure_ascii=False, default=str)) + 2 for i in items]
            budget = ENVELOPE_CHARS_FOR_MODEL - (len(text) - sum(sizes)) - 60
            keep = 0
            while keep < len(items) and budget - sizes[keep] >= 0:
                budget -= sizes[keep]
                keep += 1
            body["results"] = items[:keep]
            body["truncated"] = True
            body["omitted"] = len(items) - keep
            text = json.dumps(body, ensure_ascii=False, default=str)
        return text

    def sent_ids(
        self, sent: frozenset[str] = frozenset(), walked: frozenset[str] = frozenset()
    ) -> frozenset[str]:
        """Ids of the passages ``for_model(sent, walked)`` sends in full (a later result lists them by id).

        Results left out for size, and walked paths, are not counted.
        """
        return described(self.for_model(sent, walked))[0]

    def digest(self) -> str:
        """A short stable fingerprint of what the tool returned (ids and scores)."""
        key = json.dumps(
            [self.error, self.insufficient, [(r.id, round(r.score, 4)) for r in self.results]]
        )
        return hashlib.sha256(key.encode()).hexdigest()[:12]


def _walk_start(envelope: Envelope) -> str | None:
    """The node every walked path of ``envelope`` starts from, when they share one (sent once: ``from``)."""
    starts = {item.path[0] for item in envelope.results if item.path}
    if len(starts) != 1 or not all(item.path for item in envelope.results):
        return None
    return starts.pop()


def path_score(hops: int) -> float:
    """A walked path's score as the model is sent it: one over its hops."""
    return round(1.0 / max(1, hops), 2)


def _path_fields(item: ResultItem, start: str | None) -> dict[str, Any]:
    """A walked path for the model: whole with its score, or (after ``from``) the steps to the node.

    ``{"id": "INS-SYN-002", "via": "<-[about]-"}`` after ``"from": "product:home-plus"`` is the
    path ``product:home-plus <-[about]- INS-SYN-002``; its score, one over its hops, is left
    out when it is just that (``read_transcript`` puts both back).
    """
    path = item.path or ()
    score = round(item.score, 2)
    if not start or path[0] != start or path[-1] != item.id or len(path) < 3:
        return {"path": " ".join(path), "score": score}
    fields: dict[str, Any] = {"via": " ".join(path[1:-1])}
    if score != path_score((len(path) - 1) // 2):
        fields["score"] = score
    return fields


def described(shown: str) -> tuple[frozenset[str], frozenset[str]]:
    """What a ``for_model()`` text describes in full: (passage ids, walked node ids).

    A later result in the same conversation lists these by id (``sent``, ``walked``).
    """
    results = json.loads(shown).get("results") or []
    passages = frozenset(e["id"] for e in results if "title" in e and "path" not in e and "via" not in e)
    nodes = frozenset(e["id"] for e in results if "title" in e and ("path" in e or "via" in e))
    return passages, nodes


def error_envelope(tool: str, message: str, *, args: dict[str, Any] | None = None,
                   call_id: str = "") -> Envelope:
    """The envelope of a failed call: the model sees the error and the run goes on."""
    return Envelope(
        tool=tool,
        call_id=call_id,
        args=args or {},
        insufficient=True,
        reason="the call failed",
        error=message,
    )


def read_envelopes(envelopes: Iterable[Mapping[str, Any] | Envelope]) -> list[Envelope]:
    """Envelopes as state, traces and run files hold them (plain data) read back as ``Envelope``.

    State keeps envelopes as ``model_dump(mode="json")`` so any checkpointer can hold them;
    code reads them through this, never by string keys.
    """
    return [e if isinstance(e, Envelope) else Envelope.model_validate(e) for e in envelopes]

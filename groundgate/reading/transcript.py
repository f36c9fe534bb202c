"""What the offline planner has seen so far, re-read from the messages on every call.

The planner keeps no state of its own: the conversation (its own tool calls and the
envelopes that came back) is the state, which is what makes it deterministic and
replayable.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from groundgate.reading.question import Question, analyse, parse_prompt
from groundgate.tools.envelope import path_score

__all__ = ["Anchor", "Step", "Transcript", "call_key", "read_transcript"]


def call_key(name: str, args: dict[str, Any]) -> str:
    """A canonical form of a call, to avoid repeating an identical one."""
    return name + json.dumps(args, sort_keys=True, default=str)


@dataclass(frozen=True)
class Step:
    """One tool call and what came back.

    Attributes:
        name: The tool's name.
        args: The arguments as called.
        round: The 0-based round the call was made in.
        body: The parsed envelope (``{}`` when the content was not JSON).
    """

    name: str
    args: dict[str, Any]
    round: int
    body: dict[str, Any] = field(default_factory=dict)

    @property
    def results(self) -> list[dict[str, Any]]:
        """The envelope's results (none on error)."""
        return list(self.body.get("results") or [])

    @property
    def failed(self) -> bool:
        """Whether the tool returned an error."""
        return bool(self.body.get("error"))


@dataclass(frozen=True)
class Anchor:
    """An entity the question is about, as resolved.

    Attributes:
        id: Canonical entity id.
        name: Its name.
        kind: Its kind (``document`` for an article without declared knowledge).
        text: Its description as returned.
        sources: Documents behind it.
        mention: The mention that resolved to it.
    """

    id: str
    name: str
    kind: str
    text: str
    sources: tuple[str, ...]
    mention: str


@dataclass(frozen=True)
class Transcript:
    """The question and every step so far."""

    question: Question
    steps: tuple[Step, ...]
    rounds: int

    def called(self, name: str, args: dict[str, Any]) -> bool:
        """Whether this exact call was already made."""
        key = call_key(name, args)
        return any(call_key(s.name, s.args) == key for s in self.steps)

    def of(self, *names: str) -> list[Step]:
        """Steps of the named tools, in order."""
        return [s for s in self.steps if s.name in names]

    def anchors(self, min_score: float = 0.6) -> list[Anchor]:
        """The best candidate of each resolve_entity call, when it matched well enough."""
        found: dict[str, Anchor] = {}
        for step in self.of("resolve_entity"):
            results = step.results
            if not results or float(results[0].get("score", 0)) < min_score:
                continue
            top = results[0]
            found.setdefault(
                top["id"],
                Anchor(
                    id=top["id"], name=top.get("title", top["id"]), kind=top.get("kind", ""),
                    text=top.get("text", ""), sources=tuple(top.get("sources") or ()),
                    mention=str(step.args.get("mention", "")),
                ),
            )
        return list(found.values())

    def read_sources(self) -> set[str]:
        """Document ids already read in full."""
        return {str(s.args.get("source_id")) for s in self.of("get_source")}


def _parse(content: Any, titles: dict[str, str] | None = None) -> dict[str, Any]:
    """A tool message's JSON as the model was sent it, made whole again.

    ``titles``: document titles read so far in the conversation (updated here); a passage
    sent as ``"› heading"`` gets its document's title back from them.
    """
    titles = {} if titles is None else titles
    if isinstance(content, list):
        content = "".join(c if isinstance(c, str) else str(c.get("text", "")) for c in content)
    try:
        body = json.loads(content)
    except (TypeError, ValueError):
        return {"text": str(content)}
    body = body if isinstance(body, dict) else {"results": body}
    start = body.get("from")
    for item in body.get("results") or ():
        if start and isinstance(item, dict) and "via" in item:
            # a walked path sent after its start (``Envelope.for_model``): whole again, with its score
            via = str(item.pop("via"))
            item["path"] = " ".join(p for p in (str(start), via, str(item.get("id", ""))) if p)
            item.setdefault("score", path_score(via.count("-[")))
        # a passage is sent without the document it is part of: its id says it (``for_model``)
        passage = isinstance(item, dict) and "#" in str(item.get("id", "")) and "title" in item
        if isinstance(item, dict) and "title" in item and "path" not in item:
            doc, title = str(item.get("id", "")).split("#", 1)[0], str(item["title"])
            if passage and title.startswith("› ") and doc in titles:
                item["title"] = f"{titles[doc]} {title}"
            elif not title.startswith("› "):
                titles.setdefault(doc, title.split(" › ", 1)[0])
        if passage and "sources" not in item:
            item["sources"] = [str(item["id"]).split("#", 1)[0]]
    return body


def read_transcript(messages: Sequence[BaseMessage]) -> Transcript:
    """Rebuild the question and the steps from a conversation.

    The question is the last human message; the steps are the tool calls made after it
    and the tool messages that answered them.
    """
    start = max((i for i, m in enumerate(messages) if isinstance(m, HumanMessage)), default=-1)
    content = messages[start].content if start >= 0 else ""
    text, as_of = parse_prompt(content if isinstance(content, str) else str(content))
    titles: dict[str, str] = {}
    replies = {
        m.tool_call_id: _parse(m.content, titles)
        for m in messages[start + 1 :]
        if isinstance(m, ToolMessage)
    }
    steps: list[Step] = []
    rounds = 0
    for message in messages[start + 1 :]:
        if isinstance(message, AIMessage) and message.tool_calls:
            for call in message.tool_calls:
                steps.append(
                    Step(name=call["name"], args=dict(call["args"]), round=rounds,
                         body=replies.get(call.get("id") or "", {}))
                )
            rounds += 1
    return Transcript(question=analyse(text, as_of), steps=tuple(steps), rounds=rounds)

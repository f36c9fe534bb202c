"""The offline planner: a deterministic, rule-based chat model that calls real tools.

It is the default brain of the agent, needing no keys and no network. Like a careful
analyst it works in rounds, each an ``AIMessage`` with real ``tool_calls``:

1. resolve the question's mentions (identifiers, quoted phrases, capitalised names) and
   search the evidence (and the curated knowledge when nothing was mentioned);
2. walk the resolved entities' relationships as of the question's date, read their
   timelines when the question is about time, check the contradiction register, read the
   document the question is about, and follow a bridge name found in the first passages;
3. search for what is still missing and read the one document that decides the matter;

then it answers with its reader (``groundgate.reading``): the source sentences that best
answer the question, each ending with its citation, or ``INSUFFICIENT: <reason>``
followed by what was found.

It keeps no state: every call re-reads the conversation, so the same messages always
give the same reply (tool call ids included). It only calls tools it was bound with.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from langchain_core.language_models import LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.messages.ai import UsageMetadata
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import Field

from groundgate.models.base import LocalChatModel
from groundgate.models.offline_plan import next_calls
from groundgate.reading import Reader, default_reader
from groundgate.reading.transcript import Transcript, read_transcript
from groundgate.tools.registry import ALL_TOOLS

__all__ = ["OfflinePlanner", "tool_name"]

CHARS_PER_TOKEN = 4
"""Token estimate used for usage metadata: about four characters per token."""


def tool_name(tool: Any) -> str:
    """The name of a tool given as a LangChain tool, an OpenAI-format dict or a class."""
    if isinstance(tool, BaseTool):
        return tool.name
    if isinstance(tool, dict):
        if isinstance(tool.get("function"), dict) and tool["function"].get("name"):
            return str(tool["function"]["name"])
        if tool.get("name"):
            return str(tool["name"])
    try:
        return str(convert_to_openai_tool(tool)["function"]["name"])
    except Exception:  # an unusable tool description has no name we could call
        return ""


def _schema(tool: Any) -> Any:
    try:
        return convert_to_openai_tool(tool)
    except Exception:  # an unusable tool description is counted by its name only
        return tool_name(tool)


def _chars(message: BaseMessage) -> int:
    content = message.content
    size = len(content) if isinstance(content, str) else len(json.dumps(content, default=str))
    if isinstance(message, AIMessage) and message.tool_calls:
        size += len(json.dumps(message.tool_calls, default=str))
    return size


def _usage(messages: Sequence[BaseMessage], reply: AIMessage, tool_chars: int) -> UsageMetadata:
    # A real model is sent the tool schemas with every call and pays for them: so does the estimate.
    tokens_in = (sum(_chars(m) for m in messages) + tool_chars) // CHARS_PER_TOKEN
    tokens_out = max(1, _chars(reply) // CHARS_PER_TOKEN)
    return UsageMetadata(
        input_tokens=tokens_in, output_tokens=tokens_out, total_tokens=tokens_in + tokens_out
    )


def _narrate(transcript: Transcript, calls: list[tuple[str, dict[str, Any]]]) -> str:
    """One line saying what this round does, for whoever reads the trace."""
    names = ", ".join(dict.fromkeys(name for name, _ in calls))
    return f"Round {transcript.rounds + 1}: {names}."


class OfflinePlanner(LocalChatModel):
    """A deterministic rule-based planner that emits real tool calls, then an answer.

    Bind it with ``bind_tools``: it will only call tools whose names it was bound with
    and that it knows (the eight groundgate tools). Unbound, it answers at once.
    """

    tool_names: tuple[str, ...] = ()
    """Names of the tools it was bound with."""
    tool_chars: int = 0
    """Characters of the bound tools' schemas, counted in every call's estimated usage."""
    reader: Reader | None = Field(default=None, exclude=True)
    """Reads the evidence into the final answer (the default reader when ``None``)."""
    reads_with_reader: ClassVar[bool] = True
    """It plans only: its answer is its reader's, and it has nothing to add to a revision."""

    @property
    def _llm_type(self) -> str:
        return "groundgate-offline-planner"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"tool_names": list(self.tool_names)}

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        """A copy of the planner that may call these tools (only their names matter)."""
        names = tuple(dict.fromkeys(n for n in (tool_name(t) for t in tools) if n))
        chars = len(json.dumps([t if isinstance(t, dict) else _schema(t) for t in tools], default=str))
        return self.model_copy(update={"tool_names": names, "tool_chars": chars})

    @property
    def callable_tools(self) -> frozenset[str]:
        """The bound tools this planner knows how to use."""
        return frozenset(self.tool_names) & frozenset(ALL_TOOLS)

    def decide(self, messages: Sequence[BaseMessage]) -> AIMessage:
        """The next message: tool calls for another round, or the final answer."""
        transcript = read_transcript(messages)
        calls = next_calls(transcript, self.callable_tools)
        if calls:
            reply = AIMessage(
                content=_narrate(transcript, calls),
                tool_calls=[
                    {"name": name, "args": args, "id": f"call_{transcript.rounds}_{i}",
                     "type": "tool_call"}
                    for i, (name, args) in enumerate(calls)
                ],
            )
        else:
            reply = AIMessage(content=(self.reader or default_reader()).read(transcript).text())
        reply.usage_metadata = _usage(messages, reply, self.tool_chars)
        return reply

    def reply(self, messages: list[BaseMessage]) -> AIMessage:
        """``decide``: the planner's reply is its next round, or its reader's answer."""
        return self.decide(messages)

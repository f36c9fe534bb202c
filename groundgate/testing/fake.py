"""A scripted fake chat model for tests: it replays the messages you give it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage
from pydantic import Field

from groundgate.models.base import LocalChatModel
from groundgate.models.offline import tool_name

__all__ = ["ScriptedChatModel", "answer", "call"]

Step = AIMessage | Callable[[list[BaseMessage]], AIMessage]


def call(name: str, args: dict[str, Any] | None = None, *, id: str | None = None) -> dict[str, Any]:
    """A tool call for a scripted message."""
    return {"name": name, "args": args or {}, "id": id or f"call_{name}", "type": "tool_call"}


def answer(text: str) -> AIMessage:
    """A final scripted answer."""
    return AIMessage(content=text)


class ScriptedChatModel(LocalChatModel):
    """Returns ``script[i]`` on its i-th call (the last one again once the script runs out).

    A step is an ``AIMessage``, a function of the messages that returns one, or an
    exception, which the call raises (a model that fails). Every call reports
    ``tokens_per_call`` tokens of usage, so token budgets can be tested; ``tool_choices``
    records the ``tool_choice`` each binding asked for, ``bindings`` the tools of each.
    """

    script: list[Any] = Field(default_factory=list)
    tokens_per_call: int = 100
    calls: list[list[BaseMessage]] = Field(default_factory=list)
    bound_tools: list[str] = Field(default_factory=list)
    tool_choices: list[str | None] = Field(default_factory=list)
    bindings: list[list[str]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedChatModel:
        """Remember the tool names; the script decides what is called."""
        self.bound_tools = [tool_name(tool) for tool in tools]
        self.bindings.append(list(self.bound_tools))
        self.tool_choices.append(kwargs.get("tool_choice"))
        return self

    def reply(self, messages: list[BaseMessage]) -> AIMessage:
        """The script's next step (raised, when it is an exception), with usage and numbered call ids."""
        self.calls.append(list(messages))
        if not self.script:
            raise ValueError("ScriptedChatModel has an empty script")
        step = self.script[min(len(self.calls) - 1, len(self.script) - 1)]
        if isinstance(step, BaseException):
            raise step
        message = step(messages) if callable(step) else step
        number = len(self.calls)
        tool_calls = [
            {**c, "id": f"{c.get('id') or 'call'}_{number}_{i}"} for i, c in enumerate(message.tool_calls)
        ]
        return AIMessage(
            content=message.content,
            tool_calls=tool_calls,
            usage_metadata={
                "input_tokens": self.tokens_per_call // 2,
                "output_tokens": self.tokens_per_call - self.tokens_per_call // 2,
                "total_tokens": self.tokens_per_call,
            },
        )

"""A chat model that plays back a recorded run's decisions instead of calling a model."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from groundgate.models.base import LocalChatModel

__all__ = ["ReplayedModel"]


class ReplayedModel(LocalChatModel):
    """Answers turn ``i`` of a run with the ``i``-th recorded model message.

    The tool calls (names, arguments, ids) and the reported usage are the recorded ones,
    so the graph re-executes exactly the calls the run made. The final answer is the
    recorded one too, unless a ``composer`` is given: it then writes the answer from the
    conversation as replayed (the offline planner does so deterministically, keyless).
    """

    decisions: list[AIMessage]
    """The recorded model messages, in order."""
    composer: Any = None
    """Writes the final answer from the replayed conversation, when set (a chat model, bound or not)."""

    @property
    def _llm_type(self) -> str:
        return "groundgate-replay"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ReplayedModel:
        """The recorded calls are played whatever the tools; the composer is bound as the run was."""
        if self.composer is None or not isinstance(self.composer, BaseChatModel):
            return self
        return self.model_copy(update={"composer": self.composer.bind_tools(tools, **kwargs)})

    def _turn(self, messages: Sequence[BaseMessage]) -> int:
        start = max((i for i, m in enumerate(messages) if isinstance(m, HumanMessage)), default=-1)
        return sum(1 for m in messages[start + 1 :] if isinstance(m, AIMessage))

    def reply(self, messages: list[BaseMessage]) -> AIMessage:
        """The recorded message of this turn, or the composer's answer."""
        turn = self._turn(messages)
        recorded = self.decisions[turn] if turn < len(self.decisions) else None
        if recorded is not None and (recorded.tool_calls or self.composer is None):
            reply = recorded.model_copy()
        elif self.composer is not None:
            reply = self.composer.invoke(messages)
        else:  # the run went further than the recording: say nothing, compose drafts from the trace
            reply = AIMessage(content="")
        return reply

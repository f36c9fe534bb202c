"""``LocalChatModel``: the base of the chat models that reply in process, calling no provider.

The offline planner, the test kit's scripted model and the replay model each compute
their reply from the messages; this is the LangChain plumbing they share.
"""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult

__all__ = ["LocalChatModel"]


class LocalChatModel(BaseChatModel):
    """A chat model whose reply is a function of the messages, computed by ``reply``."""

    def reply(self, messages: list[BaseMessage]) -> AIMessage:
        """The model's message in answer to ``messages``."""
        raise NotImplementedError

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=self.reply(messages))])

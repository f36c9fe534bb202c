"""One path for every chat-model call: the planner, the revision pass and lane A's answer.

``call_model`` never raises for the model's sake. It returns a ``ModelCall`` with the
reply (or the error), the text, the tool calls, the tokens and the trace step, and it
enforces the run's wall clock around the call itself: a call still running at the
deadline is abandoned (its thread finishes on its own; its reply is dropped) and the call
says ``timed_out``. Tool calls a model wrote as JSON in its text instead of through the
API (small open models do) are read as tool calls when they name a bound tool.
"""

from __future__ import annotations

import contextvars
import json
import re
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.messages.tool import ToolCall

from groundgate.tools.steps import ModelStep

__all__ = ["ModelCall", "call_model", "estimate_tokens", "message_text", "tool_calls_in_text"]

CHARS_PER_TOKEN = 4
"""Token estimate for models that report no usage: about four characters a token."""

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _shared_pool() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=8, thread_name_prefix="gg-model")
        return _pool


def estimate_tokens(messages: Sequence[BaseMessage], tools: Sequence[dict[str, Any]] = ()) -> int:
    """A rough token count of a prompt (and the tool schemas sent with it)."""
    chars = sum(
        len(message_text(m)) + len(json.dumps(getattr(m, "tool_calls", None) or "")) for m in messages
    )
    chars += len(json.dumps(list(tools))) if tools else 0
    return chars // CHARS_PER_TOKEN


def message_text(message: BaseMessage) -> str:
    """A message's text, whether its content is a string or a list of content parts."""
    content = message.content
    if isinstance(content, str):
        return content
    parts = []
    for part in content:
        if isinstance(part, str):
            parts.append(part)
        elif isinstance(part, dict) and part.get("type", "text") == "text":
            parts.append(str(part.get("text", "")))
    return " ".join(p for p in parts if p)


@dataclass(frozen=True)
class ModelCall:
    """The outcome of one model call.

    Attributes:
        reply: The model's message (``None`` when the call failed or timed out).
        text: The reply's text, stripped.
        tool_calls: The tool calls, from the API or read from the text.
        tokens: Tokens used (reported, or estimated from the prompt and reply).
        step: The trace step of the call.
        error: What went wrong, when the call failed or timed out.
        timed_out: Whether the wall clock ran out during the call.
    """

    reply: AIMessage | None
    text: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    tokens: int = 0
    step: ModelStep = field(default_factory=lambda: ModelStep(round=0, model="", purpose=""))
    error: str | None = None
    timed_out: bool = False


def call_model(
    model: BaseChatModel,
    messages: Sequence[BaseMessage],
    *,
    purpose: str,
    model_name: str,
    round_no: int = 0,
    tools: Sequence[dict[str, Any]] = (),
    tool_choice: Sequence[str | dict[str, Any]] = (),
    deadline: float | None = None,
) -> ModelCall:
    """Call ``model`` once on ``messages`` (with ``tools`` bound, if any).

    Args:
        model: The chat model.
        messages: The prompt.
        purpose: ``plan``, ``revision`` or ``answer``, for the trace.
        model_name: The model's name, for the trace.
        round_no: The run's tool round, for the trace.
        tools: OpenAI-style function schemas to bind.
        tool_choice: The ``tool_choice`` values to try in order, e.g. ``("required",
            {"type": "function", "function": {"name": "search_evidence"}})``: a provider
            that answers one with an HTTP error is asked with the next, then with none.
        deadline: ``time.time()`` by which the call must return (the run's wall clock).
    """
    started = time.perf_counter()
    rejected: list[str] = []
    from_text: bool | None = None
    names = [t["function"]["name"] for t in tools if isinstance(t.get("function"), dict)]

    def done(*, tokens: int, error: str | None = None, calls: Sequence[ToolCall] = ()) -> ModelStep:
        return ModelStep(
            round=round_no, model=model_name, purpose=purpose, tool_calls=tuple(c["name"] for c in calls),
            tool_choice_rejected=tuple(rejected) if rejected else None, calls_from_text=from_text,
            tokens=tokens, error=error, ms=round((time.perf_counter() - started) * 1000, 3),
        )

    try:
        choices: list[str | dict[str, Any] | None] = [*tool_choice, None]
        for choice in choices:
            reply = _invoke(model, messages, tools, choice, deadline)
            if not isinstance(reply, _Rejected):
                break
            rejected.append(reply.error[:200])
        if isinstance(reply, _Rejected):
            raise reply.exc
    except _DeadlinePassed:
        error = f"no reply before the wall clock ran out ({purpose})"
        return ModelCall(None, step=done(tokens=0, error=error), error=error, timed_out=True)
    except Exception as exc:  # any failure of the model becomes data the run can compose from
        error = f"{type(exc).__name__}: {exc}"
        return ModelCall(None, step=done(tokens=0, error=error), error=error)
    if not isinstance(reply, AIMessage):
        reply = AIMessage(content=str(getattr(reply, "content", reply)))
    text = message_text(reply).strip()
    calls = list(reply.tool_calls)
    if not calls and names:
        calls = tool_calls_in_text(text, names, prefix=f"text_call_{round_no}")
        if calls:
            from_text = True
            reply = AIMessage(content="", tool_calls=calls, usage_metadata=reply.usage_metadata,
                              id=reply.id, response_metadata=reply.response_metadata)
            text = ""
    if calls and not text:
        reply = _narrated(reply, calls)
    reported = reply.usage_metadata["total_tokens"] if reply.usage_metadata else 0
    tokens = int(reported or 0) or estimate_tokens([*messages, reply], tools)
    return ModelCall(reply, text=text, tool_calls=calls, tokens=tokens, step=done(tokens=tokens, calls=calls))


def _narrated(reply: AIMessage, calls: list[ToolCall]) -> AIMessage:
    """A tool-call reply with one line of text instead of none.

    Sent back in the next prompt, an assistant message with no text has ``content: null``,
    which some OpenAI-compatible servers (llama-cpp-python's) refuse; the line also says
    in the trace what the round does, as the offline planner's replies do.
    """
    names = ", ".join(dict.fromkeys(c["name"] for c in calls))
    return reply.model_copy(update={"content": f"Calling {names}.", "tool_calls": calls})


@dataclass(frozen=True)
class _Rejected:
    """A provider refused the request as malformed (e.g. an unsupported tool_choice)."""

    exc: Exception
    error: str


def _invoke(
    model: BaseChatModel, messages: Sequence[BaseMessage], tools: Sequence[dict[str, Any]],
    tool_choice: str | dict[str, Any] | None, deadline: float | None,
) -> AIMessage | _Rejected:
    runnable: Any = model
    if tools:
        options: dict[str, Any] = {"tool_choice": tool_choice} if tool_choice else {}
        runnable = model.bind_tools(list(tools), **options)
    if deadline is None:
        return _attempt(runnable, messages, tool_choice)
    remaining = deadline - time.time()
    if remaining <= 0:
        raise _DeadlinePassed()
    future = _shared_pool().submit(contextvars.copy_context().run, _attempt, runnable, messages, tool_choice)
    try:
        return future.result(timeout=remaining)
    except FutureTimeout:
        if future.done():  # the model itself raised a TimeoutError: a failure, not the wall clock
            raise
        raise _DeadlinePassed() from None


class _DeadlinePassed(Exception):
    """The run's wall clock ran out before the model replied."""


def _attempt(runnable: Any, messages: Sequence[BaseMessage], tool_choice: str | dict[str, Any] | None) -> Any:
    try:
        return runnable.invoke(list(messages))
    except Exception as exc:
        # Providers refuse an option they lack in different ways (400, 422, even 500 from
        # llama-cpp-python's function-calling handler): any HTTP answer to a forced call
        # is worth one plain retry; no answer at all (connection, timeout) is not.
        if tool_choice is not None and getattr(exc, "status_code", None) is not None:
            return _Rejected(exc, f"{type(exc).__name__}: {exc}")
        raise


_FENCE = re.compile(r"```(?:json|tool_call|tool)?\s*(.*?)```", re.S)


def tool_calls_in_text(text: str, names: Sequence[str], *, prefix: str = "text_call") -> list[ToolCall]:
    """Tool calls a model wrote in its text as JSON objects naming a bound tool.

    Accepts ``{"name": ..., "arguments": {...}}`` (also ``parameters``/``args``, or
    ``arguments`` as a JSON string), alone, in a list, or in a fenced block. Anything that
    does not name one of ``names`` with an object of arguments is not a call.
    """
    if not text or "{" not in text:
        return []
    chunks = [m.group(1) for m in _FENCE.finditer(text)] or [text]
    calls: list[ToolCall] = []
    decoder = json.JSONDecoder()
    for chunk in chunks:
        index = 0
        while (start := _next_json(chunk, index)) >= 0:
            try:
                value, end = decoder.raw_decode(chunk, start)
            except ValueError:
                index = start + 1
                continue
            index = end
            for item in value if isinstance(value, list) else [value]:
                call = _as_call(item, names)
                if call is not None:
                    name, args = call
                    call_id = f"{prefix}_{len(calls)}"
                    calls.append(ToolCall(name=name, args=args, id=call_id, type="tool_call"))
    return calls


def _next_json(text: str, index: int) -> int:
    starts = [i for i in (text.find("{", index), text.find("[", index)) if i >= 0]
    return min(starts) if starts else -1


def _as_call(item: Any, names: Sequence[str]) -> tuple[str, dict[str, Any]] | None:
    if not isinstance(item, dict):
        return None
    if isinstance(item.get("function"), dict):
        item = item["function"]
    name = item.get("name")
    if not isinstance(name, str) or name not in names:
        return None
    args: Any = next((item[k] for k in ("arguments", "parameters", "args") if k in item), {})
    if isinstance(args, str):
        try:
            args = json.loads(args)
        except ValueError:
            return None
    return (name, args) if isinstance(args, dict) else None

"""Chat Completions JSON to LangChain messages and back, as the OpenAI API shapes it.

The request side turns ``messages`` (system, developer, user, assistant with
``tool_calls``, tool) into LangChain messages and ``tools`` / ``tool_choice`` into the
tool list a chat model is bound with. The response side turns the model's ``AIMessage``
into a ``chat.completion`` object, or into the ``chat.completion.chunk`` sequence a
streaming client reads (content first, then each tool call's name and its arguments in
pieces, then the finish reason, then usage when asked).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

from groundgate.errors import GroundgateError

__all__ = ["ChatRequest", "InvalidRequest", "chunks", "completion", "parse_request"]

PIECE_CHARS = 48
"""Streamed content and tool arguments are cut into pieces of this many characters."""


class InvalidRequest(GroundgateError):
    """A request the server cannot serve, answered with an OpenAI-style error object.

    Attributes:
        status: The HTTP status to answer with.
        param: The request field at fault, when there is one.
        code: A machine-readable code (e.g. ``model_not_found``).
    """

    def __init__(self, message: str, *, status: int = 400, param: str | None = None,
                 code: str | None = None) -> None:
        self.status = status
        self.param = param
        self.code = code
        super().__init__(message)

    def body(self) -> dict[str, Any]:
        """The error object OpenAI clients parse."""
        kind = "invalid_request_error" if self.status < 500 else "server_error"
        return {"error": {"message": str(self), "type": kind, "param": self.param, "code": self.code}}


@dataclass(frozen=True)
class ChatRequest:
    """A parsed ``POST /chat/completions`` body.

    Attributes:
        model: The requested model id.
        messages: The conversation as LangChain messages.
        tools: The function tools offered, in OpenAI format.
        stream: Whether the client asked for server-sent events.
        include_usage: Whether a streaming client asked for a final usage chunk.
        n: How many choices to return.
    """

    model: str
    messages: list[BaseMessage]
    tools: list[dict[str, Any]]
    stream: bool
    include_usage: bool
    n: int


def _text(content: Any, where: str) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, dict) and part.get("type") in ("text", "input_text", "output_text"):
                parts.append(str(part.get("text", "")))
            else:
                kind = part.get("type") if isinstance(part, dict) else type(part).__name__
                raise InvalidRequest(f"{where}: only text content is supported, not {kind!r}", param=where)
        return "".join(parts)
    raise InvalidRequest(f"{where}: content must be a string or a list of parts", param=where)


def _tool_calls(raw: Any, where: str) -> list[dict[str, Any]]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise InvalidRequest(f"{where}.tool_calls must be a list", param=f"{where}.tool_calls")
    calls = []
    for i, call in enumerate(raw):
        fn = call.get("function") if isinstance(call, dict) else None
        if not isinstance(fn, dict) or not fn.get("name") or not isinstance(fn["name"], str):
            raise InvalidRequest(f"{where}.tool_calls[{i}] needs function.name", param=f"{where}.tool_calls")
        call_id, arguments = call.get("id"), fn.get("arguments") or "{}"
        if not isinstance(arguments, str) or not isinstance(call_id, str | None):
            raise InvalidRequest(f"{where}.tool_calls[{i}]: id and function.arguments are strings",
                                 param=f"{where}.tool_calls")
        try:
            args = json.loads(arguments)
        except (ValueError, RecursionError):
            raise InvalidRequest(
                f"{where}.tool_calls[{i}].function.arguments is not valid JSON", param=f"{where}.tool_calls"
            ) from None
        if not isinstance(args, dict):
            raise InvalidRequest(f"{where}.tool_calls[{i}].function.arguments must be a JSON object",
                                 param=f"{where}.tool_calls")
        calls.append({"name": fn["name"], "args": args, "id": call_id or f"call_{i}",
                      "type": "tool_call"})
    return calls


def _message(raw: Any, index: int) -> BaseMessage:
    where = f"messages[{index}]"
    if not isinstance(raw, dict):
        raise InvalidRequest(f"{where} must be an object", param=where)
    role = raw.get("role")
    if role in ("system", "developer"):
        return SystemMessage(_text(raw.get("content"), where))
    if role == "user":
        return HumanMessage(_text(raw.get("content"), where))
    if role == "assistant":
        return AIMessage(content=_text(raw.get("content"), where),
                         tool_calls=_tool_calls(raw.get("tool_calls"), where))
    if role == "tool":
        if not raw.get("tool_call_id") or not isinstance(raw["tool_call_id"], str):
            raise InvalidRequest(f"{where}: a tool message needs tool_call_id", param=where)
        return ToolMessage(content=_text(raw.get("content"), where), tool_call_id=raw["tool_call_id"])
    raise InvalidRequest(f"{where}: unsupported role {role!r}", param=f"{where}.role")


def _tools(body: dict[str, Any]) -> list[dict[str, Any]]:
    tools = body.get("tools") or []
    if not isinstance(tools, list) or not all(
        isinstance(t, dict) and t.get("type") == "function" and isinstance(t.get("function"), dict)
        for t in tools
    ):
        raise InvalidRequest("tools must be a list of function tools", param="tools")
    choice = body.get("tool_choice")
    if choice == "none":
        return []
    if isinstance(choice, dict):
        wanted = (choice.get("function") or {}).get("name")
        return [t for t in tools if t["function"].get("name") == wanted]
    return tools


def parse_request(body: Any) -> ChatRequest:
    """Validate a Chat Completions request body.

    Raises:
        InvalidRequest: The body is not a request this server can answer.
    """
    if not isinstance(body, dict):
        raise InvalidRequest("the request body must be a JSON object")
    if not isinstance(body.get("model"), str) or not body["model"]:
        raise InvalidRequest("model is required", param="model")
    raw_messages = body.get("messages")
    if not isinstance(raw_messages, list) or not raw_messages:
        raise InvalidRequest("messages must be a non-empty list", param="messages")
    n = body.get("n") or 1
    if not isinstance(n, int) or not 1 <= n <= 8:
        raise InvalidRequest("n must be an integer from 1 to 8", param="n")
    options = body.get("stream_options") or {}
    return ChatRequest(
        model=body["model"],
        messages=[_message(m, i) for i, m in enumerate(raw_messages)],
        tools=_tools(body),
        stream=bool(body.get("stream")),
        include_usage=bool(isinstance(options, dict) and options.get("include_usage")),
        n=n,
    )


def _openai_calls(reply: AIMessage) -> list[dict[str, Any]]:
    return [
        {"id": call.get("id") or f"call_{i}", "type": "function",
         "function": {"name": call["name"], "arguments": json.dumps(call["args"], ensure_ascii=False)}}
        for i, call in enumerate(reply.tool_calls)
    ]


def _usage(reply: AIMessage) -> dict[str, int]:
    usage: dict[str, Any] = dict(reply.usage_metadata or {})
    prompt = int(usage.get("input_tokens") or 0)
    done = int(usage.get("output_tokens") or 0)
    return {"prompt_tokens": prompt, "completion_tokens": done, "total_tokens": prompt + done}


def _finish(reply: AIMessage) -> str:
    return "tool_calls" if reply.tool_calls else "stop"


def completion(
    reply: AIMessage, *, model: str, completion_id: str, created: int, n: int = 1
) -> dict[str, Any]:
    """The ``chat.completion`` object for a reply (``n`` identical choices: the model is deterministic)."""
    message: dict[str, Any] = {"role": "assistant", "content": _text(reply.content, "reply"), "refusal": None}
    if reply.tool_calls:
        message["tool_calls"] = _openai_calls(reply)
    return {
        "id": completion_id,
        "object": "chat.completion",
        "created": created,
        "model": model,
        "system_fingerprint": "groundgate-offline",
        "choices": [
            {"index": i, "message": message, "logprobs": None, "finish_reason": _finish(reply)}
            for i in range(n)
        ],
        "usage": _usage(reply),
    }


def _pieces(text: str) -> list[str]:
    return [text[i : i + PIECE_CHARS] for i in range(0, len(text), PIECE_CHARS)]


def chunks(reply: AIMessage, *, model: str, completion_id: str, created: int,
           include_usage: bool = False) -> Iterator[dict[str, Any]]:
    """The ``chat.completion.chunk`` objects a streaming client reads, in order."""
    base = {"id": completion_id, "object": "chat.completion.chunk", "created": created, "model": model,
            "system_fingerprint": "groundgate-offline"}

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**base, "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]}

    yield chunk({"role": "assistant", "content": ""})
    for piece in _pieces(_text(reply.content, "reply")):
        yield chunk({"content": piece})
    for index, call in enumerate(_openai_calls(reply)):
        fn = call["function"]
        yield chunk({"tool_calls": [{"index": index, "id": call["id"], "type": "function",
                                     "function": {"name": fn["name"], "arguments": ""}}]})
        for piece in _pieces(fn["arguments"]):
            yield chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
    yield chunk({}, _finish(reply))
    if include_usage:
        yield {**base, "choices": [], "usage": _usage(reply)}

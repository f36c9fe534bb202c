"""An OpenAI-compatible Chat Completions server for the offline planner (stdlib only).

``groundgate serve-model --port N`` runs it; tests start it on an ephemeral port. Any
OpenAI client then reaches the planner over the same HTTP path a hosted model uses:

```python
with ModelServer(port=0) as server:
    model = make_chat_model(f"compatible:{server.base_url}#offline")
```

Routes: ``POST /v1/chat/completions`` (plain JSON, or server-sent events with
``"stream": true``), ``GET /v1/models`` and ``GET /v1/models/{id}``. The ``/v1`` prefix
is optional. Errors come back as OpenAI error objects, so clients raise their usual
``BadRequestError`` / ``NotFoundError``.

What it refuses, before the model sees anything: a ``Host`` other than the loopback names
when it listens on loopback (421, as the MCP HTTP server does, against DNS rebinding); a
body that is not ``application/json`` (415); no ``Content-Length`` (411); a body over
``MAX_BODY_BYTES`` (413); a body that is not JSON or nests deeper than ``MAX_JSON_DEPTH``
(400). Each connection has its own thread, and the listen queue holds ``LISTEN_BACKLOG``
connections, so a burst of clients waits instead of being reset.
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
import sys
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage

from groundgate.serve.openai_format import InvalidRequest, chunks, completion, parse_request

__all__ = ["ModelServer"]

MAX_BODY_BYTES = 16 * 1024 * 1024
"""Requests larger than this are refused (413)."""
MAX_JSON_DEPTH = 64
"""Request bodies nested deeper than this (arrays and objects) are refused (400)."""
LISTEN_BACKLOG = 128
"""Connections the kernel queues while every thread is busy accepting (the stdlib's is 5)."""
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
"""The ``Host`` names a server listening on loopback answers to."""


def _depth(value: Any) -> int:
    """How deeply arrays and objects nest in a parsed JSON value (iteratively: no recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, level)
        if level <= MAX_JSON_DEPTH:  # past the limit, the answer is already known
            stack.extend((child, level + 1) for child in children)
    return deepest


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = LISTEN_BACKLOG
    model: BaseChatModel
    model_id: str
    clock: Callable[[], int]
    log: Callable[[str], None] | None
    allowed_hosts: frozenset[str] | None
    """``Host`` header values answered; ``None`` answers any (not listening on loopback)."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hangs up on a kept-alive connection is normal, not an error to print."""
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _HTTPServer

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the stdlib's signature
        if self.server.log is not None:
            self.server.log(format % args)

    # --- plumbing -----------------------------------------------------------------------
    def _send_json(self, status: int, body: dict[str, Any]) -> None:
        data = json.dumps(body, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)

    def _check_host(self) -> None:
        allowed = self.server.allowed_hosts
        if allowed is not None and (self.headers.get("Host") or "").lower() not in allowed:
            self.close_connection = True  # a request for another site: read no more from this client
            raise InvalidRequest("this server does not answer for that Host", status=421,
                                 code="misdirected_request")

    def _check_content_type(self) -> None:
        media = (self.headers.get("Content-Type") or "").split(";", 1)[0].strip().lower()
        if media != "application/json":
            self.close_connection = True  # the body is left unread
            raise InvalidRequest(
                f"the request body must be application/json, not {media or 'untyped'}", status=415,
                code="unsupported_media_type",
            )

    def _parse_json(self, raw: bytes) -> Any:
        try:
            body = json.loads(raw)
        except RecursionError:
            body = None  # nested past what the parser can hold: deeper than any limit
        except ValueError:
            raise InvalidRequest("the request body is not valid JSON") from None
        else:
            if _depth(body) <= MAX_JSON_DEPTH:
                return body
        raise InvalidRequest(f"the request body nests deeper than {MAX_JSON_DEPTH} levels")

    def _send_error(self, exc: InvalidRequest) -> None:
        self._send_json(exc.status, exc.body())

    def _route(self) -> str:
        path = self.path.split("?", 1)[0].rstrip("/")
        return path[3:] if path.startswith("/v1/") else path

    def _read_body(self) -> bytes:
        length = self.headers.get("Content-Length") or ""
        if not length.isdigit():
            self.close_connection = True  # the body's end is unknown: this connection cannot be reused
            raise InvalidRequest("a Content-Length header is required", status=411)
        size = int(length)
        if size > MAX_BODY_BYTES:
            self.close_connection = True
            raise InvalidRequest("the request body is too large", status=413)
        return self.rfile.read(size)

    # --- routes -------------------------------------------------------------------------
    def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
        """``/v1/models`` and ``/v1/models/{id}``."""
        try:
            self._check_host()
        except InvalidRequest as exc:
            self._send_error(exc)
            return
        route = self._route()
        card = {"id": self.server.model_id, "object": "model", "created": 0, "owned_by": "groundgate"}
        if route == "/models":
            self._send_json(200, {"object": "list", "data": [card]})
        elif route == f"/models/{self.server.model_id}":
            self._send_json(200, card)
        elif route.startswith("/models/"):
            self._send_error(self._unknown_model(route.removeprefix("/models/")))
        else:
            self._send_error(InvalidRequest(f"no route GET {self.path}", status=404))

    def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
        """``/v1/chat/completions``."""
        try:
            self._check_host()
            self._check_content_type()
            raw = self._read_body()
            if self._route() != "/chat/completions":
                raise InvalidRequest(f"no route POST {self.path}", status=404)
            body = self._parse_json(raw)
            request = parse_request(body)
            if request.model != self.server.model_id:
                raise self._unknown_model(request.model)
            reply = self._answer(request.messages, request.tools)
        except InvalidRequest as exc:
            self._send_error(exc)
            return
        except Exception as exc:  # a request nobody foresaw: a 500 the client can read, not a dropped socket
            self.log_error("unexpected %s handling POST %s: %s", type(exc).__name__, self.path, exc)
            self._send_error(InvalidRequest(f"the server failed: {type(exc).__name__}", status=500))
            return
        completion_id = "chatcmpl-" + hashlib.sha256(
            json.dumps(body, sort_keys=True).encode()
        ).hexdigest()[:24]
        created = self.server.clock()
        if request.stream:
            self._stream(chunks(reply, model=request.model, completion_id=completion_id, created=created,
                                include_usage=request.include_usage))
        else:
            self._send_json(200, completion(reply, model=request.model, completion_id=completion_id,
                                            created=created, n=request.n))

    def _unknown_model(self, name: str) -> InvalidRequest:
        return InvalidRequest(
            f"the model {name!r} does not exist here; this server serves {self.server.model_id!r}",
            status=404, param="model", code="model_not_found",
        )

    def _answer(self, messages: list[Any], tools: list[dict[str, Any]]) -> AIMessage:
        model = self.server.model
        try:
            reply = (model.bind_tools(tools) if tools else model).invoke(messages)
        except Exception as exc:  # the model failed: a 500 the client can read, not a dropped socket
            raise InvalidRequest(f"the model failed: {type(exc).__name__}: {exc}", status=500) from exc
        return reply if isinstance(reply, AIMessage) else AIMessage(content=str(reply.content))

    def _stream(self, events: Any) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for event in events:
            self._write_chunk(f"data: {json.dumps(event, ensure_ascii=False)}\n\n".encode())
        self._write_chunk(b"data: [DONE]\n\n")
        self.wfile.write(b"0\r\n\r\n")

    def _write_chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):X}\r\n".encode() + data + b"\r\n")


class ModelServer:
    """A chat model (the offline planner by default) served as an OpenAI-compatible endpoint.

    Use it as a context manager (it serves on a background thread and stops on exit) or
    call ``serve_forever()`` to block, as the CLI does.
    """

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        model: BaseChatModel | None = None,
        model_id: str = "offline",
        clock: Callable[[], int] | None = None,
        log: Callable[[str], None] | None = None,
    ) -> None:
        """Bind the socket (``port=0`` picks a free one).

        Args:
            host: Interface to listen on; loopback by default.
            port: Port to listen on; ``0`` for an ephemeral port.
            model: The chat model to serve; the offline planner when omitted.
            model_id: The model id clients must ask for.
            clock: Seconds since the epoch for ``created`` (fix it for byte-stable recordings).
            log: Where to write one line per request; silent when omitted.
        """
        if model is None:
            from groundgate.models.offline import OfflinePlanner

            model = OfflinePlanner()
        self._httpd = _HTTPServer((host, port), _Handler)
        bound = self.port
        self._httpd.allowed_hosts = (
            frozenset(name + suffix for name in LOOPBACK_NAMES for suffix in ("", f":{bound}"))
            if _loopback(host) else None
        )
        self._httpd.model = model
        self._httpd.model_id = model_id
        self._httpd.clock = clock or (lambda: int(time.time()))
        self._httpd.log = log
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        """The port actually bound."""
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        """The OpenAI base URL, e.g. ``http://127.0.0.1:8000/v1``."""
        host = str(self._httpd.server_address[0])
        return f"http://{host}:{self.port}/v1"

    @property
    def model_id(self) -> str:
        """The model id clients must ask for."""
        return self._httpd.model_id

    def start(self) -> ModelServer:
        """Serve on a background (daemon) thread."""
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="gg-model-server", daemon=True)
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        """Serve on this thread until interrupted."""
        self._httpd.serve_forever()

    def close(self) -> None:
        """Stop serving and release the socket."""
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join()
            self._thread = None
        self._httpd.server_close()

    def __enter__(self) -> ModelServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

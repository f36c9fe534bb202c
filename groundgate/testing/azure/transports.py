"""``azure.core`` transports for tests and local runs.

They record requests, answer them from a handler, or inject faults (429, 503, timeouts,
refused connections) in front of a real transport.

Both SDKs (azure-search-documents and azure-cosmos) accept ``transport=``; whatever passes
through here is exactly what would have gone on the wire.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import requests
from azure.core.pipeline.transport import HttpTransport
from azure.core.pipeline.transport._requests_basic import RequestsTransportResponse
from azure.core.rest import HttpRequest as RestHttpRequest
from azure.core.rest._requests_basic import RestRequestsTransportResponse

__all__ = [
    "Fault",
    "FaultTransport",
    "HandlerTransport",
    "RecordedRequest",
    "make_response",
]


@dataclass(frozen=True)
class RecordedRequest:
    """One request as sent: method, URL parts, headers and the decoded JSON body."""

    method: str
    url: str
    path: str
    query: str
    headers: dict[str, str]
    body: Any

    @property
    def params(self) -> dict[str, str]:
        """The query string as a dict."""
        return dict(parse_qsl(self.query))


def _body_bytes(request: Any) -> bytes:
    for attr in ("content", "body", "data"):
        try:
            value = getattr(request, attr)
        except Exception:  # a rest request raises until its content is read
            continue
        if value is None:
            continue
        if isinstance(value, bytes):
            return value
        if isinstance(value, str):
            return value.encode()
        if isinstance(value, dict | list):
            return json.dumps(value).encode()
    return b""


def record(request: Any) -> RecordedRequest:
    """The parts of ``request`` that a test checks."""
    raw = _body_bytes(request)
    try:
        body: Any = json.loads(raw) if raw else None
    except ValueError:
        body = raw.decode(errors="replace")
    parts = urlsplit(request.url)
    return RecordedRequest(
        method=request.method,
        url=request.url,
        path=parts.path,
        query=parts.query,
        headers={k.lower(): v for k, v in request.headers.items()},
        body=body,
    )


def make_response(request: Any, status: int, body: Any = None, headers: dict[str, str] | None = None) -> Any:
    """An ``azure.core`` response of the kind ``request`` expects (rest or legacy pipeline)."""
    raw = requests.Response()
    raw.status_code = status
    raw.reason = "OK" if status < 400 else "Error"
    payload = b"" if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    raw._content = payload
    raw._content_consumed = True
    raw.headers["content-type"] = "application/json; charset=utf-8"
    raw.headers["content-length"] = str(len(payload))
    for key, value in (headers or {}).items():
        raw.headers[key] = value
    raw.url = request.url
    if isinstance(request, RestHttpRequest):
        response = RestRequestsTransportResponse(request=request, internal_response=raw)
        response.read()
        return response
    return RequestsTransportResponse(request, raw)


class _BaseTransport(HttpTransport):
    """What ``azure.core`` asks of a sync transport, minus ``send``."""

    slept: list[float]

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *args: Any) -> None:
        return None

    def open(self) -> None:
        """Nothing to open."""

    def close(self) -> None:
        """Nothing to close."""

    def sleep(self, duration: float) -> None:
        """azure-core's RetryPolicy sleeps through the transport: recorded, not slept."""
        self.slept.append(duration)


class HandlerTransport(_BaseTransport):
    """Answers every request from ``handler(recorded, request) -> (status, body, headers)``.

    Each request is kept in ``requests``.
    """

    def __init__(self, handler: Callable[[RecordedRequest, Any], tuple[int, Any, dict[str, str]]]) -> None:
        self.handler = handler
        self.requests: list[RecordedRequest] = []
        self.slept: list[float] = []
        self._lock = threading.Lock()

    def send(self, request: Any, **kwargs: Any) -> Any:
        """Record, then answer from the handler."""
        seen = record(request)
        with self._lock:
            self.requests.append(seen)
        status, body, headers = self.handler(seen, request)
        return make_response(request, status, body, headers)


@dataclass
class Fault:
    """One injected failure: an HTTP status with headers, or an exception to raise."""

    status: int = 0
    headers: dict[str, str] = field(default_factory=dict)
    body: Any = None
    raise_error: BaseException | None = None
    match: Callable[[RecordedRequest], bool] | None = None
    """Only requests this accepts are faulted (all when ``None``)."""


class FaultTransport(_BaseTransport):
    """Serves ``faults`` one per matching request, in order, then passes through to ``inner``."""

    def __init__(self, inner: Any, faults: list[Fault]) -> None:
        self.inner = inner
        self.faults = list(faults)
        self.requests: list[RecordedRequest] = []
        self.faulted: list[RecordedRequest] = []
        self.slept: list[float] = []
        self._lock = threading.Lock()

    def open(self) -> None:
        """Open the inner transport."""
        self.inner.open()

    def close(self) -> None:
        """Close the inner transport."""
        self.inner.close()

    def send(self, request: Any, **kwargs: Any) -> Any:
        """Fault the request if one is queued for it, else pass it on."""
        seen = record(request)
        with self._lock:
            self.requests.append(seen)
            fault = next((f for f in self.faults if f.match is None or f.match(seen)), None)
            if fault is not None:
                self.faults.remove(fault)
                self.faulted.append(seen)
        if fault is None:
            return self.inner.send(request, **kwargs)
        if fault.raise_error is not None:
            raise fault.raise_error
        return make_response(
            request, fault.status, fault.body if fault.body is not None else {}, fault.headers
        )

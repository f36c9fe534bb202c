"""``McpToolRunner``: the agent's tool calls, executed by an MCP server.

```python
from mcp.client.stdio import StdioServerParameters
with McpToolRunner(StdioServerParameters(command="groundgate", args=["mcp"])) as runner:
    agent = build_agent(store, model, run_tool=runner)
```

The agent still needs a store for its policy gate (the contradiction register lookup);
the tools themselves run wherever the server is.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from contextlib import AbstractContextManager, ExitStack
from types import TracebackType
from typing import Any

from anyio.from_thread import BlockingPortal, start_blocking_portal
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from pydantic import ValidationError

from groundgate.mcp.server import DEFAULT_AS_OF_META
from groundgate.tools.base import ToolDeps
from groundgate.tools.envelope import Envelope, error_envelope
from groundgate.tools.registry import ALL_TOOLS, timed_call

__all__ = ["McpToolRunner"]


class McpToolRunner(AbstractContextManager["McpToolRunner"]):
    """A ``ToolRunner`` that sends each call to an MCP server and reads back the envelope.

    Args:
        server: ``StdioServerParameters`` to start the server as a subprocess, or the URL
            of a Streamable HTTP server.
        timeout_s: Seconds to wait for one call (the agent's own tool timeout still applies).

    Use it as a context manager: it connects on entry (an event loop on a background
    thread holds the session) and disconnects on exit. Calls are thread-safe, so the
    agent's parallel tool calls go out concurrently.
    """

    def __init__(self, server: StdioServerParameters | str, *, timeout_s: float = 30.0) -> None:
        self.server = server
        self.timeout_s = timeout_s
        self._stack: ExitStack | None = None
        self._portal: BlockingPortal | None = None
        self._client: Client | None = None

    def __enter__(self) -> McpToolRunner:
        stack = ExitStack()
        try:
            self._portal = stack.enter_context(start_blocking_portal())
            client = Client(self.server, read_timeout_seconds=self.timeout_s)
            self._client = stack.enter_context(self._portal.wrap_async_context_manager(client))
            self._portal.call(self._client.list_tools)  # the client validates results against listed schemas
        except BaseException:
            stack.close()
            raise
        self._stack = stack
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        stack, self._stack, self._client, self._portal = self._stack, None, None, None
        if stack is not None:
            stack.close()

    def list_tools(self) -> list[Any]:
        """The server's tool definitions."""
        portal, client = self._connected()
        return list(portal.call(client.list_tools).tools)

    def call_tool(self, name: str, args: dict[str, Any], *, meta: dict[str, Any] | None = None) -> Any:
        """The server's raw ``CallToolResult`` for one call (content, structured content, ``is_error``)."""
        portal, client = self._connected()
        call = functools.partial(client.call_tool, name, args, meta=meta)  # type: ignore[arg-type]
        return portal.call(call)

    def _connected(self) -> tuple[BlockingPortal, Client]:
        if self._portal is None or self._client is None:
            raise RuntimeError("McpToolRunner is not connected: use it as a context manager")
        return self._portal, self._client

    def __call__(
        self,
        name: str,
        args: dict[str, Any],
        deps: ToolDeps,
        *,
        allowed: Iterable[str] = ALL_TOOLS,
        call_id: str = "",
    ) -> Envelope:
        """Run one call on the server; a transport failure is an error envelope, never an exception.

        A tool outside ``allowed`` is refused here, as in process: the server may offer more.
        """
        remote = functools.partial(self._remote, name, args, deps)
        return timed_call(name, args, allowed=allowed, call_id=call_id, run=remote)

    def _remote(self, name: str, args: dict[str, Any], deps: ToolDeps) -> Envelope:
        meta: dict[str, Any] = {}
        if deps.default_as_of is not None:
            meta[DEFAULT_AS_OF_META] = deps.default_as_of.isoformat()
        try:
            result = self.call_tool(name, args, meta=meta or None)
        except Exception as exc:  # the server died or refused: the model sees an error, the run goes on
            return error_envelope(name, f"MCP call failed: {type(exc).__name__}: {exc}", args=args)
        if result.structured_content is not None:
            try:
                return Envelope.model_validate(result.structured_content)
            except ValidationError as exc:
                return error_envelope(name, f"MCP result is not a groundgate envelope: {exc}", args=args)
        text = " ".join(getattr(c, "text", "") for c in result.content).strip()
        return error_envelope(name, text or "MCP call returned no envelope", args=args)

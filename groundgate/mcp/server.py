"""An MCP server over the eight tools: one envelope, structured, with read-only hints."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from datetime import date
from typing import Any

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server

from groundgate.knowledge.embed import Embedder
from groundgate.knowledge.port import KnowledgeStore
from groundgate.tools.base import ToolDeps
from groundgate.tools.envelope import Envelope
from groundgate.tools.registry import ALL_TOOLS, execute, select

__all__ = [
    "DEFAULT_AS_OF_META", "call_result", "envelope_schema", "make_server", "serve_http", "serve_stdio",
    "tool_definitions",
]

DEFAULT_AS_OF_META = "groundgate/default_as_of"
"""Request ``_meta`` key: the date a call defaults to when its arguments give none (the
question's date in an agent run), so a call over MCP answers exactly as it does in process.
"""

INSTRUCTIONS = (
    "Read-only tools over an organisation's knowledge layer: evidence search, entity search, "
    "typed traversal, timelines, diffs, entity resolution, the contradiction register and "
    "source documents. Every result names its sources; 'insufficient: true' means the layer "
    "does not say, not that the answer is no. Open contradictions list every position: "
    "present them all and choose none."
)


@functools.lru_cache(maxsize=1)
def envelope_schema() -> dict[str, Any]:
    """The JSON Schema of the envelope as it travels (structured content of every tool)."""
    return Envelope.model_json_schema(mode="serialization")


@functools.lru_cache(maxsize=8)
def tool_definitions(names: tuple[str, ...] = ALL_TOOLS) -> tuple[types.Tool, ...]:
    """The MCP tool definitions: input schema from the argument model, output schema the envelope."""
    return tuple(
        types.Tool(
            name=spec.name,
            title=spec.name.replace("_", " ").capitalize(),
            description=spec.description,
            input_schema=spec.args_model.model_json_schema(),
            output_schema=envelope_schema(),
            annotations=types.ToolAnnotations(
                title=spec.name.replace("_", " ").capitalize(),
                read_only_hint=True,
                destructive_hint=False,
                idempotent_hint=True,
                open_world_hint=False,
            ),
        )
        for spec in select(names)
    )


def call_result(envelope: Envelope) -> types.CallToolResult:
    """The envelope as an MCP result: structured in full, compact as text, failed as ``is_error``."""
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=envelope.for_model())],
        structured_content=envelope.model_dump(mode="json"),
        is_error=bool(envelope.error),
    )


def _default_as_of(params: types.CallToolRequestParams) -> date | None:
    value = (params.meta or {}).get(DEFAULT_AS_OF_META)
    if not isinstance(value, str):
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        return None


def make_server(
    store: KnowledgeStore,
    *,
    embedder: Embedder | None = None,
    tools: Sequence[str] = ALL_TOOLS,
    name: str = "groundgate",
) -> Server[Any]:
    """A low-level MCP server whose tools run ``registry.execute`` over ``store`` (read-only).

    The low-level server is used rather than ``MCPServer`` so the schemas are exactly the
    tools' own pydantic models and the envelope, not ones inferred from a function signature.
    """
    names = tuple(tools)
    definitions = tool_definitions(names)

    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=list(definitions))

    async def call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        deps = ToolDeps(store=store, embedder=embedder, default_as_of=_default_as_of(params))
        run = functools.partial(execute, params.name, dict(params.arguments or {}), deps, allowed=names)
        # Tools are synchronous (SQLite, HTTP backends): keep the event loop free for other calls.
        envelope = await anyio.to_thread.run_sync(run)
        return call_result(envelope)

    return Server(
        name,
        version=_version(),
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("groundgate")
    except metadata.PackageNotFoundError:  # pragma: no cover
        return "0"


async def serve_stdio(server: Server[Any]) -> None:
    """Serve over this process's stdin/stdout until the client closes them."""
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def serve_http(server: Server[Any], *, host: str = "127.0.0.1", port: int = 8000, path: str = "/mcp") -> None:
    """Serve over Streamable HTTP at ``http://host:port/path`` until interrupted."""
    import uvicorn

    app = server.streamable_http_app(streamable_http_path=path, host=host)
    uvicorn.run(app, host=host, port=port, log_level="warning")

"""The eight tools over the Model Context Protocol (mcp 2.x).

- ``server``: ``make_server(store)`` serves the tools with their input and output schemas,
  read-only annotations, and the tool envelope as structured content (the compact text the
  model sees goes alongside as text content). ``groundgate mcp`` runs it over stdio or HTTP.
- ``client``: ``McpToolRunner`` runs the agent's tool calls on an MCP server, so
  ``build_agent(..., run_tool=runner)`` uses tools loaded over MCP.

Needs ``groundgate[mcp]``.
"""

import sys

import pytest
from mcp.client.stdio import StdioServerParameters

from groundgate.mcp.client import McpToolRunner


@pytest.fixture(scope="session")
def mcp_runner(bundled_store):
    """One `groundgate mcp` subprocess over stdio, through the official client, for the session."""
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "groundgate", "mcp", "--store", str(bundled_store.path)]
    )
    with McpToolRunner(params) as runner:
        yield runner

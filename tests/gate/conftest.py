import shutil
import sys
from pathlib import Path

import pytest

from groundgate.knowledge.default import bundled_corpus
from groundgate.knowledge.embedded.store import SQLiteStore
from groundgate.knowledge.ingest.pipeline import ingest

INJECTED = Path(__file__).parent / "data" / "injected"


@pytest.fixture(scope="session")
def adversary_store(tmp_path_factory):
    """The bundled corpus plus twelve documents carrying planted instructions, read-only."""
    root = tmp_path_factory.mktemp("adversary") / "corpus"
    shutil.copytree(bundled_corpus(), root)
    shutil.copytree(INJECTED, root / "documents" / "injected")
    path = root.parent / "store.sqlite"
    writer = SQLiteStore.from_path(path)
    writer.setup()
    ingest(writer, root)
    writer.close()
    store = SQLiteStore.from_path(path, read_only=True)
    yield store
    store.close()


@pytest.fixture(scope="session")
def adversary_mcp(adversary_store):
    """The eight tools over the adversary store, served by `groundgate mcp` over stdio."""
    pytest.importorskip("mcp", reason="the MCP path needs the mcp extra")
    from mcp.client.stdio import StdioServerParameters

    from groundgate.mcp.client import McpToolRunner

    params = StdioServerParameters(
        command=sys.executable, args=["-m", "groundgate", "mcp", "--store", str(adversary_store.path)],
    )
    with McpToolRunner(params) as runner:
        yield runner

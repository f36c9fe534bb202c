"""Fixtures for the Azure backend's tests.

Local servers are started by `bash scripts/local-backends.sh start` (.ci/run does it); the
script writes `.cache/local-backends/{status,azure-local.env}`. A test that needs a server
that is not up skips, naming what is missing. Tests only ever connect to 127.0.0.1.
"""

from __future__ import annotations

import os
import socket
import uuid
from pathlib import Path
from urllib.parse import urlsplit

import pytest

pytest.importorskip("azure.cosmos", reason="the 'azure' extra is not installed (pip install -e '.[dev]')")
pytest.importorskip("gremlin_python", reason="gremlinpython is not installed (pip install -e '.[dev]')")

from groundgate.knowledge.azure import AzureSettings, AzureStore, RetrySettings  # noqa: E402
from groundgate.testing.azure.fake_search import FakeSearchTransport  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
START = "bash scripts/local-backends.sh start"


def backends_dir() -> Path:
    return Path(os.environ.get("GROUNDGATE_BACKENDS_CACHE") or ROOT / ".cache" / "local-backends")


def local_env() -> dict[str, str]:
    """The `export NAME=value` lines the start script wrote (empty if it never ran)."""
    env: dict[str, str] = {}
    path = backends_dir() / "azure-local.env"
    if path.exists():
        for line in path.read_text().splitlines():
            line = line.split("#", 1)[0].strip()
            if line.startswith("export ") and "=" in line:
                name, value = line[len("export ") :].split("=", 1)
                env[name.strip()] = value.strip()
    return env


def _status(service: str) -> str | None:
    path = backends_dir() / "status"
    if not path.exists():
        return None
    for line in path.read_text().splitlines():
        if line.startswith(f"{service}: "):
            return line[len(service) + 2 :]
    return None


def _reachable(url: str) -> bool:
    parts = urlsplit(url)
    if parts.hostname not in ("127.0.0.1", "localhost", "::1"):
        return False  # tests never leave this machine
    try:
        with socket.create_connection((parts.hostname, parts.port or 443), timeout=1.0):
            return True
    except OSError:
        return False


LABELS = {
    "gremlin": ("Apache TinkerPop Gremlin Server", "GROUNDGATE_AZURE_GREMLIN_URL"),
    "cosmos": ("the Cosmos DB NoSQL emulator (@vercel/cosmosdb-server)", "GROUNDGATE_AZURE_COSMOS_ENDPOINT"),
    "search": ("groundgate's fake AI Search HTTP server", "GROUNDGATE_AZURE_SEARCH_ENDPOINT"),
}


def require(service: str) -> str:
    """The local URL of ``service``, or skip the test saying exactly what is missing."""
    label, variable = LABELS[service]
    status = _status(service)
    url = local_env().get(variable)
    if status is None or url is None:
        pytest.skip(f"{label} is not running: `{START}` has not been run")
    if status.startswith("missing"):
        pytest.skip(f"{label} is not running: {status[len('missing: ') :]}")
    if not _reachable(url):
        pytest.skip(f"{label} is not reachable at {url} (restart it: `{START}`)")
    return url


FAST_RETRY = RetrySettings(attempts=3, base_delay_s=0.05, max_delay_s=0.5)


@pytest.fixture
def local_settings() -> AzureSettings:
    """Settings for the local Gremlin Server and Cosmos emulator, a fresh database, and the
    in-process fake AI Search (served through the SDK's transport)."""
    gremlin = require("gremlin")
    cosmos = require("cosmos")
    env = local_env()
    return AzureSettings(
        search_endpoint="https://fake-search.groundgate.test",
        search_key="fake-key",
        cosmos_endpoint=cosmos,
        cosmos_key=env["GROUNDGATE_AZURE_COSMOS_KEY"],
        cosmos_database=f"test-{uuid.uuid4().hex[:12]}",
        cosmos_ca_file=Path(env["GROUNDGATE_AZURE_COSMOS_CA_FILE"]),
        gremlin_url=gremlin,
        vector_dimensions=256,
        timeout_s=10.0,
        retry=FAST_RETRY,
        write_concurrency=1,  # TinkerGraph's edge sets are not safe for concurrent writes
    )


@pytest.fixture
def azure_store(local_settings):
    """An empty, provisioned, writable AzureStore over the local servers."""
    store = AzureStore.from_settings(local_settings, search_transport=FakeSearchTransport())
    store.provision()
    store.graph.clear()
    yield store
    try:
        store.graph.clear()
        store.records.drop_database()
    finally:
        store.close()

"""Azure settings: read from a mapping the caller gives, never from the environment at import."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from groundgate.errors import ConfigError
from groundgate.knowledge.azure import AzureSettings

ENV = {
    "GROUNDGATE_AZURE_SEARCH_ENDPOINT": "https://s.search.windows.net",
    "GROUNDGATE_AZURE_SEARCH_KEY": "search-secret",
    "GROUNDGATE_AZURE_COSMOS_ENDPOINT": "https://c.documents.azure.com:443/",
    "GROUNDGATE_AZURE_GREMLIN_URL": "wss://g.gremlin.cosmos.azure.com:443/",
    "GROUNDGATE_AZURE_GREMLIN_USERNAME": "/dbs/kb/colls/graph",
    "GROUNDGATE_AZURE_GREMLIN_KEY": "gremlin-secret",
    "GROUNDGATE_AZURE_VECTOR_DIMENSIONS": "384",
}


def test_from_env_reads_the_named_variables_and_keys_stay_out_of_repr():
    settings = AzureSettings.from_env(ENV)
    assert settings.vector_dimensions == 384 and settings.cosmos_key is None  # None: Entra ID
    assert (settings.graph_database, settings.graph_name) == ("kb", "graph")
    assert "secret" not in repr(settings)


def test_missing_endpoints_and_bad_numbers_are_config_errors_naming_the_variable():
    with pytest.raises(ConfigError, match="GROUNDGATE_AZURE_GREMLIN_URL"):
        AzureSettings.from_env({k: v for k, v in ENV.items() if k != "GROUNDGATE_AZURE_GREMLIN_URL"})
    with pytest.raises(ConfigError, match="GROUNDGATE_AZURE_VECTOR_DIMENSIONS"):
        AzureSettings.from_env({**ENV, "GROUNDGATE_AZURE_VECTOR_DIMENSIONS": "many"})
    with pytest.raises(ConfigError, match="partition key"):
        AzureSettings.from_env(ENV).with_changes(gremlin_partition_key="id")


def test_write_concurrency_comes_from_the_environment_and_must_be_positive():
    assert AzureSettings.from_env(ENV).write_concurrency == 4
    assert AzureSettings.from_env({**ENV, "GROUNDGATE_AZURE_WRITE_CONCURRENCY": "1"}).write_concurrency == 1
    with pytest.raises(ConfigError, match="GROUNDGATE_AZURE_WRITE_CONCURRENCY"):
        AzureSettings.from_env({**ENV, "GROUNDGATE_AZURE_WRITE_CONCURRENCY": "two"})
    with pytest.raises(ConfigError, match="write_concurrency"):
        AzureSettings.from_env({**ENV, "GROUNDGATE_AZURE_WRITE_CONCURRENCY": "0"})


def test_importing_the_backend_imports_no_sdk_and_reads_no_environment():
    code = (
        "import sys, os; os.environ.clear(); "
        "import groundgate.knowledge.azure, groundgate.cli.azure;"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('azure', 'gremlin_python')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert out.stdout.strip() == "[]"

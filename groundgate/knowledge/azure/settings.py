"""Settings of the Azure backends: where each service is and how to authenticate.

Built by the caller or the CLI (``AzureSettings.from_env(os.environ)``); nothing here reads
the environment on import. A key left empty means Entra ID through azure-identity's
``DefaultAzureCredential`` (AI Search and Cosmos NoSQL; the Gremlin endpoint takes keys only).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from groundgate.errors import ConfigError

__all__ = ["ENV_NAMES", "AzureSettings", "RetrySettings"]


@dataclass(frozen=True)
class RetrySettings:
    """Backoff for throttled or unavailable requests (429, 503), honouring retry-after."""

    attempts: int = 5
    """Tries in all, the first included."""
    base_delay_s: float = 0.5
    """First backoff; doubled on each retry when the service gives no retry-after."""
    max_delay_s: float = 10.0
    """No single wait is longer than this, whatever the service asks."""


@dataclass(frozen=True)
class AzureSettings:
    """Endpoints, names and credentials of the three services behind ``AzureStore``."""

    search_endpoint: str
    """AI Search service URL, e.g. ``https://<name>.search.windows.net``."""
    cosmos_endpoint: str
    """Cosmos DB for NoSQL account URL, e.g. ``https://<acct>.documents.azure.com:443/``."""
    gremlin_url: str
    """Gremlin websocket URL: ``wss://<acct>.gremlin.cosmos.azure.com:443/`` or a Gremlin Server's
    ``ws://host:port/gremlin``."""
    search_key: str | None = field(default=None, repr=False)
    """AI Search admin key; ``None`` uses ``DefaultAzureCredential``."""
    search_index_prefix: str = "groundgate"
    """Indexes are ``<prefix>-evidence`` and ``<prefix>-knowledge``."""
    search_api_version: str = "2024-07-01"
    """The AI Search REST API version every request names (a GA version with HNSW and semantic)."""
    semantic_configuration: str | None = None
    """Name of the semantic configuration to rerank with; ``None`` is plain hybrid ranking."""
    vector_dimensions: int = 1536
    """Dimension of the evidence index's vector field (must match the embedder)."""
    cosmos_key: str | None = field(default=None, repr=False)
    """Cosmos NoSQL account key; ``None`` uses ``DefaultAzureCredential``."""
    cosmos_database: str = "groundgate"
    """The NoSQL database holding the system-of-record containers."""
    cosmos_ca_file: Path | None = None
    """A CA bundle to trust for the Cosmos endpoint (the local emulator's certificate)."""
    gremlin_username: str | None = None
    """``/dbs/<database>/colls/<graph>`` on Cosmos; ``None`` for an open Gremlin Server."""
    gremlin_key: str | None = field(default=None, repr=False)
    """The Gremlin account's key (Cosmos Gremlin accepts keys only)."""
    gremlin_partition_key: str = "pk"
    """The vertex property the graph is partitioned on (the container's ``/pk`` path)."""
    timeout_s: float = 10.0
    """Connect and read timeout of each request, seconds."""
    retry: RetrySettings = field(default_factory=RetrySettings)
    """Backoff on 429 and 503."""
    write_concurrency: int = 4
    """Parallel requests while ingesting. ``1`` for a TinkerGraph Gremlin Server (the local
    stand-in), whose vertices' edge sets are not safe for concurrent writes."""

    def __post_init__(self) -> None:
        for name in ("search_endpoint", "cosmos_endpoint", "gremlin_url"):
            if not getattr(self, name):
                raise ConfigError(f"AzureSettings.{name} is required")
        if self.vector_dimensions < 1:
            raise ConfigError("AzureSettings.vector_dimensions must be positive")
        if self.write_concurrency < 1:
            raise ConfigError("AzureSettings.write_concurrency must be positive")
        if self.gremlin_partition_key in ("id", "label", "eid"):
            raise ConfigError("the Gremlin partition key property must not be 'id', 'label' or 'eid'")

    @property
    def graph_database(self) -> str | None:
        """The Cosmos database named by ``gremlin_username`` (``/dbs/<db>/colls/<graph>``)."""
        return _username_part(self.gremlin_username, 2)

    @property
    def graph_name(self) -> str | None:
        """The Cosmos graph named by ``gremlin_username``."""
        return _username_part(self.gremlin_username, 4)

    def with_changes(self, **changes: Any) -> AzureSettings:
        """A copy with some fields changed."""
        return replace(self, **changes)

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> AzureSettings:
        """Settings from ``GROUNDGATE_AZURE_*`` variables in ``env`` (see ``ENV_NAMES``).

        Raises:
            ConfigError: A required variable is missing or a number is malformed.
        """
        missing = [
            ENV_NAMES[k]
            for k in ("search_endpoint", "cosmos_endpoint", "gremlin_url")
            if not env.get(ENV_NAMES[k])
        ]
        if missing:
            raise ConfigError(
                "the Azure backend needs "
                + ", ".join(missing)
                + ' (for local servers: eval "$(bash scripts/local-backends.sh env)")'
            )

        def text(key: str) -> str | None:
            return env.get(ENV_NAMES[key]) or None

        def number(key: str, default: int) -> int:
            raw = text(key)
            try:
                return int(raw) if raw else default
            except ValueError:
                raise ConfigError(f"{ENV_NAMES[key]} must be an integer, not {raw!r}") from None

        ca = text("cosmos_ca_file")
        return cls(
            search_endpoint=env[ENV_NAMES["search_endpoint"]],
            cosmos_endpoint=env[ENV_NAMES["cosmos_endpoint"]],
            gremlin_url=env[ENV_NAMES["gremlin_url"]],
            search_key=text("search_key"),
            search_index_prefix=text("search_index_prefix") or "groundgate",
            search_api_version=text("search_api_version") or "2024-07-01",
            semantic_configuration=text("semantic_configuration"),
            vector_dimensions=number("vector_dimensions", 1536),
            cosmos_key=text("cosmos_key"),
            cosmos_database=text("cosmos_database") or "groundgate",
            cosmos_ca_file=Path(ca) if ca else None,
            gremlin_username=text("gremlin_username"),
            gremlin_key=text("gremlin_key"),
            gremlin_partition_key=text("gremlin_partition_key") or "pk",
            write_concurrency=number("write_concurrency", 4),
        )


ENV_NAMES: dict[str, str] = {
    "search_endpoint": "GROUNDGATE_AZURE_SEARCH_ENDPOINT",
    "search_key": "GROUNDGATE_AZURE_SEARCH_KEY",
    "search_index_prefix": "GROUNDGATE_AZURE_SEARCH_INDEX_PREFIX",
    "search_api_version": "GROUNDGATE_AZURE_SEARCH_API_VERSION",
    "semantic_configuration": "GROUNDGATE_AZURE_SEARCH_SEMANTIC_CONFIG",
    "vector_dimensions": "GROUNDGATE_AZURE_VECTOR_DIMENSIONS",
    "cosmos_endpoint": "GROUNDGATE_AZURE_COSMOS_ENDPOINT",
    "cosmos_key": "GROUNDGATE_AZURE_COSMOS_KEY",
    "cosmos_database": "GROUNDGATE_AZURE_COSMOS_DATABASE",
    "cosmos_ca_file": "GROUNDGATE_AZURE_COSMOS_CA_FILE",
    "gremlin_url": "GROUNDGATE_AZURE_GREMLIN_URL",
    "gremlin_username": "GROUNDGATE_AZURE_GREMLIN_USERNAME",
    "gremlin_key": "GROUNDGATE_AZURE_GREMLIN_KEY",
    "gremlin_partition_key": "GROUNDGATE_AZURE_GREMLIN_PARTITION_KEY",
    "write_concurrency": "GROUNDGATE_AZURE_WRITE_CONCURRENCY",
}
"""Setting name to environment variable, as ``from_env`` reads them."""


def _username_part(username: str | None, index: int) -> str | None:
    parts = (username or "").split("/")
    shaped = len(parts) == 5 and parts[0] == "" and parts[1] == "dbs" and parts[3] == "colls"
    return parts[index] if shaped else None

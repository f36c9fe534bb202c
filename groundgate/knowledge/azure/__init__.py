"""The Azure backends, composed into one store (both knowledge ports) by ``AzureStore``.

AI Search (evidence and knowledge search: ``search``, ``search_indexes``, ``search_query``),
Cosmos DB for NoSQL (the system of record: ``cosmos``) and Cosmos DB for Apache Gremlin (the
bitemporal graph: ``gremlin``, ``gremlin_scripts``).

Importing this package imports no Azure SDK; the clients are built on first use, from
``AzureSettings`` the caller builds (``AzureSettings.from_env(os.environ)`` in the CLI).
"""

from groundgate.knowledge.azure.settings import AzureSettings, RetrySettings
from groundgate.knowledge.azure.store import AzureStore

__all__ = ["AzureSettings", "AzureStore", "RetrySettings"]

"""The two Azure AI Search index definitions, as the documented REST JSON.

Defined as JSON (not the SDK's model classes), so the definition is exactly what is sent:

- ``<prefix>-evidence``: one record per chunk, keyword fields analysed with ``en.lucene``,
  the document's kind and validity denormalised as filterable fields, a vector field with an
  HNSW profile, a semantic configuration and a field-weighted scoring profile.
- ``<prefix>-knowledge``: one record per entity (name, aliases, description, kind), the entity
  itself kept whole in a retrievable, unsearchable field.
"""

from __future__ import annotations

import base64
from typing import Any

from groundgate.knowledge.weights import CHUNK_WEIGHTS, ENTITY_WEIGHTS

__all__ = [
    "HNSW_ALGORITHM",
    "SCORING_PROFILE",
    "SEMANTIC_CONFIGURATION",
    "VECTOR_PROFILE",
    "evidence_index",
    "knowledge_index",
    "search_key",
]

HNSW_ALGORITHM = "groundgate-hnsw"
VECTOR_PROFILE = "groundgate-vector"
SEMANTIC_CONFIGURATION = "groundgate-semantic"
SCORING_PROFILE = "groundgate-fields"


def search_key(record_id: str) -> str:
    """A record id as an index key (keys allow only letters, digits, ``-``, ``_`` and ``=``)."""
    return base64.urlsafe_b64encode(record_id.encode()).decode()


def evidence_index(name: str, dimensions: int) -> dict[str, Any]:
    """The evidence index definition (REST shape)."""
    text = {
        "type": "Edm.String",
        "searchable": True,
        "filterable": False,
        "retrievable": True,
        "analyzer": "en.lucene",
    }
    stamp = {"type": "Edm.DateTimeOffset", "filterable": True, "sortable": True, "retrievable": True}
    return {
        "name": name,
        "fields": [
            {"name": "key", "type": "Edm.String", "key": True, "filterable": True, "retrievable": True},
            {"name": "chunk_id", "type": "Edm.String", "filterable": True, "retrievable": True},
            {"name": "doc_id", "type": "Edm.String", "filterable": True, "retrievable": True},
            {
                "name": "ordinal",
                "type": "Edm.Int32",
                "filterable": False,
                "sortable": True,
                "retrievable": True,
            },
            {"name": "title", **text},
            {"name": "heading", **text},
            {"name": "text", **text},
            {
                "name": "kind",
                "type": "Edm.String",
                "filterable": True,
                "facetable": True,
                "retrievable": True,
            },
            {"name": "effective_from", **stamp},
            {"name": "effective_to", **stamp},
            {"name": "published_at", **stamp},
            {
                "name": "vector",
                "type": "Collection(Edm.Single)",
                "searchable": True,
                "retrievable": False,
                "dimensions": dimensions,
                "vectorSearchProfile": VECTOR_PROFILE,
            },
        ],
        "scoringProfiles": [
            {"name": SCORING_PROFILE, "text": {"weights": dict(CHUNK_WEIGHTS)}}
        ],
        "vectorSearch": {
            "algorithms": [
                {
                    "name": HNSW_ALGORITHM,
                    "kind": "hnsw",
                    "hnswParameters": {"m": 4, "efConstruction": 400, "efSearch": 500, "metric": "cosine"},
                }
            ],
            "profiles": [{"name": VECTOR_PROFILE, "algorithm": HNSW_ALGORITHM}],
        },
        "semantic": {
            "configurations": [
                {
                    "name": SEMANTIC_CONFIGURATION,
                    "prioritizedFields": {
                        "titleField": {"fieldName": "title"},
                        "prioritizedContentFields": [{"fieldName": "text"}],
                        "prioritizedKeywordsFields": [{"fieldName": "heading"}],
                    },
                }
            ]
        },
    }


def knowledge_index(name: str) -> dict[str, Any]:
    """The knowledge (entity) index definition (REST shape)."""
    text = {"type": "Edm.String", "searchable": True, "retrievable": True, "analyzer": "en.lucene"}
    return {
        "name": name,
        "fields": [
            {"name": "key", "type": "Edm.String", "key": True, "filterable": True, "retrievable": True},
            {"name": "entity_id", "type": "Edm.String", "filterable": True, "retrievable": True},
            {
                "name": "kind",
                "type": "Edm.String",
                "filterable": True,
                "facetable": True,
                "retrievable": True,
            },
            {"name": "name", **text},
            {
                "name": "aliases",
                "type": "Collection(Edm.String)",
                "searchable": True,
                "retrievable": True,
                "analyzer": "en.lucene",
            },
            {"name": "description", **text},
            {
                "name": "entity_json",
                "type": "Edm.String",
                "searchable": False,
                "filterable": False,
                "retrievable": True,
            },
        ],
        "scoringProfiles": [
            {"name": SCORING_PROFILE, "text": {"weights": dict(ENTITY_WEIGHTS)}}
        ],
    }


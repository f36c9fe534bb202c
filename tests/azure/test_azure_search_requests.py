"""The exact REST requests the AI Search adapter sends, checked against the documented API
(api-version 2024-07-01: Create or Update Index, Index Documents, Search Documents POST).

No service and no network: the SDK's transport is replaced by one that records each request
and answers with canned, documented response shapes.
"""

from __future__ import annotations

import base64
from datetime import date

import pytest

pytest.importorskip("azure.search.documents", reason="the 'azure' extra is not installed")

from groundgate.errors import ConfigError, StoreError  # noqa: E402
from groundgate.knowledge.azure import AzureSettings, RetrySettings  # noqa: E402
from groundgate.knowledge.azure.search import SearchAdapter  # noqa: E402
from groundgate.knowledge.model import Chunk, Document, Entity  # noqa: E402
from groundgate.knowledge.port import EvidenceQuery, KnowledgeQuery  # noqa: E402
from groundgate.testing.azure.transports import HandlerTransport  # noqa: E402

ENDPOINT = "https://contoso.search.windows.net"


def settings(**changes) -> AzureSettings:
    base = AzureSettings(
        search_endpoint=ENDPOINT,
        search_key="secret-admin-key",
        cosmos_endpoint="https://unused",
        gremlin_url="ws://unused",
        vector_dimensions=4,
        retry=RetrySettings(attempts=3, base_delay_s=0.25, max_delay_s=8.0),
    )
    return base.with_changes(**changes)


def answering(*responses):
    """A transport answering each request with the next (status, body, headers)."""
    queue = list(responses)

    def handler(seen, request):
        return queue.pop(0) if len(queue) > 1 else queue[0]

    return HandlerTransport(handler)


def test_provision_puts_both_index_definitions_as_documented():
    transport = answering((201, {}, {}))
    SearchAdapter(settings(), transport=transport).provision()
    evidence, knowledge = transport.requests
    assert evidence.method == "PUT"
    assert evidence.path == "/indexes('groundgate-evidence')"
    assert evidence.params["api-version"] == "2024-07-01"
    assert evidence.headers["api-key"] == "secret-admin-key"
    assert evidence.headers["content-type"].startswith("application/json")
    body = evidence.body
    assert body["name"] == "groundgate-evidence"
    fields = {f["name"]: f for f in body["fields"]}
    assert [f["name"] for f in body["fields"] if f.get("key")] == ["key"]
    assert fields["key"]["type"] == "Edm.String"
    for name in ("title", "heading", "text"):
        assert fields[name] == {
            "name": name,
            "type": "Edm.String",
            "searchable": True,
            "filterable": False,
            "retrievable": True,
            "analyzer": "en.lucene",
        }
    for name in ("effective_from", "effective_to", "published_at"):
        assert fields[name]["type"] == "Edm.DateTimeOffset" and fields[name]["filterable"] is True
    assert fields["kind"]["filterable"] is True
    assert fields["vector"] == {
        "name": "vector",
        "type": "Collection(Edm.Single)",
        "searchable": True,
        "retrievable": False,
        "dimensions": 4,
        "vectorSearchProfile": "groundgate-vector",
    }
    assert body["vectorSearch"] == {
        "algorithms": [
            {
                "name": "groundgate-hnsw",
                "kind": "hnsw",
                "hnswParameters": {"m": 4, "efConstruction": 400, "efSearch": 500, "metric": "cosine"},
            }
        ],
        "profiles": [{"name": "groundgate-vector", "algorithm": "groundgate-hnsw"}],
    }
    assert body["semantic"]["configurations"] == [
        {
            "name": "groundgate-semantic",
            "prioritizedFields": {
                "titleField": {"fieldName": "title"},
                "prioritizedContentFields": [{"fieldName": "text"}],
                "prioritizedKeywordsFields": [{"fieldName": "heading"}],
            },
        }
    ]
    assert body["scoringProfiles"] == [
        {"name": "groundgate-fields", "text": {"weights": {"title": 2.0, "heading": 1.5, "text": 1.0}}}
    ]
    assert knowledge.method == "PUT" and knowledge.path == "/indexes('groundgate-knowledge')"
    kfields = {f["name"]: f for f in knowledge.body["fields"]}
    assert kfields["aliases"]["type"] == "Collection(Edm.String)" and kfields["aliases"]["searchable"] is True
    assert kfields["entity_json"]["searchable"] is False


def test_bulk_upload_sends_index_actions_with_safe_keys_and_deletes_stale_chunks():
    transport = answering(
        (200, {"value": [{"key": "k", "status": True, "errorMessage": None, "statusCode": 200}]}, {})
    )
    adapter = SearchAdapter(settings(), transport=transport)
    doc = Document(id="LIB-002", title="Loan policy v2", kind="policy", effective_from=date(2025, 1, 1))
    chunk = Chunk(id="LIB-002#0", doc_id="LIB-002", ordinal=0, heading="Loans", text="Three weeks.")
    actions = adapter.upload_chunks(doc, [chunk], {"LIB-002#0": [0.1, 0.2, 0.3, 0.4]})
    adapter.write(
        actions, ["LIB-002#7"], [Entity(id="rule:loan", kind="rule", name="Loan rule", aliases=("loans",))]
    )
    upload, entities = transport.requests
    assert upload.method == "POST"
    assert upload.path == "/indexes('groundgate-evidence')/docs/search.index"
    assert upload.params["api-version"] == "2024-07-01"
    delete, merge = upload.body["value"]
    assert delete == {"@search.action": "delete", "key": base64.urlsafe_b64encode(b"LIB-002#7").decode()}
    assert merge["@search.action"] == "mergeOrUpload"
    assert merge["key"] == "TElCLTAwMiMw"  # '#' is not allowed in keys: URL-safe base64
    assert merge["chunk_id"] == "LIB-002#0" and merge["doc_id"] == "LIB-002" and merge["kind"] == "policy"
    assert merge["effective_from"] == "2025-01-01T00:00:00Z" and merge["effective_to"] is None
    assert merge["vector"] == [0.1, 0.2, 0.3, 0.4]
    assert entities.path == "/indexes('groundgate-knowledge')/docs/search.index"
    assert entities.body["value"][0]["aliases"] == ["loans"]


def test_a_vector_of_the_wrong_size_is_refused_before_anything_is_sent():
    transport = answering((200, {"value": []}, {}))
    adapter = SearchAdapter(settings(), transport=transport)
    doc = Document(id="D", title="t")
    with pytest.raises(ConfigError, match="4"):
        adapter.upload_chunks(doc, [Chunk(id="D#0", doc_id="D", ordinal=0, text="x")], {"D#0": [1.0, 2.0]})
    assert transport.requests == []


def test_rejected_records_are_a_store_error():
    transport = answering(
        (
            207,
            {
                "value": [
                    {"key": "a", "status": False, "errorMessage": "Document is too large", "statusCode": 400}
                ]
            },
            {},
        )
    )
    adapter = SearchAdapter(settings(), transport=transport)
    with pytest.raises(StoreError, match="1 of 1 records rejected"):
        adapter.write([{"@search.action": "mergeOrUpload", "key": "a", "chunk_id": "a"}], [], [])


HITS = {
    "value": [
        {
            "@search.score": 0.04,
            "chunk_id": "A#0",
            "doc_id": "A",
            "title": "A",
            "kind": "policy",
            "heading": "",
            "text": "roof inspection",
            "effective_from": "2025-06-01T00:00:00Z",
            "effective_to": None,
        },
        {
            "@search.score": 0.02,
            "chunk_id": "B#0",
            "doc_id": "B",
            "title": "B",
            "kind": "policy",
            "heading": "",
            "text": "roof",
            "effective_from": None,
            "effective_to": None,
        },
    ]
}


def test_hybrid_query_with_validity_and_kind_filters_as_documented():
    transport = answering((200, HITS, {}))
    adapter = SearchAdapter(settings(), transport=transport)
    hits = adapter.search_evidence(
        EvidenceQuery(
            "What is the roof inspection threshold?",
            top_k=5,
            as_of=date(2026, 2, 20),
            kinds=("guideline", "o'brien"),
            vector=[1.0, 0.0, 0.0, 0.0],
        )
    )
    (request,) = transport.requests
    assert request.method == "POST"
    assert request.path == "/indexes('groundgate-evidence')/docs/search.post.search"
    assert request.params == {"api-version": "2024-07-01"}
    assert request.body == {
        "search": '"roof" "inspection" "threshold"',
        "searchMode": "any",
        "scoringProfile": "groundgate-fields",
        "select": "chunk_id,doc_id,title,kind,heading,text,effective_from,effective_to",
        "top": 5,
        "filter": "(effective_from eq null or effective_from le 2026-02-20T00:00:00Z) and "
        "(effective_to eq null or effective_to gt 2026-02-20T00:00:00Z) and "
        "(published_at eq null or published_at le 2026-02-20T00:00:00Z) and "
        "(kind eq 'guideline' or kind eq 'o''brien')",
        "vectorQueries": [{"kind": "vector", "vector": [1.0, 0.0, 0.0, 0.0], "fields": "vector", "k": 20}],
    }
    assert [h.doc_id for h in hits] == ["A", "B"]
    assert [h.score for h in hits] == [1.0, 0.5]
    assert hits[0].validity.valid_from == date(2025, 6, 1) and hits[0].coverage == pytest.approx(
        2 / 3, abs=1e-3
    )


def test_semantic_reranking_when_configured_ranks_by_the_reranker_score():
    reranked = {
        "value": [
            dict(HITS["value"][0], **{"@search.rerankerScore": 1.0}),
            dict(HITS["value"][1], **{"@search.rerankerScore": 3.0}),
        ]
    }
    transport = answering((200, reranked, {}))
    adapter = SearchAdapter(settings(semantic_configuration="groundgate-semantic"), transport=transport)
    hits = adapter.search_evidence(EvidenceQuery("roof inspection"))
    body = transport.requests[0].body
    assert body["queryType"] == "semantic" and body["semanticConfiguration"] == "groundgate-semantic"
    assert "vectorQueries" not in body and "filter" not in body
    assert [(h.doc_id, h.score) for h in hits] == [("B", 1.0), ("A", 0.3333)]


def test_question_text_never_reaches_the_query_syntax_as_operators():
    transport = answering((200, {"value": []}, {}))
    adapter = SearchAdapter(settings(), transport=transport)
    assert adapter.search_evidence(EvidenceQuery('roof" OR (fee) -loan* AND /x/ ~2 ^3')) == []
    # Content terms only, each a quoted phrase: OR/AND/-/*/~/^ and brackets are gone.
    assert transport.requests[0].body["search"] == '"roof" "fee" "loan" "2" "3"'


def test_nothing_to_search_for_sends_nothing():
    transport = answering((200, {"value": []}, {}))
    assert SearchAdapter(settings(), transport=transport).search_evidence(EvidenceQuery("the of and")) == []
    assert transport.requests == []


def test_throttling_is_retried_honouring_retry_after():
    transport = answering(
        (429, {"error": {"message": "throttled"}}, {"Retry-After": "2"}),
        (503, {"error": {"message": "busy"}}, {"retry-after-ms": "1500"}),
        (200, HITS, {}),
    )
    hits = SearchAdapter(settings(), transport=transport).search_evidence(EvidenceQuery("roof"))
    assert [h.doc_id for h in hits] == ["A", "B"]
    assert len(transport.requests) == 3
    assert transport.slept == [2.0, 1.5]  # what the service asked, not the backoff formula


def test_a_service_that_stays_unavailable_is_a_store_error_after_bounded_retries():
    transport = answering((503, {"error": {"message": "down"}}, {}))
    with pytest.raises(StoreError, match="AI Search"):
        SearchAdapter(settings(), transport=transport).search_evidence(EvidenceQuery("roof"))
    assert len(transport.requests) == 3  # RetrySettings.attempts
    assert all(wait <= 8.0 for wait in transport.slept)


def test_knowledge_search_normalises_scores_and_reads_the_entity_back():
    entity = Entity(id="rule:late-fee", kind="rule", name="Late fee", aliases=("overdue fee",))
    body = {
        "value": [
            {"@search.score": 4.0, "entity_id": entity.id, "entity_json": entity.model_dump_json()},
            {
                "@search.score": 1.0,
                "entity_id": "x",
                "entity_json": Entity(id="x", kind="k", name="X").model_dump_json(),
            },
        ]
    }
    transport = answering((200, body, {}))
    query = KnowledgeQuery("overdue fee", kinds=("rule",))
    hits = SearchAdapter(settings(), transport=transport).search_knowledge(query)
    request = transport.requests[0]
    assert request.path == "/indexes('groundgate-knowledge')/docs/search.post.search"
    assert request.body["filter"] == "(kind eq 'rule')" and request.body["search"] == '"overdue" "fee"'
    assert hits[0].entity == entity and [h.score for h in hits] == [1.0, 0.25]

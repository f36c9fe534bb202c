"""The Cosmos NoSQL adapter on the local emulator: parameterised queries only, and 429/503
retried with backoff honouring x-ms-retry-after-ms, with faults injected through the SDK's
transport in front of the real server."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from azure.core.exceptions import ServiceResponseError
from azure.core.pipeline.transport import RequestsTransport
from conftest import FAST_RETRY, local_env, require

from groundgate.errors import StoreError
from groundgate.knowledge.azure import AzureSettings
from groundgate.knowledge.azure.cosmos import CosmosRecords, cosmos_id
from groundgate.knowledge.model import Entity
from groundgate.testing.azure.transports import Fault, FaultTransport


@pytest.fixture
def cosmos():
    url = require("cosmos")
    env = local_env()
    settings = AzureSettings(
        search_endpoint="https://unused",
        gremlin_url="ws://unused",
        cosmos_endpoint=url,
        cosmos_key=env["GROUNDGATE_AZURE_COSMOS_KEY"],
        cosmos_ca_file=Path(env["GROUNDGATE_AZURE_COSMOS_CA_FILE"]),
        cosmos_database=f"test-{uuid.uuid4().hex[:12]}",
        retry=FAST_RETRY,
    )
    transport = FaultTransport(RequestsTransport(), [])
    waits: list[float] = []
    records = CosmosRecords(settings, transport=transport, sleep=waits.append)
    records.provision()
    records.waits = waits  # type: ignore[attr-defined]
    yield records, transport
    transport.faults.clear()
    records.drop_database()
    records.close()


def _is_query(seen) -> bool:
    return seen.method == "POST" and seen.headers.get("x-ms-documentdb-isquery", "").lower() == "true"


ENTITY = Entity(id="rule:late/fee?#1", kind="rule", name="Late fee", aliases=("overdue fee",))


def _write(records):
    records.upsert(
        "entities",
        [
            {
                "id": cosmos_id(ENTITY.id),
                "entity_id": ENTITY.id,
                "entity": ENTITY.model_dump(mode="json"),
                "hash": "h",
                "names": [],
            }
        ],
        "write",
    )


def test_reads_are_parameterised_queries_with_values_only_in_parameters(cosmos):
    records, transport = cosmos
    _write(records)
    hostile = "x' OR 1=1 --"
    assert records.entity(ENTITY.id) == ENTITY
    assert records.entity(hostile) is None
    queries = [r for r in transport.requests if _is_query(r)]
    assert queries
    for request in queries:
        sql = request.body["query"]
        assert "@" in sql and hostile not in sql and ENTITY.id not in sql
    assert {"name": "@id", "value": cosmos_id(hostile)} in queries[-1].body["parameters"]


def test_ids_with_characters_cosmos_forbids_round_trip():
    assert cosmos_id("a/b\\c?d#e%f") == "a%2Fb%5Cc%3Fd%23e%25f"


def test_throttling_is_retried_honouring_retry_after(cosmos):
    records, transport = cosmos
    _write(records)
    transport.faults += [
        Fault(429, {"x-ms-retry-after-ms": "300", "x-ms-substatus": "3200"}, match=_is_query)
        for _ in range(2)
    ]
    assert records.entity(ENTITY.id) == ENTITY
    assert len(transport.faulted) == 2
    assert records.waits == [0.3, 0.3]  # what the service asked (the SDK's own throttle retries are off)


def test_unavailability_is_retried(cosmos):
    records, transport = cosmos
    _write(records)
    transport.faults += [Fault(503, {"x-ms-retry-after-ms": "200"}, match=_is_query) for _ in range(2)]
    assert records.entity(ENTITY.id) == ENTITY
    assert len(transport.faulted) == 2


def test_writes_are_retried_too(cosmos):
    records, transport = cosmos
    transport.faults.append(
        Fault(429, {"x-ms-retry-after-ms": "50"}, match=lambda r: r.method == "POST" and not _is_query(r))
    )
    _write(records)
    assert records.waits == [0.05]
    assert records.entity(ENTITY.id) == ENTITY


def test_a_server_that_keeps_throttling_is_a_store_error_after_bounded_attempts(cosmos):
    records, transport = cosmos
    transport.faults += [Fault(429, {"x-ms-retry-after-ms": "10000"}, match=_is_query) for _ in range(5)]
    with pytest.raises(StoreError, match="status 429 after 3 attempts"):
        records.entity(ENTITY.id)
    assert records.waits == [FAST_RETRY.max_delay_s] * 2  # a long retry-after is capped


def test_a_timeout_is_a_store_error_not_a_crash(cosmos):
    records, transport = cosmos
    transport.faults += [
        Fault(raise_error=ServiceResponseError("read timed out"), match=_is_query) for _ in range(20)
    ]
    with pytest.raises(StoreError, match="Cosmos DB: read an entity failed"):
        records.entity(ENTITY.id)
    assert len(transport.faulted) < 20  # bounded: the SDK retried a little, then it surfaced

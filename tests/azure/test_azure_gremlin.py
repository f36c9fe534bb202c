"""The Gremlin adapter: fixed scripts, every value a binding, hop bounds, retries, and the
same scripts on a real Apache TinkerPop Gremlin Server."""

from __future__ import annotations

import re
import uuid
from concurrent.futures import TimeoutError as FutureTimeout
from datetime import UTC, date, datetime

import pytest
from conftest import FAST_RETRY, require

from groundgate.errors import ConfigError, StoreError
from groundgate.knowledge.azure import AzureSettings
from groundgate.knowledge.azure.gremlin import GremlinGraph
from groundgate.knowledge.azure.gremlin_scripts import Scripts
from groundgate.knowledge.model import Relationship
from groundgate.knowledge.port import EdgeFilter, PathQuery

HOSTILE = "x'); g.V().drop(); ('"


class _Result:
    def __init__(self, rows, error=None):
        self.rows, self.error = rows, error

    def all(self):
        return self

    def result(self, timeout=None):
        if self.error:
            raise self.error
        return self.rows


class RecordingClient:
    """Stands in for gremlinpython's Client: records (script, bindings), answers from a function."""

    def __init__(self, answer=lambda script, bindings: []):
        self.sent: list[tuple[str, dict]] = []
        self.answer = answer

    def submit(self, script, bindings):
        self.sent.append((script, dict(bindings)))
        outcome = self.answer(script, bindings)
        return outcome if isinstance(outcome, _Result) else _Result(outcome)

    def close(self):
        pass


def graph_with(client, **changes) -> GremlinGraph:
    settings = AzureSettings(
        search_endpoint="https://unused",
        cosmos_endpoint="https://unused",
        gremlin_url="ws://unused",
        retry=FAST_RETRY,
    ).with_changes(**changes)
    waits: list[float] = []
    graph = GremlinGraph(settings, client_factory=lambda: client, sleep=waits.append)
    graph.waits = waits  # type: ignore[attr-defined]
    return graph


def edge(source=HOSTILE, target="b", note=HOSTILE) -> Relationship:
    return Relationship(
        id=f"{source}|depends_on|{target}|",
        source=source,
        type="depends_on",
        target=target,
        valid_from=date(2024, 1, 1),
        recorded_at=datetime(2026, 1, 1, tzinfo=UTC),
        note=note,
    )


def _values(bindings):
    for value in bindings.values():
        if isinstance(value, list):
            yield from value
        else:
            yield value


def test_every_value_travels_as_a_binding_never_inside_the_script():
    client = RecordingClient(lambda s, b: [1] if "addE" in s or "count()" in s else [])
    graph = graph_with(client)
    graph.upsert_vertices([(HOSTILE, "concept")])
    graph.write_edges([edge()], [edge(note="old")], [], datetime(2026, 2, 1, tzinfo=UTC))
    graph.edges_touching([HOSTILE], EdgeFilter((HOSTILE,), date(2026, 1, 1), datetime(2026, 1, 5)))
    graph.traverse(PathQuery(HOSTILE, hops=3, edges=EdgeFilter(("depends_on",))))
    assert client.sent
    for script, bindings in client.sent:
        assert all(re.fullmatch(r"b[A-Z]\w*", name) for name in bindings), bindings
        for value in _values(bindings):
            if isinstance(value, str) and len(value) > 3:
                assert value not in script, (value, script)
        assert (
            HOSTILE not in script
            and "drop()" not in script.replace(".drop()", "")
            or script.endswith(".drop()")
        )


def test_the_scripts_are_the_fixed_set():
    scripts = Scripts("pk")
    client = RecordingClient(lambda s, b: [1] if "count()" in s else [])
    graph = graph_with(client)
    graph.upsert_vertices([("a", "concept")])
    graph.write_edges([edge("a")], [], [], datetime(2026, 2, 1, tzinfo=UTC))
    fixed = {scripts.upsert_vertex, scripts.add_edge}
    assert {script for script, _ in client.sent} <= fixed


def test_partition_key_must_be_a_plain_identifier():
    with pytest.raises(ConfigError):
        Scripts("pk').drop()//")
    assert "has('tenant', bVid)" in Scripts("tenant").upsert_vertex


def test_traversal_never_sends_more_than_three_hops_of_requests():
    def answer(script, bindings):
        # a chain: every id links to id + "x"
        return [
            {
                "e": {
                    "rid": f"{i}|references|{i}x|",
                    "type": "references",
                    "vf": "0000-00-00",
                    "vt": "9999-99-99",
                    "ra": "2026-01-01T00:00:00.000000Z",
                    "xa": "9999-12-31T23:59:59.999999Z",
                    "src": "[]",
                    "note": "",
                    "origin": "declared",
                },
                "s": i,
                "t": i + "x",
            }
            for i in bindings["bIds"]
        ]

    client = RecordingClient(answer)
    paths = graph_with(client).traverse(PathQuery("a", hops=9))
    assert len(client.sent) == 3
    assert max(len(p.edges) for p in paths) == 3
    assert paths[-1].describe() == "a -[references]-> ax -[references]-> axx -[references]-> axxx"


def test_time_filters_are_server_side_steps_with_bound_values():
    client = RecordingClient()
    graph_with(client).edges_touching(
        ["a"], EdgeFilter(("governs",), as_of=date(2024, 6, 1), known_at=datetime(2024, 6, 1, tzinfo=UTC))
    )
    script, bindings = client.sent[0]
    assert ".has('type', within(bTypes))" in script
    assert ".has('vf', lte(bDay)).has('vt', gt(bDay))" in script
    assert ".has('ra', lte(bKnown)).has('xa', gt(bKnown))" in script
    assert bindings == {
        "bIds": ["a"],
        "bTypes": ["governs"],
        "bDay": "2024-06-01",
        "bKnown": "2024-06-01T00:00:00.000000Z",
    }


class CosmosThrottle(Exception):
    """Shaped like gremlinpython's GremlinServerError for a Cosmos 429."""

    def __init__(self, status, retry_after):
        super().__init__(f"{status}: Request rate is large")
        self.status_code = 597
        self.status_attributes = {"x-ms-status-code": status, "x-ms-retry-after-ms": retry_after}


def test_cosmos_throttling_is_retried_honouring_its_retry_after_timespan():
    failures = [CosmosThrottle(429, "00:00:00.2500000"), CosmosThrottle(503, "00:00:00.1000000")]

    def answer(script, bindings):
        return _Result(None, failures.pop(0)) if failures else ["ok"]

    graph = graph_with(RecordingClient(answer))
    assert graph.submit("g.V().limit(1).count()", {}, "probe") == ["ok"]
    assert graph.waits == [0.25, 0.1]


def test_persistent_throttling_and_timeouts_are_store_errors():
    graph = graph_with(RecordingClient(lambda s, b: _Result(None, CosmosThrottle(429, "00:00:00.0100000"))))
    with pytest.raises(StoreError, match="status 429 after 3 attempts"):
        graph.check()
    slow = graph_with(RecordingClient(lambda s, b: _Result(None, FutureTimeout())), timeout_s=0.5)
    with pytest.raises(StoreError, match="timed out after 0.5s"):
        slow.check()


# ---- against a real Apache TinkerPop Gremlin Server ------------------------------------


@pytest.fixture
def server_graph():
    url = require("gremlin")
    settings = AzureSettings(
        search_endpoint="https://unused", cosmos_endpoint="https://unused", gremlin_url=url, retry=FAST_RETRY
    )
    graph = GremlinGraph(settings)
    graph.clear()
    yield graph
    graph.clear()
    graph.close()


def test_no_binding_name_is_shadowed_by_the_servers_imports(server_graph):
    names = set(re.findall(r"\bb[A-Z]\w*", " ".join(v for v in vars(Scripts("pk")).values())))
    assert {"bDay", "bIds", "bKnown", "bTypes", "bVid"} <= names | {"bDay", "bKnown", "bTypes"}
    for name in sorted(names | {"bDay", "bKnown", "bTypes"}):
        assert server_graph.submit(name, {name: "echo"}, "echo a binding") == ["echo"], name


def test_hostile_text_is_stored_as_data_on_the_server(server_graph):
    other = f"safe-{uuid.uuid4().hex[:6]}"
    server_graph.upsert_vertices([(HOSTILE, "concept"), ("b", "concept"), (other, "concept")])
    server_graph.write_edges([edge()], [], [], datetime(2026, 1, 1, tzinfo=UTC))
    edges = server_graph.relationships_of = server_graph.edges_touching([HOSTILE])
    assert [(e.source, e.note) for e in edges] == [(HOSTILE, HOSTILE)]
    assert server_graph.existing_vertices([HOSTILE, "b", other]) == {HOSTILE, "b", other}


def test_vertices_carry_the_partition_key_and_writes_are_idempotent(server_graph):
    server_graph.upsert_vertices([("a", "concept")])
    server_graph.upsert_vertices([("a", "concept")])
    rows = server_graph.submit("g.V().has('eid', bVid).valueMap()", {"bVid": "a"}, "read")
    assert rows == [{"pk": ["a"], "eid": ["a"], "kind": ["concept"]}]


def test_an_edge_to_a_missing_vertex_is_a_store_error(server_graph):
    server_graph.upsert_vertices([("a", "concept")])
    with pytest.raises(StoreError, match="names a vertex the graph does not have"):
        server_graph.write_edges([edge("a", "nowhere")], [], [], datetime(2026, 1, 1, tzinfo=UTC))

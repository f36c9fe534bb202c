"""The two knowledge ports: the tools need only the read port, and what every backend
shares (bounds, the register filter, traversal) is written once, in ``ReadFacade``."""

from __future__ import annotations

import ast
from datetime import UTC, datetime
from pathlib import Path

from groundgate.knowledge.facade import ReadFacade
from groundgate.knowledge.model import (
    Contradiction,
    Document,
    Entity,
    EvidenceHit,
    KnowledgeHit,
    Position,
    Relationship,
    ResolutionDecision,
)
from groundgate.knowledge.port import (
    MAX_HOPS,
    MAX_TOP_K,
    EdgeFilter,
    EvidenceQuery,
    KnowledgeQuery,
    KnowledgeStore,
    KnowledgeWriter,
)
from groundgate.knowledge.traversal import walk
from groundgate.tools.base import ToolDeps
from groundgate.tools.registry import execute

PACKAGE = Path(__file__).resolve().parents[2] / "groundgate"
RECORDED = datetime(2026, 1, 1, tzinfo=UTC)


def _edge(source: str, type_: str, target: str) -> Relationship:
    return Relationship(
        id=f"{source}|{type_}|{target}", source=source, type=type_, target=target,
        recorded_at=RECORDED, source_ids=(f"DOC-{source}",),
    )


class TinyStore(ReadFacade):
    """A read-only backend in a few lines: dictionaries, no ``apply``, no SQL."""

    def __init__(self) -> None:
        self.entities = {
            e.id: e
            for e in (
                Entity(id="POL-1", kind="policy", name="Harbour Home", aliases=("HH",)),
                Entity(id="RULE-1", kind="rule", name="Escape of water excess"),
                Entity(id="CLAUSE-1", kind="clause", name="Excess clause"),
            )
        }
        self.edges = [_edge("POL-1", "governs", "RULE-1"), _edge("RULE-1", "applies_to", "CLAUSE-1")]
        wording = Document(id="DOC-POL-1", title="Harbour Home wording", body="The excess.")
        self.documents = {wording.id: wording}
        self.register = [
            Contradiction(
                id="C-1", topic="escape of water excess", entity_ids=("RULE-1",),
                positions=(Position(statement="GBP 500", source_ids=("DOC-POL-1",)),
                           Position(statement="GBP 250", source_ids=("DOC-RULE-1",))),
            )
        ]
        self.asked: list[EvidenceQuery | KnowledgeQuery] = []

    def _search_evidence(self, query: EvidenceQuery) -> list[EvidenceHit]:
        self.asked.append(query)
        return []

    def _search_knowledge(self, query: KnowledgeQuery) -> list[KnowledgeHit]:
        self.asked.append(query)
        return []

    def _relationships(self, entity_id: str, edges: EdgeFilter) -> list[Relationship]:
        return [
            e for e in self.edges
            if entity_id in (e.source, e.target) and (not edges.types or e.type in edges.types)
        ]

    def _contradictions(self, status: str | None) -> list[Contradiction]:
        return [c for c in self.register if status is None or c.status == status]

    def get_entity(self, entity_id: str) -> Entity | None:
        return self.entities.get(entity_id)

    def get_document(self, doc_id: str) -> Document | None:
        return self.documents.get(doc_id)

    def find_entities(self, name: str) -> list[Entity]:
        wanted = name.lower()
        return [
            e for e in self.entities.values()
            if wanted in {e.id.lower(), e.name.lower(), *map(str.lower, e.aliases)}
        ]

    def all_entities(self) -> list[Entity]:
        return list(self.entities.values())

    def documents_about(self, entity_id: str) -> list[Document]:
        return []

    def resolution_log(self) -> list[ResolutionDecision]:
        return []


def test_a_read_only_backend_runs_the_tools_and_is_no_writer():
    store = TinyStore()
    assert isinstance(store, KnowledgeStore) and not isinstance(store, KnowledgeWriter)
    deps = ToolDeps(store=store)

    walked = execute("traverse", {"entity_id": "POL-1", "hops": 2}, deps)
    assert walked.error is None
    assert [" ".join(r.path) for r in walked.results] == [
        "POL-1 -[governs]-> RULE-1",
        "POL-1 -[governs]-> RULE-1 -[applies_to]-> CLAUSE-1",
    ]
    assert walked.source_ids == ("DOC-POL-1", "DOC-RULE-1")

    resolved = execute("resolve_entity", {"mention": "HH"}, deps)
    assert [r.id for r in resolved.results] == ["POL-1"]

    register = execute("list_contradictions", {"entity_ids": ["RULE-1"]}, deps)
    assert [r.id for r in register.results] == ["C-1"]
    assert execute("list_contradictions", {"topic": "water excess"}, deps).results[0].id == "C-1"
    assert execute("list_contradictions", {"entity_ids": ["POL-1"]}, deps).results == ()

    source = execute("get_source", {"source_id": "DOC-POL-1#0"}, deps)
    assert source.results[0].snippet == "The excess."

    nothing = execute("search_evidence", {"query": "escape of water"}, deps)
    assert nothing.error is None and nothing.insufficient


def test_the_facade_holds_every_backend_to_the_same_bounds():
    store = TinyStore()
    store.search_evidence("water", top_k=10_000, kinds=["wording"])
    store.search_knowledge("water", top_k=0)
    assert store.asked == [
        EvidenceQuery("water", top_k=MAX_TOP_K, kinds=("wording",)),
        KnowledgeQuery("water", top_k=1),
    ]
    chain = [_edge(f"N{i}", "references", f"N{i + 1}") for i in range(8)]
    store.edges = chain
    paths = store.traverse("N0", hops=9)
    assert max(len(p.edges) for p in paths) == MAX_HOPS
    assert store.traverse("N0", hops=3, types=["governs"]) == []


def test_walking_a_hop_at_a_time_finds_the_paths_one_node_at_a_time_does():
    edges = {
        "a": [("a", "b"), ("a", "c")],
        "b": [("a", "b"), ("b", "c"), ("b", "d")],
        "c": [("a", "c"), ("b", "c"), ("c", "d")],
        "d": [("b", "d"), ("c", "d")],
    }
    asked: list[list[str]] = []

    def edges_of(nodes):
        asked.append(list(nodes))
        return {n: edges[n] for n in nodes}

    def run(per_hop: bool, limit: int = 50):
        return walk(
            "a", hops=3, limit=limit, edges_of=edges_of, per_hop=per_hop,
            other_end=lambda e, tail: e[1] if e[0] == tail else e[0],
            as_relationship=lambda e: _edge(e[0], "references", e[1]),
        )

    one_at_a_time = run(per_hop=False)
    assert asked == [["a"], ["b"], ["c"], ["d"]]
    asked.clear()
    assert run(per_hop=True) == one_at_a_time
    assert asked == [["a"], ["b", "c"], ["d"]]
    asked.clear()
    assert run(per_hop=True, limit=3) == one_at_a_time[:3]


WRITE_PORT = {"KnowledgeWriter", "StreamingWriter", "WritableStore", "IngestBatch", "WriteReport"}


def test_tools_policies_nodes_and_lanes_name_only_the_read_port():
    named = []
    for folder in ("tools", "policies", "nodes", "pipeline"):
        for path in sorted((PACKAGE / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                where = path.relative_to(PACKAGE)
                if isinstance(node, ast.ImportFrom) and node.module == "groundgate.knowledge.port":
                    named += [f"{where}: {a.name}" for a in node.names if a.name in WRITE_PORT]
                elif isinstance(node, ast.Attribute) and node.attr in WRITE_PORT:
                    named.append(f"{where}: {node.attr}")
    assert named == []

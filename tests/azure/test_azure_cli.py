"""The walkthrough a new user does, over HTTP to the local servers: provision, ingest the
bundled corpus with `--backend azure`, ask the roof-threshold question; the answer and the
trace shape match the embedded backend's."""

from __future__ import annotations

import json
import re
import uuid

from conftest import local_env, require
from typer.testing import CliRunner

from groundgate.cli import app
from groundgate.graph.build import build_agent
from groundgate.knowledge.azure import AzureSettings
from groundgate.knowledge.azure.gremlin import GremlinGraph
from groundgate.models.offline import OfflinePlanner

QUESTION = (
    "Did the roof inspection threshold in force on the date of loss for claim CLM-1108 require an "
    "inspection, and does the March 2026 H3 rule apply to it?"
)


def _shape(steps):
    """The tool sequence. Arguments are not compared: AI Search ranks differently from SQLite's
    BM25, so a follow-up query the planner builds from the first results may differ in a word."""
    return [s["tool"] for s in steps if s["kind"] == "tool"]


def _decision(answer_text: str, citations: list[dict], **fields) -> dict:
    """What must match across backends: the outcome, the sources cited, and the lines built from
    the graph (rule in force, superseded). Which sentence of a cited source the answer quotes
    follows the search ranking, and AI Search ranks differently from SQLite's BM25."""
    sentences = re.split(r"(?<=\])\s+", answer_text)
    graph_lines = [s for s in sentences if s.startswith(("On ", "From ", "Superseded:"))]
    return {
        "lead": sentences[0],
        "graph_lines": graph_lines,
        "sources": sorted({c["source_id"] for c in citations}),
        **fields,
    }


def _payload_decision(payload: dict) -> dict:
    return _decision(
        payload["answer"],
        payload["citations"],
        answered=payload["answered"],
        contested=payload["contested"],
        insufficient=payload["insufficient"],
        lane=payload["lane"],
    )


def test_provision_ingest_and_ask_over_azure_match_the_embedded_backend(bundled_store, monkeypatch):
    for service in ("gremlin", "cosmos", "search"):
        require(service)
    env = {k: v for k, v in local_env().items()}
    suffix = uuid.uuid4().hex[:10]
    env["GROUNDGATE_AZURE_COSMOS_DATABASE"] = f"cli-{suffix}"
    env["GROUNDGATE_AZURE_SEARCH_INDEX_PREFIX"] = f"cli-{suffix}"
    for name in ("GROUNDGATE_EMBEDDER", "GROUNDGATE_MODEL", "GROUNDGATE_AZURE_VECTOR_DIMENSIONS"):
        monkeypatch.delenv(name, raising=False)
    graph = GremlinGraph(AzureSettings.from_env(env))
    graph.clear()
    runner = CliRunner()
    try:
        provisioned = runner.invoke(app, ["azure", "provision"], env=env)
        assert provisioned.exit_code == 0, provisioned.output
        assert f"index cli-{suffix}-evidence" in provisioned.output
        assert "container names (partition key /name)" in provisioned.output

        ingested = runner.invoke(app, ["ingest", "--backend", "azure"], env=env)
        assert ingested.exit_code == 0, ingested.output
        assert "documents      30 (30 written, 0 unchanged)" in ingested.output
        again = runner.invoke(app, ["ingest", "--backend", "azure"], env=env)
        assert "documents      30 (0 written, 30 unchanged)" in again.output, again.output
        assert "(0 written, 0 retired)" in again.output, again.output

        asked = runner.invoke(app, ["azure", "ask", QUESTION, "--mode", "agent", "--json"], env=env)
        assert asked.exit_code == 0, asked.output
        azure = json.loads(asked.output)
        # `azure ask` is `ask --backend azure`, in agent and in auto mode
        main_agent = runner.invoke(
            app, ["ask", QUESTION, "--backend", "azure", "--mode", "agent", "--json"], env=env
        )
        assert main_agent.exit_code == 0, main_agent.output
        assert json.loads(main_agent.output)["answer"] == azure["answer"]
        main_auto = runner.invoke(app, ["ask", QUESTION, "--backend", "azure", "--json"], env=env)
        assert main_auto.exit_code == 0, main_auto.output
        routed = json.loads(main_auto.output)
        alias_auto = runner.invoke(app, ["azure", "ask", QUESTION, "--json"], env=env)
        assert json.loads(alias_auto.output)["answer"] == routed["answer"]
        embedded_auto = runner.invoke(app, ["ask", QUESTION, "--store", str(bundled_store.path), "--json"])
        assert _payload_decision(routed) == _payload_decision(json.loads(embedded_auto.output))
    finally:
        graph.clear()
        graph.close()
        from groundgate.knowledge.azure.cosmos import CosmosRecords

        records = CosmosRecords(AzureSettings.from_env(env))
        records.drop_database()
        records.close()

    embedded = build_agent(bundled_store, OfflinePlanner()).invoke({"question": QUESTION, "as_of": None})
    assert _decision(azure["answer"], azure["citations"]) == _decision(
        embedded["answer"]["text"], embedded["answer"]["citations"]
    )
    assert _shape(azure["trace"]["steps"]) == _shape(embedded["trace"]["steps"])
    assert all(not s.get("error") for s in azure["trace"]["steps"])


def test_ingest_rejects_an_unknown_backend_and_names_the_azure_variables(monkeypatch):
    runner = CliRunner()
    result = runner.invoke(app, ["ingest", "--backend", "cloud"])
    assert result.exit_code == 2 and "--backend must be embedded or azure" in result.output
    for name in (
        "GROUNDGATE_AZURE_SEARCH_ENDPOINT",
        "GROUNDGATE_AZURE_COSMOS_ENDPOINT",
        "GROUNDGATE_AZURE_GREMLIN_URL",
    ):
        monkeypatch.delenv(name, raising=False)
    result = runner.invoke(app, ["azure", "provision"])
    assert result.exit_code == 2
    assert "GROUNDGATE_AZURE_SEARCH_ENDPOINT" in result.output and "local-backends.sh" in result.output

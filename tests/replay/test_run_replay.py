"""`ask --save-run` and `replay`: what exactly was the agent shown, and is it still so?"""

import json

import pytest
from langchain_core.messages import AIMessage
from typer.testing import CliRunner

from groundgate.ask import RunResult
from groundgate.cli import app
from groundgate.graph.build import build_agent
from groundgate.knowledge.embedded.store import SQLiteStore
from groundgate.replay import canonical_json, comparable, load_run, replay_run, run_record
from groundgate.settings import Settings
from groundgate.testing.fake import ScriptedChatModel, answer, call

runner = CliRunner()
QUESTION = "What is the standard loan period?"


pytestmark = pytest.mark.usefixtures("isolated_env")


@pytest.fixture
def store_file(tmp_path, mini_corpus):
    path = tmp_path / "library.sqlite"
    assert runner.invoke(app, ["ingest", str(mini_corpus), "--store", str(path)]).exit_code == 0
    return path


@pytest.fixture
def run_file(tmp_path, store_file):
    path = tmp_path / "run.json"
    result = runner.invoke(app, ["ask", QUESTION, "--store", str(store_file), "--save-run", str(path)])
    assert result.exit_code == 0, result.output
    return path


def test_the_run_file_is_the_json_answer_plus_what_the_model_was_shown(run_file, store_file):
    run = json.loads(run_file.read_text())
    assert "21 days" in run["answer"] and run["citations"]
    record = run["record"]
    assert record["format"] == "groundgate-run/1" and record["store"] == str(store_file.resolve())
    tool_steps = [s for s in run["trace"]["steps"] if s["kind"] == "tool"]
    assert [e["call_id"] for e in record["envelopes"]] == [s["call_id"] for s in tool_steps]
    shown = [m["data"]["content"] for m in record["messages"] if m["type"] == "tool"]
    assert len(shown) == len(tool_steps) and any("21 days" in text for text in shown)


def test_replay_on_an_unchanged_store_agrees_and_exits_zero(run_file):
    result = runner.invoke(app, ["replay", str(run_file)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("replay: same results, citations and answer (5 tool calls")


def test_three_replays_are_byte_identical_apart_from_timing(run_file, store_file):
    run = load_run(run_file)
    store = SQLiteStore.from_path(store_file, read_only=True)
    replays = [replay_run(run, store).replayed for _ in range(3)]
    store.close()
    assert len({canonical_json(r) for r in replays}) == 1
    assert canonical_json(replays[0]) == canonical_json(run), "a replay reproduces the recorded run"
    assert "ms" in run["trace"]["steps"][0] and "latency_ms" in run["usage"], "timing is recorded..."
    assert '"ms"' not in json.dumps(comparable(run)), "...and left out of the comparison"


def test_replay_through_the_cli_saves_identical_runs(run_file, tmp_path):
    outputs = []
    for i in range(3):
        target = tmp_path / f"replayed-{i}.json"
        assert runner.invoke(app, ["replay", str(run_file), "--save-run", str(target)]).exit_code == 0
        outputs.append(canonical_json(load_run(target)).encode())
    assert outputs[0] == outputs[1] == outputs[2]


def test_a_changed_document_shows_in_the_diff_and_exits_non_zero(run_file, store_file, mini_corpus):
    handbook = mini_corpus / "docs" / "handbook-v2.md"
    handbook.write_text(handbook.read_text().replace("21 days for printed", "28 days for printed"))
    assert runner.invoke(app, ["ingest", str(mini_corpus), "--store", str(store_file)]).exit_code == 0

    result = runner.invoke(app, ["replay", str(run_file)])
    assert result.exit_code == 1, result.output
    out = result.output
    assert out.startswith("replay: differs from the recording")
    assert "results:" in out and "LIB-002" in out and "2[-1-]{+8+} days" in out
    assert "-The standard loan period is 21 days" in out and "+The standard loan period is 28 days" in out

    as_json = json.loads(runner.invoke(app, ["replay", str(run_file), "--json"]).output)
    assert as_json["same"] is False and as_json["calls"] and as_json["answer"]


def test_a_removed_document_drops_its_citation_and_the_disagreement(tmp_path, mini_corpus):
    store = tmp_path / "s.sqlite"
    assert runner.invoke(app, ["ingest", str(mini_corpus), "--store", str(store)]).exit_code == 0
    run_file = tmp_path / "run.json"
    asked = runner.invoke(app, ["ask", "What is the late fee for printed books?", "--store", str(store),
                                "--save-run", str(run_file)])
    assert asked.exit_code == 0, asked.output
    run = json.loads(run_file.read_text())
    assert {c["source_id"] for c in run["citations"]} == {"LIB-003", "LIB-004"} and run["contested"]
    (mini_corpus / "docs" / "fees-faq.md").unlink()  # LIB-004, the FAQ that disagreed
    fresh = tmp_path / "fresh.sqlite"
    assert runner.invoke(app, ["ingest", str(mini_corpus), "--store", str(fresh)]).exit_code == 0

    result = runner.invoke(app, ["replay", str(run_file), "--store", str(fresh)])
    assert result.exit_code == 1, result.output
    citations = result.output.split("citations:")[1].split("answer:")[0]
    assert "- LIB-004 Member FAQ" in citations and "LIB-003" not in citations
    assert "- contested" in result.output
    assert "- LIB-004" in result.output.split("results:")[1], "the FAQ's passage left the search results"


def test_another_models_recorded_answer_is_kept_and_no_model_is_called(store_file):
    script = ScriptedChatModel(script=[
        AIMessage(content="", tool_calls=[call("search_evidence", {"query": "standard loan period"})]),
        answer("The standard loan period is 21 days for printed books. [LIB-002]"),
    ])
    store = SQLiteStore.from_path(store_file, read_only=True)
    out = build_agent(store, script).invoke(
        {"question": QUESTION}, output_keys=["answer", "trace", "envelopes", "messages"]
    )
    result = RunResult(question=QUESTION, as_of=None, mode="agent", model="openai:gpt-test",
                       answer=out["answer"], trace=out["trace"], latency_ms=1.0,
                       envelopes=tuple(out["envelopes"]), messages=tuple(out["messages"]))
    run = run_record(result, settings=Settings(store_path=store_file))
    calls_before = len(script.calls)
    replay = replay_run(run, store)
    store.close()
    assert len(script.calls) == calls_before
    assert replay.diff.same, replay.diff.lines()
    assert replay.replayed["answer"] == run["answer"]


def test_a_file_that_is_not_a_run_is_a_clear_error(tmp_path):
    bogus = tmp_path / "bogus.json"
    bogus.write_text('{"answer": "hi"}')
    result = runner.invoke(app, ["replay", str(bogus)])
    assert result.exit_code == 2 and "not a groundgate-run/1 run file" in result.output


def test_a_run_whose_store_is_gone_says_so(run_file, store_file):
    store_file.unlink()
    result = runner.invoke(app, ["replay", str(run_file)])
    assert result.exit_code == 2 and "does not exist; pass --store" in result.output

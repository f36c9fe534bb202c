"""A real open model's runs on the golden set, replayed from its cassettes with the network blocked.

The cassettes in cassettes/<model>/ (with a MODEL file naming the spec) were recorded from
Qwen2.5-Coder-1.5B-Instruct (Q4_K_M) served by `bash scripts/local-model.sh start`. They
hold what the model actually did, good or bad. The tests assert the system's guarantees
on every run, never the model's wording: citations only from what the run retrieved, the
contested points presented with their sources, no sentence in the answer that grounding
removed, no model text that no tool returned, and every recorded call replayed.

Re-record (slow: about a minute a run on 2 cores):
    bash scripts/local-model.sh start
    GROUNDGATE_CASSETTE_MODEL="$(bash scripts/local-model.sh status | sed 's/^up: //')" \
        python -m pytest tests/replay/test_real_model_cassettes.py --record-mode=rewrite
"""

import json
import os
from pathlib import Path

import pytest
import yaml

from groundgate.graph.build import build_agent
from groundgate.graph.context import Bounds
from groundgate.knowledge.default import bundled_questions
from groundgate.pipeline.router import build_router
from groundgate.testing.cassettes import cassette, model_slug, recorded_models

CASSETTES = Path(__file__).resolve().parents[2] / "cassettes"

QUESTIONS = {q["qid"]: q for q in map(json.loads, bundled_questions().read_text().splitlines())}
CASES = [
    ("C", "q01"), ("B", "q27"), ("router", "q26"), ("C", "q30"), ("B", "q33"), ("C", "q11"),
    ("C", "q25"), ("B", "q02"), ("C", "q04"), ("C", "q21"), ("router", "q31"), ("router", "q10"),
]
"""Eleven golden questions across the full agent, the search-box agent and the router: single-hop
(q01 q02 q04), multi-hop (q11), temporal (q21), contested (q25 q26 q27), unanswerable (q30 q31 q33)."""
BOUNDS = Bounds(wall_clock_s=900.0)
"""A small model on 2 cores takes minutes; a wall clock tripped while recording would not trip in replay."""
SETTINGS = {"temperature": 0.0, "timeout_s": 600.0, "max_tokens": 160}
"""Greedy decoding, so a re-recording is as close to the last one as the server allows; replies of
at most 160 tokens (grammar-constrained tool arguments run at about a token a second here, and a
small model can repeat a list item until its context is full)."""


def real_models():
    chosen = os.environ.get("GROUNDGATE_CASSETTE_MODEL")
    return [chosen] if chosen else [m for m in recorded_models(CASSETTES) if m != "offline"]


@pytest.fixture(params=real_models(), ids=model_slug)
def real_model(request):
    return request.param


@pytest.fixture
def vcr_cassette_dir(real_model):
    return str(CASSETTES / model_slug(real_model))


@pytest.fixture
def cassette_model(real_model):
    return real_model


def _build(config, store, model, name):
    if config == "router":
        return build_router(store, model, bounds=BOUNDS, model_name=name)
    tools = ["search_evidence"] if config == "B" else None
    return build_agent(store, model, bounds=BOUNDS, model_name=name, **({"tools": tools} if tools else {}))


def _retrieved(out):
    return {sid for s in out["trace"]["steps"] if s["kind"] == "tool" for sid in s.get("source_ids") or ()}


STALE: dict[tuple[str, str], str] = {}
"""Recordings made before a change that alters the requests a run makes; strict, so a
re-recording that replays again fails here until its entry is removed."""


def _cases():
    for config, qid in CASES:
        marks = [pytest.mark.xfail(reason=STALE[config, qid], strict=True)] if (config, qid) in STALE else []
        yield pytest.param(config, qid, id=f"{config}-{qid}", marks=marks)


@pytest.mark.block_network
@pytest.mark.parametrize(("config", "qid"), list(_cases()))
def test_real_model_run(config, qid, real_model, bundled_store, chat_model, record_mode, vcr_cassette_dir):
    path = Path(vcr_cassette_dir) / f"real_model_run[{config}-{qid}].yaml"
    recording = record_mode != "none"
    if not recording and not path.exists():
        pytest.fail(f"no cassette for {config}-{qid}: record it (see this module's docstring)")
    q = QUESTIONS[qid]
    graph = _build(config, bundled_store, chat_model(**SETTINGS), real_model)
    if recording:
        path.unlink(missing_ok=True)  # "all" appends to a cassette: a re-recording starts empty
    # Replay is strict: every request must match a recording and every recording must play.
    with cassette(path, record_mode="all" if recording else "none"):
        out = graph.invoke({"question": q["question"], "as_of": q["as_of"]})
    if recording:
        return  # a recording keeps what the model did; the guarantees are checked on its replay
    answer, totals = out["answer"], out["trace"]["totals"]
    assert totals["model_errors"] == 0, "every model call replayed from the cassette"
    assert totals["tool_calls"] >= 1, "no answer without retrieval"
    retrieved = _retrieved(out)
    register = {
        sid for entry in bundled_store.contradictions() for p in entry.positions for sid in p.source_ids
    }
    kept = [c for c in answer["claims"] if c["status"] != "removed"]
    for claim in kept:
        assert set(claim["citations"]) <= retrieved, f"a citation the run never retrieved: {claim}"
        assert claim["grounded_by"] != "none" or claim["status"] == "flagged"
    for point in answer["contested"]:
        assert len(point["positions"]) >= 2
        for position in point["positions"]:
            assert position["source_ids"] and set(position["source_ids"]) <= retrieved | register
    for claim in answer["claims"]:
        if claim["status"] == "removed" and len(claim["text"]) > 20:
            assert claim["text"] not in answer["text"], "a removed claim is not shown"
    if q["contested"]:
        assert answer["contested"], "the gate presents the open disagreement, whatever the model wrote"
    if not answer["answered"]:
        assert answer["insufficient"], "an unanswered question says what is missing"
    draft = answer["extras"].get("draft_text") or ""
    if answer["extras"].get("draft_source") == "model" and not answer["answered"]:
        first_line = draft.strip().splitlines()[0] if draft.strip() else ""
        if len(first_line) > 40:
            assert first_line not in answer["text"], "the model's own reason is not shown as a finding"


def _first_reply(path):
    """The model's first answered reply in a recording (a refused tool_choice is a 500 before it)."""
    for interaction in yaml.safe_load(path.read_text())["interactions"]:
        if interaction["response"]["status"]["code"] == 200:
            return json.loads(interaction["response"]["body"]["string"])["choices"][0]["message"]
    raise AssertionError(f"{path.name}: the model never answered")


@pytest.mark.parametrize("model", real_models(), ids=model_slug)
def test_most_agent_runs_have_the_model_call_a_tool_itself(model):
    """The fixed first round is a safety net, not the path: the model's first reply calls a tool.

    On llama-cpp-python, whose handler refuses tool_choice="required", that reply is the one
    asked for the first search by name: the model writes the query and the arguments.
    """
    from groundgate.models.call import tool_calls_in_text
    from groundgate.tools.registry import ALL_TOOLS

    files = sorted((CASSETTES / model_slug(model)).glob("real_model_run[[]*.yaml"))
    agent_runs = [f for f in files if "[router-" not in f.name]
    assert agent_runs, "no agent cassettes recorded"
    called = 0
    for path in agent_runs:
        message = _first_reply(path)
        text_calls = tool_calls_in_text(message.get("content") or "", ALL_TOOLS)
        called += bool(message.get("tool_calls") or text_calls)
    share = f"{called} of {len(agent_runs)} runs"
    assert called / len(agent_runs) >= 0.8, f"the model called a tool itself in {share}"

"""The model judge's recorded calls, replayed: what the gate does with a real model's verdicts.

cassettes/<model>/detector_judge[<set>-<qid>].yaml hold the local open model's replies
for the two disagreement sets, disputes and accounts, and for the non-contested questions
of every other set (bench/datasets/disputes/README.md says how to record them). Each
question with a recording runs through lane A with the judge as the gate's detector, the
network blocked: a reader change that makes a call no longer made, or a different one,
fails here rather than in `bench/contradictions_table.py`.
The tests assert the guarantees, not the model's verdicts: every call replays (none fails),
a presented disagreement shows sentences its sources hold (never the model's words), each
position from a different document, and every citation is a source the run retrieved.
"""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path

import pytest

from groundgate.eval.dataset import dataset_store, load_questions
from groundgate.models.factory import make_chat_model
from groundgate.models.offline import OfflinePlanner
from groundgate.pipeline.build import build_pipeline
from groundgate.policies.detectors.judge import JUDGE_SETTINGS, JudgeDetector
from groundgate.policies.policyset import PolicySet
from groundgate.testing.cassettes import cassette, model_slug
from groundgate.tools.steps import read_steps

ROOT = Path(__file__).resolve().parents[2]
SETS = ("disputes", "accounts", "golden", "aerosense", "careers", "council", "handbook", "isles",
        "newsroom", "riverbend")


def _folder(name: str) -> Path:
    if name == "golden":
        return ROOT / "groundgate" / "corpus" / "insurance"
    return ROOT / "bench" / "datasets" / name


JUDGE_MODEL = "compatible:http://127.0.0.1:18090/v1#qwen2.5-coder-1.5b-instruct"
FOLDER = ROOT / "cassettes" / model_slug(JUDGE_MODEL)
RECORDED = [
    (name, p.name.removeprefix(f"detector_judge[{name}-").removesuffix("].yaml"))
    for name in SETS
    for p in sorted(FOLDER.glob(f"detector_judge[[]{name}-*].yaml"))
]


@pytest.fixture(scope="module")
def judged():
    """(store, questions, graph) of each disagreement set, opened when first asked for."""
    opened: dict[str, tuple] = {}
    with ExitStack() as stack:
        def of(name: str) -> tuple:
            if name not in opened:
                store, questions_path = stack.enter_context(dataset_store(_folder(name)))
                questions = {q.qid: q for q in load_questions(questions_path, store)}
                model = make_chat_model(JUDGE_MODEL, env={}, max_retries=0, **JUDGE_SETTINGS)
                detector = JudgeDetector(model, model_name=JUDGE_MODEL)
                opened[name] = (store, questions, build_pipeline(
                    store, OfflinePlanner(), policies=PolicySet(detector=detector)))
            return opened[name]
        yield of


@pytest.mark.parametrize(("name", "prefix", "least"), [("disputes", "t", 30), ("accounts", "b", 28)])
def test_the_test_split_of_each_disagreement_set_is_recorded(name, prefix, least):
    recorded = [q for n, q in RECORDED if n == name and q.startswith(prefix)]
    assert len(recorded) >= least, "re-record: see bench/datasets/disputes/README.md"


@pytest.mark.parametrize(("name", "qid"), RECORDED, ids=[f"{n}-{q}" for n, q in RECORDED])
def test_a_judged_run_replays_and_shows_only_what_its_sources_say(name, qid, judged):
    store, questions, graph = judged(name)
    q = questions[qid]
    with cassette(FOLDER / f"detector_judge[{name}-{qid}].yaml"):  # strict: every call matches and plays
        out = graph.invoke({"question": q.question, "as_of": q.as_of.isoformat() if q.as_of else None})
    answer = out["answer"]
    assert not [n for n in answer["policy_notes"] if "model call failed" in n]
    retrieved = {sid for step in read_steps(out["trace"]["steps"]) for sid in getattr(step, "source_ids", ())}
    assert {c["source_id"] for c in answer["citations"]} <= retrieved
    for point in answer["contested"]:
        if point["status"] != "unrecorded":
            continue  # a register entry's positions are the register's words
        documents = [tuple(p["source_ids"]) for p in point["positions"]]
        assert len(set(documents)) == len(documents) >= 2, "each position from its own document"
        for position in point["positions"]:
            said = " ".join(position["statement"].split())
            bodies = [" ".join(doc.body.split()) for sid in position["source_ids"]
                      if (doc := store.get_document(sid)) is not None]
            assert any(said in body for body in bodies), f"{said!r} is not in its source"
        assert point["positions"][0]["statement"] in answer["text"]

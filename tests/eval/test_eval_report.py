"""`groundgate eval` on a small dataset written by hand: the four files and the numbers in them."""

import json
import pathlib

import pytest
from typer.testing import CliRunner

from groundgate.cli import app
from groundgate.eval import plots
from groundgate.eval.dataset import dataset_store, load_questions
from groundgate.eval.runner import evaluate
from groundgate.eval.summary import LATENCY_KEYS, summarise

runner = CliRunner()


pytestmark = pytest.mark.usefixtures("isolated_env")


def _run(folder, **kw):
    with dataset_store(folder) as (store, questions_file):
        rows = evaluate(store, load_questions(questions_file, store), **kw)
    return rows, summarise(rows, dataset=str(folder))


def _by_key(summary):
    return {r["key"]: r for r in summary["runs"]}


def test_eval_writes_four_files_with_the_expected_numbers(tiny_dataset, tmp_path):
    out = tmp_path / "report"
    result = runner.invoke(app, ["eval", "--dataset", str(tiny_dataset), "--out", str(out)])
    assert result.exit_code == 0, result.output
    written = {p.name for p in out.iterdir()}
    assert written == {"results.jsonl", "summary.json", "report.md", "report.html", "runs"}

    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert len(rows) == 3 * 8, "three questions through A, B, C and the router, policies on and off"
    t1 = next(r for r in rows if r["key"] == "A/on/offline" and r["qid"] == "t1")
    assert t1["correctness"] == 1.0 and t1["citation_recall"] == 1.0 and t1["lane"] == "pipeline"
    assert "14 days" in t1["answer"]["text"] and t1["answer"]["citations"][0]["source_id"] == "FR-001"

    runs = _by_key(json.loads((out / "summary.json").read_text()))
    gated, ungated = runs["A/on/offline"], runs["A/off/offline"]
    assert gated["contested"] == {"questions": 1, "presented_both": 1, "chose_side": 0, "declined": 0}
    assert ungated["contested"]["chose_side"] == 1, "without the gate lane A picks the FAQ's side"
    assert gated["unanswerable"] == {"questions": 1, "said_insufficient": 1, "answered_anyway": 0}
    assert runs["A/on/offline"]["tokens"] == 0 and runs["C/on/offline"]["tokens"] > 0
    assert runs["router/on/offline"]["escalated"] >= 1 and runs["A/on/offline"]["escalated"] is None

    report = (out / "report.md").read_text()
    blown = report.split("## Blown gates")[1].split("\n## ")[0]
    assert "**A/off/offline** on t2" in blown and "CTR-9: cites position 1 only" in blown
    assert "A/on/offline" not in blown, "the gated lane presented both positions"
    assert "blunt proxy" in report

    page = (out / "report.html").read_text()
    assert page.count("data:image/png;base64,") == 3 and "<script" not in page and "http" not in page
    assert "A/off/offline</strong> on t2" in page
    # every question links to its run page, which shows that run's answer and tool calls
    link = "runs/C_on_offline/t1.html"
    assert f"href='{link}'" in page
    run_page = (out / link).read_text()
    assert "14 days" in run_page and "search_evidence" in run_page and "<script" not in run_page


def test_summary_numbers_are_the_same_on_a_second_run(tiny_dataset):
    def numbers(summary):
        for run in summary["runs"]:
            for key in LATENCY_KEYS:
                run.pop(key)
        return summary

    _, first = _run(tiny_dataset, configs=["A", "C", "router"])
    _, second = _run(tiny_dataset, configs=["A", "C", "router"])
    assert numbers(first) == numbers(second)


def test_without_matplotlib_the_reports_are_written_and_say_so(tiny_dataset, tmp_path, monkeypatch):
    monkeypatch.setattr(plots, "available", lambda: False)
    out = tmp_path / "report"
    result = runner.invoke(app, ["eval", "--dataset", str(tiny_dataset), "--configs", "A", "--policies", "on",
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "plots skipped" in result.output
    assert "Plots were skipped" in (out / "report.md").read_text()
    page = (out / "report.html").read_text()
    assert "Plots were skipped" in page and "data:image/png" not in page
    assert json.loads((out / "summary.json").read_text())["runs"][0]["key"] == "A/on/offline"


def test_a_bad_question_line_names_the_file_and_line_and_nothing_is_written(tiny_dataset, tmp_path):
    questions = tiny_dataset / "questions.jsonl"
    lines = questions.read_text().splitlines()
    lines[1] = lines[1].replace('"contested": true', '"contested": "maybe"')
    questions.write_text("\n".join(lines) + "\n")
    out = tmp_path / "report"
    result = runner.invoke(app, ["eval", "--dataset", str(tiny_dataset), "--out", str(out)])
    assert result.exit_code == 2
    assert "questions.jsonl:2" in result.output and "contested" in result.output
    assert not out.exists()


LINE = ('{"qid": "x", "question": "q?", "gold_keywords": [], "expected_source_ids": [], "contested": false, '
        '"answerable": false, "category": "c", "split": "dev"')


@pytest.mark.parametrize(("line", "problem"), [
    ('{"qid": "x"', "not valid JSON"),
    (LINE.replace('"expected_source_ids": []', '"expected_source_ids": ["NOPE-1"]') + "}",
     "name no document"),
    (LINE + ', "expected_tools": ["google"]}', "unknown tools"),
    (LINE.replace("gold_keywords", "gold_keyword") + "}", "unknown field"),
    (LINE.replace('"split": "dev"', '"split": "train"') + "}", "split: Input should be 'dev' or 'test'"),
    (LINE.replace(', "split": "dev"', "") + "}", "split: Field required"),
    (LINE + ', "expected_lead": "Yes"}', "expected_lead is for an answerable"),
    (LINE.replace('"answerable": false', '"answerable": true') + ', "expected_lead": "yes"}',
     "expected_lead: Input should be 'Yes' or 'No'"),
])
def test_question_lines_are_checked(tiny_dataset, line, problem):
    questions = tiny_dataset / "questions.jsonl"
    questions.write_text(questions.read_text() + line + "\n")
    result = runner.invoke(app, ["eval", "--dataset", str(tiny_dataset), "--configs", "A"])
    assert result.exit_code == 2
    assert "questions.jsonl:4" in result.output and problem in result.output


def test_split_evaluates_only_that_half(tiny_dataset, tmp_path):
    out = tmp_path / "report"
    result = runner.invoke(app, ["eval", "--dataset", str(tiny_dataset), "--configs", "A", "--policies", "on",
                                 "--split", "test", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "evaluated 2 questions" in result.output
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert [(r["qid"], r["split"]) for r in rows] == [("t2", "test"), ("t3", "test")]
    assert json.loads((out / "summary.json").read_text())["dataset"].endswith("test split")
    result = runner.invoke(app, ["eval", "--dataset", str(tiny_dataset), "--configs", "A", "--policies", "on",
                                 "--split", "DEV", "--out", str(out)])
    assert result.exit_code == 0 and "evaluated 1 questions" in result.output


def test_every_question_is_evaluated_by_default(tiny_dataset, tmp_path):
    out = tmp_path / "report"
    result = runner.invoke(app, ["eval", "--dataset", str(tiny_dataset), "--configs", "A", "--policies", "on",
                                 "--out", str(out)])
    assert result.exit_code == 0 and "evaluated 3 questions" in result.output


def test_an_unknown_or_empty_split_is_a_clear_error(tiny_dataset, tmp_path):
    result = runner.invoke(app, ["eval", "--dataset", str(tiny_dataset), "--split", "train"])
    assert result.exit_code == 2 and "--split: unknown value 'train'" in result.output
    questions = tiny_dataset / "questions.jsonl"
    questions.write_text(questions.read_text().replace('"split": "dev"', '"split": "test"'))
    result = runner.invoke(app, ["eval", "--dataset", str(tiny_dataset), "--split", "dev",
                                 "--out", str(tmp_path / "report")])
    assert result.exit_code == 2 and "no question is in the dev split" in result.output
    assert not (tmp_path / "report").exists()


def test_unknown_configuration_is_a_clear_error(tiny_dataset):
    result = runner.invoke(app, ["eval", "--dataset", str(tiny_dataset), "--configs", "A,Z"])
    assert result.exit_code == 2 and "unknown value 'Z'" in result.output


BENCH = pathlib.Path(__file__).parents[2] / "bench" / "datasets"


@pytest.mark.parametrize(("name", "documents", "questions"), [
    ("riverbend", 16, 20), ("careers", 14, 20), ("isles", 21, 20),
    ("handbook", 22, 80), ("aerosense", 19, 82), ("council", 22, 99), ("newsroom", 30, 87),
    ("orchestra", 35, 78),
])
def test_the_bench_datasets_are_well_formed(name, documents, questions):
    """bench/datasets/* are read as `groundgate eval --dataset` reads them, and their labels hold.

    Every keyword group has an alternative in the text of an expected source (the fact in
    the source's words), and each half of the split holds answerable and unanswerable ones.
    """
    with dataset_store(BENCH / name) as (store, questions_file):
        loaded = load_questions(questions_file, store)
        assert len(loaded) == questions and store.counts()["documents"] == documents
        for q in loaded:
            text = " ".join(c.text for s in q.expected_source_ids for c in store.chunks_of(s)).lower()
            missing = [g for g in q.gold_keywords if not any(k.lower() in text for k in g)]
            assert not missing, f"{q.qid}: {missing} in none of {q.expected_source_ids}"
    for split in ("dev", "test"):
        half = [q for q in loaded if q.split == split]
        assert abs(len(half) - len(loaded) / 2) <= 1
        assert any(q.answerable for q in half) and any(not q.answerable for q in half)


@pytest.mark.parametrize("name", ["handbook", "aerosense", "newsroom", "orchestra"])
def test_the_issue_14_datasets_have_the_shape_it_asks_for(name):
    """At least 60 questions, a third unanswerable, Yes and No leads, a disagreement, in each half."""
    loaded = load_questions(BENCH / name / "questions.jsonl")
    assert len(loaded) >= 60
    assert sum(not q.answerable for q in loaded) * 3 >= len(loaded)
    for split in ("dev", "test"):
        half = [q for q in loaded if q.split == split]
        assert {q.expected_lead for q in half} >= {"Yes", "No"}
        assert any(q.contested for q in half)
        assert any(q.category == "multi-hop" for q in half)


GOLDEN_FLOORS = {"A": (0.83, 5), "B": (0.67, 4), "C": (0.92, 5), "router": (0.86, 5)}
"""Per configuration on the bundled golden set, offline: correctness and unanswerable questions
said insufficient (of 5), as docs/reading.md quotes them (B, one search tool, answers q33)."""


def test_the_golden_set_keeps_its_figures_in_every_configuration():
    """What a user of the bundled corpus gets, offline: each configuration's correctness and
    honesty at least what the docs quote, and every contested question presented with no
    side taken. A change that costs one golden answer fails here and must say why in the
    docs (this caught an e-mail header read as a date line)."""
    golden = pathlib.Path(__file__).parents[2] / "groundgate" / "corpus" / "insurance"
    _, summary = _run(golden, configs=list(GOLDEN_FLOORS), policies=["on"])
    for run in summary["runs"]:
        correct, honest = GOLDEN_FLOORS[run["config"]]
        assert round(run["correctness"], 2) >= correct, run["key"]
        assert run["unanswerable"]["said_insufficient"] >= honest, run["key"]
        assert run["contested"]["presented_both"] == run["contested"]["questions"] == 5, run["key"]
        assert run["contested"]["chose_side"] == 0, run["key"]

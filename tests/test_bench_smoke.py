"""The benchmarks run end to end at a small size and print every figure.

Timings are not asserted (shared machines are noisy); that the table is complete is.
"""

import os
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench" / "bench_knowledge.py"


def test_knowledge_benchmark_prints_every_figure():
    out = subprocess.run(
        [sys.executable, str(BENCH), "--sizes", "1000", "--queries", "25"],
        capture_output=True, text=True, timeout=300,
    )
    assert out.returncode == 0, out.stderr
    table = {
        line.split("|")[0].strip(): line.split("|")[1].strip()
        for line in out.stdout.splitlines()
        if line.count("|") >= 2 and not line.startswith("metric")
    }
    for row in ("ingest total (s)", "search_evidence p95 (ms)", "traverse 2-hop p95 (ms)",
                "resolve_entity p95 (ms)", "resolve_entity new process p50 / p95",
                "store size on disk (MiB)", "peak RSS overall (MiB, maxrss)"):
        assert row in table, row
        assert any(ch.isdigit() for ch in table[row]), (row, table[row])
    assert "1,000 chunks" in out.stdout


def test_minilm_benchmark_prints_sentences_per_second(minilm):
    root = Path(__file__).resolve().parents[1]
    path = os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])  # this checkout's groundgate
    out = subprocess.run(
        [sys.executable, str(root / "bench" / "bench_minilm.py"), "--runs", "1", "--limit", "8"],
        capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": path},
    )
    assert out.returncode == 0, out.stderr
    rows = {line.split("|")[0].strip(): line.split("|")[1].strip() for line in out.stdout.splitlines()
            if line.count("|") >= 2}
    for row in ("passages (sentences/s)", "queries (sentences/s)", "passages (per CPU s)"):
        assert float(rows[row]) > 0, (row, rows)


def test_contradictions_table_prints_every_detector_row():
    root = Path(__file__).resolve().parents[1]
    path = os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])  # this checkout's groundgate
    out = subprocess.run(
        [sys.executable, str(root / "bench" / "contradictions_table.py"), "--detectors", "lexical",
         "--only", "disputes", "--split", "dev"],
        capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": path},
    )
    assert out.returncode == 0, out.stderr
    assert "| lexical | disputes | 24 |" in out.stdout, out.stdout
    assert "Non-contested questions where a disagreement was shown" in out.stdout


def test_contradictions_table_scores_each_disagreement_set_and_both():
    root = Path(__file__).resolve().parents[1]
    path = os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])
    out = subprocess.run(
        [sys.executable, str(root / "bench" / "contradictions_table.py"), "--detectors", "lexical",
         "--split", "test", "--qids", "t01,t02,t04,b01,b02"],
        capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": path},
    )
    assert out.returncode == 0, out.stderr
    rows = [line for line in out.stdout.splitlines() if line.startswith("| lexical | ")]
    assert [r.split(" | ")[1:3] for r in rows[:3]] == [["disputes", "2"], ["accounts", "2"], ["both", "4"]]


def test_contradictions_table_says_when_judge_calls_failed(tmp_path):
    # A judge call with no recording finds nothing: the answer is the lexical reading's,
    # and the table must say so, or its figure passes for the model's.
    root = Path(__file__).resolve().parents[1]
    path = os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])
    out = subprocess.run(
        [sys.executable, str(root / "bench" / "contradictions_table.py"), "--detectors", "judge",
         "--only", "isles", "--split", "test", "--cassettes", str(tmp_path)],
        capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": path},
    )
    assert out.returncode == 0, out.stderr
    assert "questions had a model call that failed" in out.stdout, out.stdout


def test_contradictions_table_applies_the_split_to_every_set_when_asked():
    root = Path(__file__).resolve().parents[1]
    path = os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])

    def careers(*extra: str) -> str:
        out = subprocess.run(
            [sys.executable, str(root / "bench" / "contradictions_table.py"), "--detectors", "lexical",
             "--only", "careers", "--split", "dev", *extra],
            capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": path},
        )
        assert out.returncode == 0, out.stderr
        return out.stdout

    assert "| lexical | 0/19 |" in careers(), "the whole set, whatever the split"
    assert "| lexical | 0/9 |" in careers("--every-set"), "only its dev questions"


def test_scale_writes_the_same_corpus_for_a_seed_and_ingests_it(tmp_path):
    scale = Path(__file__).resolve().parents[1] / "bench" / "scale.py"

    def run(*args: str) -> str:
        out = subprocess.run([sys.executable, str(scale), "--chunks", "1200", "--seed", "3", *args],
                             capture_output=True, text=True, timeout=300, cwd=tmp_path)
        assert out.returncode == 0, out.stderr
        return out.stdout

    first = run("--out", str(tmp_path / "a"))
    assert "1200 chunks" in first and "peak RSS" in first, first
    assert (tmp_path / "a.sqlite").stat().st_size > 0
    run("--out", str(tmp_path / "b"), "--no-ingest")
    assert not (tmp_path / "b.sqlite").exists()
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*") if p.is_file())
    assert all((tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes() for f in files)


def test_reader_calibration_prints_every_bar_for_both_readings():
    root = Path(__file__).resolve().parents[1]
    path = os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])  # this checkout's groundgate
    out = subprocess.run(
        [sys.executable, str(root / "bench" / "reader_calibration.py"),
         "--only", "riverbend", "--split", "dev"],
        capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": path},
    )
    assert out.returncode == 0, out.stderr
    rows = [line for line in out.stdout.splitlines() if line.startswith("| after")]
    assert len(rows) == 10, out.stdout
    answered = [int(line.split("|")[3]) for line in rows]
    # a higher bar keeps no more readings than a lower one, and some reading passes the lowest
    assert answered[:5] == sorted(answered[:5], reverse=True) and answered[0] > 0, out.stdout
    assert "the bar in use: 0.8" in out.stdout


def test_every_benchmark_imports_what_it_names():
    # bench_agent.py once imported a private helper that had been renamed, and nothing ran it
    root = Path(__file__).resolve().parents[1]
    for script in sorted((root / "bench").glob("*.py")):
        out = subprocess.run(
            [sys.executable, str(script), "--help"], capture_output=True, text=True, timeout=120, cwd=root
        )
        assert out.returncode == 0, (script.name, out.stderr[-800:])


def test_answerability_signals_prints_both_tables():
    root = Path(__file__).resolve().parents[1]
    path = os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])  # this checkout's groundgate
    out = subprocess.run(
        [sys.executable, str(root / "bench" / "answerability_signals.py"), "--sets", "riverbend,careers",
         "--embedder", "none"],
        capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": path},
    )
    assert out.returncode == 0, out.stderr
    assert "| dev |" in out.stdout and "| test |" in out.stdout, out.stdout
    assert "| dev | the reader |" in out.stdout and "the combination at 0.4" in out.stdout, out.stdout


def test_token_floor_prints_every_call_and_both_floors():
    root = Path(__file__).resolve().parents[1]
    path = os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])  # this checkout's groundgate
    out = subprocess.run(
        [sys.executable, str(root / "bench" / "token_floor.py"), "--dataset",
         str(root / "bench" / "datasets" / "riverbend"), "--split", "dev"],
        capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": path},
    )
    assert out.returncode == 0, out.stderr
    rows = {line.split("|")[1].strip(): line.split("|")[2].strip() for line in out.stdout.splitlines()
            if line.count("|") >= 3}
    for row in ("first call", "last call", "the whole run (what eval reports)",
                "floor: two calls (first + last)", "floor: the last call alone"):
        assert rows[row].replace(",", "").isdigit(), (row, rows)
    assert int(rows["the whole run (what eval reports)"].replace(",", "")) >= int(
        rows["floor: two calls (first + last)"].replace(",", ""))

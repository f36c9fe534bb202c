"""The trace views say what happened: lanes told apart, 80 columns readable, counts that match rows."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from groundgate.ask import ask
from groundgate.cli import app
from groundgate.settings import Settings
from groundgate.viz.trace_html import render_run

ROOT = Path(__file__).parents[2]
CONTESTED = (
    "Could you tell me whether trace-and-access costs are automatically included when a claim is accepted?"
)
MULTI_HOP = (
    "Did the roof inspection threshold in force on the date of loss for claim CLM-1108 require an "
    "inspection, and does the March 2026 H3 rule apply to it?"
)
runner = CliRunner()


@pytest.fixture(scope="module")
def settings(bundled_store, tmp_path_factory):
    return Settings(store_path=Path(bundled_store.path), cache_dir=tmp_path_factory.mktemp("cache"))


@pytest.fixture(scope="module")
def runs(settings):
    return {
        "escalated": ask(MULTI_HOP, settings=settings, mode="auto").to_json(),
        "contested": ask(CONTESTED, settings=settings, mode="agent").to_json(),
    }


def _tool_steps(run):
    return [s for s in run["trace"]["steps"] if s["kind"] == "tool"]


def _lane_rows(output):
    """The lane of each tool-call row: rows start with the lane, continuation lines with spaces."""
    return [line.split()[0] for line in output.splitlines() if re.match(r"^(A|agent) +\d+ +\w+", line)]


def test_ask_show_trace_has_a_lane_column_in_auto_mode(settings):
    result = runner.invoke(app, ["ask", MULTI_HOP, "--store", str(settings.store_path), "--show-trace"])
    assert result.exit_code == 0, result.output
    as_json = runner.invoke(app, ["ask", MULTI_HOP, "--store", str(settings.store_path), "--json"])
    lanes = ["A" if s["lane"] == "pipeline" else "agent" for s in _tool_steps(json.loads(as_json.output))]
    assert "A" in lanes and "agent" in lanes, "the question escalates: both lanes ran"
    assert _lane_rows(result.output) == lanes
    assert "lane A: the fixed pipeline" in result.output


def _show_at_80_columns(run, tmp_path):
    saved = tmp_path / "run.json"
    saved.write_text(json.dumps(run))
    env = {**os.environ, "COLUMNS": "80"}
    done = subprocess.run([sys.executable, "-m", "groundgate", "trace", "show", str(saved)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_trace_show_is_readable_at_80_columns(runs, tmp_path):
    run = runs["escalated"]
    shown = _show_at_80_columns(run, tmp_path)
    lines = shown.splitlines()
    assert max(len(line) for line in lines) <= 80
    header = next(line for line in lines if "arguments" in line)
    assert header.split() == ["lane", "round", "tool", "arguments", "hits", "top", "ms"]
    assert _lane_rows(shown) == ["A" if s["lane"] == "pipeline" else "agent" for s in _tool_steps(run)]
    tools = [m.group(1) for m in re.finditer(r"^(?:A|agent) +\d+ +(\w+)", shown, re.M)]
    assert tools == [s["tool"] for s in _tool_steps(run)], "tool names are whole"
    start, end = header.index("arguments"), header.index("hits")  # the arguments column
    column = [line[start:end] for line in lines[lines.index(header) + 2:]]
    packed = "".join("".join(column).split())  # every argument is there, whatever the wrapping
    for step in _tool_steps(run):
        for name, value in step["args"].items():
            if isinstance(value, str) and value:
                assert f'{name}="{value}"'.replace(" ", "") in packed
    words = " ".join(" ".join(column).split())  # wrapped between words (only a longer one folds)
    assert 'query="Did the roof inspection threshold in force on the date of loss' in words


def test_trace_show_prints_a_tools_error(runs, tmp_path):
    run = json.loads(json.dumps(runs["contested"]))
    _tool_steps(run)[0]["error"] = "get_source failed: no source [/x] [annual-leave]"
    shown = _show_at_80_columns(run, tmp_path)
    assert "error: get_source failed: no source [/x] [annual-leave]" in " ".join(shown.split())


def _counts(section):
    summary = re.search(r"<p>(.*?)</p>", section).group(1)
    said = {k: int(n) for n, k in re.findall(r">(\d+) (grounded|flagged|removed)<", summary)}
    rows = re.findall(r'<tr class="claim">.*?class="badge \w*">(\w+)</span>', section)
    return said, {k: rows.count(k) for k in ("grounded", "flagged", "removed")}, summary


def test_the_run_page_counts_the_claims_it_shows(runs):
    run = runs["contested"]
    assert run["grounding"]["removed"] < sum(c["status"] == "removed" for c in run["claims"]), (
        "the gate withheld claims the grounding check had kept: the case the counts got wrong"
    )
    page = render_run(run)
    section = page.split('<section id="grounding">')[1].split("</section>")[0]
    said, shown, summary = _counts(section)
    assert said == shown and sum(shown.values()) == len(run["claims"])
    withheld = shown["removed"] - run["grounding"]["removed"]
    assert f"{withheld} of them withheld by the gate" in summary


def test_trace_show_counts_the_claims_too(runs, tmp_path):
    run = runs["contested"]
    shown = _show_at_80_columns(run, tmp_path)
    removed = sum(c["status"] == "removed" for c in run["claims"])
    grounded = sum(c["status"] == "grounded" for c in run["claims"])
    assert f"grounding {grounded} grounded, 0 flagged, {removed} removed" in shown


def test_a_disagreement_outside_the_register_prints_no_none_in_the_gate_box(runs):
    run = json.loads(json.dumps(runs["contested"]))
    run["contested"].append({
        "topic": "the excess", "contradiction_id": None, "owner": None, "status": "unrecorded",
        "positions": [{"statement": "The excess is EUR 250.", "source_ids": ["INS-SYN-001"]},
                      {"statement": "The excess is EUR 500.", "source_ids": ["INS-SYN-002"]}],
    })
    gate = render_run(run).split('<section id="gate">')[1].split("</section>")[0]
    text = re.sub(r"<[^>]+>", " ", gate)
    assert "None" not in text
    assert "not in the register" in text and "no register entry covers it" in text

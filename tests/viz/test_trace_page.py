"""The run page: self-contained HTML, and what a person sees when Chromium opens it."""

import io
import re
from pathlib import Path

import pytest
from chromium import Browser, find_chromium

from groundgate.ask import ask
from groundgate.graph.context import Bounds
from groundgate.settings import Settings
from groundgate.viz.trace_html import graph_path, render_run

CONTESTED = (
    "Could you tell me whether trace-and-access costs are automatically included when a claim is accepted?"
)
MULTI_HOP = (
    "Did the roof inspection threshold in force on the date of loss for claim CLM-1108 require an "
    "inspection, and does the March 2026 H3 rule apply to it?"
)


@pytest.fixture(scope="module")
def runs(bundled_store, tmp_path_factory):
    settings = Settings(store_path=Path(bundled_store.path), cache_dir=tmp_path_factory.mktemp("cache"))
    return {
        "contested": ask(CONTESTED, settings=settings, mode="agent").to_json(),
        "bounded": ask(MULTI_HOP, settings=settings, mode="agent", bounds=Bounds(max_rounds=1)).to_json(),
    }


def test_the_page_is_self_contained(runs):
    page = render_run(runs["contested"])
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page), "the page must not fetch anything"
    assert "<script" not in page and "@import" not in page and "url(" not in page
    assert page.count("<svg") == 1


def test_the_path_is_rebuilt_from_the_steps(runs):
    steps = runs["bounded"]["trace"]["steps"]
    assert graph_path(steps) == [
        "__start__", "plan", "tool_call", "bound_check", "compose", "grounding_check", "gate", "__end__"
    ]


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    binary = find_chromium()
    if binary is None:
        pytest.skip("Chromium is not installed (bash .ci/install-chromium.sh installs Debian's chromium)")
    pytest.importorskip("websockets", reason="the DevTools driver needs websockets (in the dev extra)")
    chrome = Browser(binary, tmp_path_factory.mktemp("chromium-profile"))
    yield chrome
    chrome.close()


def _open(browser, run, tmp_path, name):
    page = tmp_path / f"{name}.html"
    page.write_text(render_run(run), encoding="utf-8")
    browser.open(page.as_uri())
    return browser.eval("document.body.innerText")


def test_a_person_sees_the_run_in_chromium(browser, runs, tmp_path):
    run = runs["contested"]
    text = _open(browser, run, tmp_path, "contested")

    assert CONTESTED in text
    for heading in ("Answer", "Path through the graph", "Agent rounds", "Grounding verdicts",
                    "What the gate imposed, and why", "Bound usage"):
        assert heading in text
    tools = {s["tool"] for s in run["trace"]["steps"] if s["kind"] == "tool"}
    assert tools and all(tool in text for tool in tools)
    contested = run["contested"][0]
    assert contested["contradiction_id"] in text
    for position in contested["positions"]:
        assert position["statement"] in text
    for note in run["policy_notes"]:
        assert note in text
    assert "every position is shown; none is chosen" in text

    # The graph is drawn, the visited nodes are highlighted, and nothing was fetched.
    visited = browser.eval("[...document.querySelectorAll('svg g.node.visited')].map(g => g.dataset.node)")
    assert {"plan", "tool_call", "bound_check", "compose", "grounding_check", "gate"} <= set(visited)
    box = "document.querySelector('#path svg').getBoundingClientRect()"
    size = browser.eval(f"(b => [b.width, b.height])({box})")
    assert size[0] > 150 and size[1] > 300
    assert browser.eval("performance.getEntriesByType('resource').length") == 0
    assert browser.eval("document.documentElement.scrollWidth <= window.innerWidth")
    scored = browser.eval("document.querySelectorAll('tr.tool-call .bar').length")
    assert scored > 0, "the tool calls' scores are drawn as bars"

    from PIL import Image

    shot = Image.open(io.BytesIO(browser.screenshot())).convert("RGB")
    colours = {colour: count for count, colour in shot.getcolors(maxcolors=1 << 24)}
    highlighted = colours.get((0xFF, 0xE8, 0xA3), 0)
    assert highlighted > 2000, "the visited nodes' highlight is visible on screen"


def test_a_tripped_bound_is_visible(browser, runs, tmp_path):
    text = _open(browser, runs["bounded"], tmp_path, "bounded")
    assert "bound tripped" in text
    assert "rounds: used 1 of 1" in text
    assert browser.eval("document.querySelectorAll('.meter.tripped').length") == 1
    assert "Disclosed as not known" in text


def test_groundgate_trace_show_prints_and_writes_the_page(runs, tmp_path):
    import json

    from typer.testing import CliRunner

    from groundgate.cli import app

    saved = tmp_path / "run.json"
    saved.write_text(json.dumps(runs["contested"]))
    runner = CliRunner()
    shown = runner.invoke(app, ["trace", "show", str(saved)])
    assert shown.exit_code == 0, shown.output
    assert "Tool calls" in shown.output and "list_contradictions" in shown.output
    assert "gate: contradiction policy" in shown.output

    page = tmp_path / "run.html"
    written = runner.invoke(app, ["trace", "show", str(saved), "--html", str(page)])
    assert written.exit_code == 0 and page.read_text().startswith("<!DOCTYPE html>")

    (tmp_path / "broken.json").write_text('{"answer": "x"}')
    broken = runner.invoke(app, ["trace", "show", str(tmp_path / "broken.json")])
    assert broken.exit_code == 2 and "not a saved run" in broken.output

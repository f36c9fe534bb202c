"""A base install (no extras): what needs an extra says which one, and the rest works without it.

The dev install has every extra, so each test hides the modules an extra brings (``None`` in
``sys.modules`` makes their import fail as it would on a base install) and drops the
groundgate modules that imported them, so those are imported again without them.
"""

import sys

import pytest
from typer.testing import CliRunner

from groundgate.cli import app

runner = CliRunner()


def _uninstall(monkeypatch, *packages: str) -> None:
    for name in list(sys.modules):
        if name in packages or name.startswith(tuple(p + "." for p in packages)):
            monkeypatch.setitem(sys.modules, name, None)
    for package in packages:
        monkeypatch.setitem(sys.modules, package, None)
    for name in list(sys.modules):
        if name.startswith(("groundgate.telemetry", "groundgate.viz")):
            monkeypatch.delitem(sys.modules, name)


pytestmark = pytest.mark.usefixtures("isolated_env")


@pytest.mark.parametrize("how", ["option", "environment"])
def test_telemetry_without_the_otel_extra_names_the_extra(monkeypatch, how):
    _uninstall(monkeypatch, "opentelemetry")
    args = ["ask", "What is the subsidence excess?"]
    if how == "option":
        args += ["--telemetry", "console"]
    else:
        monkeypatch.setenv("GROUNDGATE_TELEMETRY", "console")
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "pip install 'groundgate[otel]'" in result.output


def test_building_telemetry_without_the_sdk_is_a_config_error(monkeypatch):
    _uninstall(monkeypatch, "opentelemetry")
    from groundgate.errors import ConfigError
    from groundgate.telemetry import Telemetry, make_telemetry

    assert make_telemetry("none") is None
    with pytest.raises(ConfigError):
        make_telemetry("console")
    with pytest.raises(ConfigError):
        Telemetry()


def test_svg_ascii_and_the_run_page_graph_need_no_extra(monkeypatch, tmp_path):
    _uninstall(monkeypatch, "grandalf", "PIL")
    svg = runner.invoke(app, ["graph", "--format", "svg", "--output", str(tmp_path / "agent.svg")])
    assert svg.exit_code == 0, svg.output
    assert (tmp_path / "agent.svg").read_text().count('class="node') == 8
    ascii_art = runner.invoke(app, ["graph", "--format", "ascii"])
    assert ascii_art.exit_code == 0, ascii_art.output
    assert "| tool_call |" in ascii_art.output and "| grounding_check |" in ascii_art.output

    from groundgate.viz.trace_html import render_run

    page = render_run({"answer": "x", "trace": {"steps": [{"kind": "model", "round": 0, "tool_calls": []}]}})
    assert page.count("<svg") == 1

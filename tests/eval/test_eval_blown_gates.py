"""`groundgate eval` says where its blown gates come from: which runs, policies on or off."""

import json
from collections import Counter

import pytest
from typer.testing import CliRunner

from groundgate.cli import app

runner = CliRunner()


pytestmark = pytest.mark.usefixtures("isolated_env")


def test_the_blown_gates_line_names_the_runs_and_that_their_policies_were_off(tiny_dataset, tmp_path):
    out = tmp_path / "report"
    result = runner.invoke(app, ["eval", "--dataset", str(tiny_dataset), "--out", str(out)])
    assert result.exit_code == 0, result.output
    gates = json.loads((out / "summary.json").read_text())["blown_gates"]
    assert gates and {g["policies"] for g in gates} == {"off"}
    line = " ".join(next(line for line in result.output.splitlines() if "blown gates" in line).split())
    assert line.startswith(f"{len(gates)} blown gates")
    assert f"all {len(gates)} with policies off (" in line
    for key, n in Counter(g["key"] for g in gates).items():
        assert f"{key} {n}" in line


def test_blown_gates_with_policies_on_are_named_first():
    from groundgate.cli.eval import _blown_gates

    gates = [{"key": "A/off/offline", "policies": "off"}, {"key": "C/on/offline", "policies": "on"},
             {"key": "A/off/offline", "policies": "off"}]
    said = _blown_gates(gates).plain
    assert said.startswith("3 blown gates")
    assert "1 with policies on (C/on/offline 1); 2 with policies off (A/off/offline 2)" in said

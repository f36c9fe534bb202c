"""bench/reading_table.py prints its table from the eval runner's rows (a figure script, run once here)."""

import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).parents[2] / "bench" / "reading_table.py"

pytestmark = pytest.mark.usefixtures("isolated_env")


def _module():
    spec = importlib.util.spec_from_file_location("reading_table", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_table_has_a_row_per_dataset_and_configuration_and_the_pooled_rows(capsys):
    table = _module()
    assert table.main(["--datasets", "riverbend", "--configs", "A", "--split", "test"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split("|")[1].strip() == "dataset" and "Yes/No first" in lines[0]
    rows = [[c.strip() for c in line.split("|")[1:-1]] for line in lines[2:4]]
    assert [r[:3] for r in rows] == [["riverbend", "A", "9"], ["all", "A", "9"]], "9 answerable in test"
    assert rows[0][6] == "1", "one unanswerable question in riverbend's test half"
    assert "test split" in lines[-1]

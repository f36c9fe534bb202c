"""A question too short to search for is a usage error, not a run that leaks a tool's complaint."""

import pytest
from typer.testing import CliRunner

from groundgate.ask import ask
from groundgate.cli import app
from groundgate.errors import ConfigError
from groundgate.settings import Settings

runner = CliRunner()


pytestmark = pytest.mark.usefixtures("isolated_env")


@pytest.mark.parametrize("question", ["", "   ", "\t\n", "x"])
@pytest.mark.parametrize("command", [["ask"], ["ask", "--mode", "agent"], ["azure", "ask"]])
def test_an_empty_or_one_letter_question_is_a_usage_error(command, question):
    result = runner.invoke(app, [*command, question])
    assert result.exit_code == 2, result.output
    said = " ".join(result.output.replace("│", " ").split())  # typer boxes and wraps the message
    assert "Invalid value for QUESTION" in said and "at least 2 characters" in said
    assert "search_evidence" not in result.output and "Traceback" not in result.output


def test_ask_in_python_refuses_an_empty_question_before_opening_anything(tmp_path):
    settings = Settings(store_path=tmp_path / "never-created.sqlite", cache_dir=tmp_path / "cache")
    with pytest.raises(ConfigError):
        ask("  ", settings=settings)
    assert not (tmp_path / "never-created.sqlite").exists()


def test_a_two_letter_question_still_runs():
    result = runner.invoke(app, ["ask", "H3"])
    assert result.exit_code == 0, result.output

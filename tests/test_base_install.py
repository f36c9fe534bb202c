"""A fresh install without extras runs the README's first command, `groundgate graph`, and says
which extra the rest needs.

This test reaches PyPI: `pip install <this checkout>` runs in a subprocess (pytest's
--block-network guards this process's sockets only) into a new virtual environment with no
system site-packages, so a dependency missing from pyproject.toml fails here, as it would for
a user. With pip's cache warm it takes about 60 s on an idle machine (45 s of it
is the install), up to 100 s on a busy one. Deselect it with `-m "not pypi"`.
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
SNAPSHOT = ROOT / "tests" / "graph" / "agent.mmd"
EXTRAS_MODULES = ("grandalf", "PIL", "opentelemetry", "mcp", "matplotlib", "azure", "sentence_transformers")

pytestmark = pytest.mark.pypi


def _readme_first_command() -> list[str]:
    """The `groundgate ask ...` of the README's first code block (after its `pip install -e .`)."""
    block = re.search(r"```bash\n(.*?)\n```", (ROOT / "README.md").read_text(), re.S).group(1)
    command = next(part.strip() for part in block.split("&&") if part.strip().startswith("groundgate "))
    return shlex.split(command)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """``(bin folder, environment)`` of a venv with groundgate installed from this checkout, no extras."""
    where = tmp_path_factory.mktemp("base-install")
    source = where / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "groundgate", source / "groundgate",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.sqlite"))
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME") and not k.startswith("GROUNDGATE_")}
    env["GROUNDGATE_CACHE"] = str(where / "cache")
    venv = where / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    pip = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-compile", str(source)],
                         cwd=where, env=env, capture_output=True, text=True, timeout=900, check=False)
    assert pip.returncode == 0, f"pip install failed:\n{pip.stdout}\n{pip.stderr}"
    yield venv / "bin", env, where
    shutil.rmtree(where, ignore_errors=True)  # a venv is ~250 MB: pytest keeps its last three tmp trees


def _run(installed, *args: str) -> subprocess.CompletedProcess:
    bin_dir, env, where = installed
    return subprocess.run([str(bin_dir / args[0]), *args[1:]], cwd=where, env=env, capture_output=True,
                          text=True, timeout=300, check=False)


def test_the_fresh_environment_has_no_extra(installed):
    check = "import importlib.util as u, sys; print([m for m in sys.argv[1:] if u.find_spec(m)])"
    found = _run(installed, "python", "-c", check, *EXTRAS_MODULES)
    assert found.returncode == 0 and found.stdout.strip() == "[]", found.stdout + found.stderr


def test_the_readme_first_command_answers_on_a_base_install(installed):
    command = _readme_first_command()
    assert command[:2] == ["groundgate", "ask"] and "--show-trace" in command
    done = _run(installed, *command)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "Sources" in done.stdout and "INS-SYN-008" in done.stdout
    assert "Tool calls" in done.stdout and "search_evidence" in done.stdout


def test_groundgate_graph_draws_mermaid_ascii_and_svg_on_a_base_install(installed):
    mermaid = _run(installed, "groundgate", "graph")
    assert mermaid.returncode == 0, mermaid.stderr
    assert mermaid.stdout.strip() == SNAPSHOT.read_text().strip()
    ascii_art = _run(installed, "groundgate", "graph", "--format", "ascii")
    assert ascii_art.returncode == 0 and "| bound_check |" in ascii_art.stdout, ascii_art.stderr
    svg = _run(installed, "groundgate", "graph", "--format", "svg")
    assert svg.returncode == 0 and svg.stdout.startswith("<svg") and 'data-node="plan"' in svg.stdout


@pytest.mark.parametrize(("args", "extra"), [
    (["ask", "What is the subsidence excess?", "--telemetry", "console"], "otel"),
    (["graph", "--format", "png", "--output", "agent.png"], "draw"),
    (["mcp"], "mcp"),
])
def test_what_needs_an_extra_names_it_and_exits_cleanly(installed, args, extra):
    done = _run(installed, "groundgate", *args)
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"pip install 'groundgate[{extra}]'" in done.stderr
    assert "Traceback" not in done.stderr

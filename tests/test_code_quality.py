"""The linters the project is configured with stay clean (ruff, and mypy on the package).

They run as tests so that `.ci/run`, the README's test command, keeps them honest.
"""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=600)


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff comes with the dev extra")
def test_ruff_finds_nothing():
    result = _run("ruff", "check", "groundgate", "tests", "bench")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_finds_nothing():
    pytest.importorskip("mypy", reason="mypy comes with the dev extra")
    result = _run(sys.executable, "-m", "mypy", "groundgate")
    assert result.returncode == 0, result.stdout + result.stderr


SPLIT_BENCHES = ("scale.py", "corpus_words.py", "corpus_writer.py")
"""The bench modules already within the rule (bench_agent.py is not yet)."""


def test_modules_keep_to_400_lines():
    """STYLE.md's small modules: the package, and the scale benchmark split by concern."""
    paths = [*ROOT.glob("groundgate/**/*.py"), *(ROOT / "bench" / name for name in SPLIT_BENCHES)]
    long = {str(p.relative_to(ROOT)): n for p in paths if (n := len(p.read_text().splitlines())) > 400}
    assert long == {}

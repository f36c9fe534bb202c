"""`scripts/local-backends.sh status` says what is running now, not what the last start wrote.

A machine that rebooted keeps `.cache/local-backends/status` from the last start; the
status command must not report a server as up when its process is gone.
"""

import os
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "local-backends.sh"


def _status(cache: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GROUNDGATE_BACKENDS_CACHE": str(cache)}
    return subprocess.run(["bash", str(SCRIPT), "status"], capture_output=True, text=True,
                          env=env, timeout=30)


def test_a_server_whose_process_is_gone_is_reported_down(tmp_path):
    (tmp_path / "status").write_text(
        "gremlin: up ws://127.0.0.1:1/gremlin (Gremlin Server)\n"
        "search: up http://127.0.0.1:2 (fake)\n")
    alive = subprocess.Popen(["sleep", "30"])
    try:
        (tmp_path / "gremlin.pid").write_text(f"{alive.pid}\n")
        (tmp_path / "search.pid").write_text("999999\n")  # no such process
        result = _status(tmp_path)
    finally:
        alive.kill()
    assert result.returncode == 1
    assert "gremlin: up ws://127.0.0.1:1/gremlin" in result.stdout
    assert "search: down" in result.stdout and "local-backends.sh start" in result.stdout


def test_never_started_says_how_to_start(tmp_path):
    result = _status(tmp_path)
    assert result.returncode == 1
    assert "not started" in result.stdout

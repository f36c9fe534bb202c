"""`langgraph dev` serves the agent from langgraph.json; langgraph-sdk invokes it over localhost."""

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(bundled_store, tmp_path_factory):
    pytest.importorskip("langgraph_api", reason="the LangGraph dev server is the `server` extra (in dev)")
    pytest.importorskip("langgraph_cli", reason="the LangGraph dev server is the `server` extra (in dev)")
    cli = shutil.which("langgraph", path=str(Path(sys.executable).parent)) or shutil.which("langgraph")
    if cli is None:
        pytest.skip("the `langgraph` command is not installed (pip install -e '.[server]')")
    port = _free_port()
    work = tmp_path_factory.mktemp("langgraph-dev")  # the server keeps its state in ./.langgraph_api
    env = {
        **os.environ,
        "GROUNDGATE_STORE": str(bundled_store.path),
        "GROUNDGATE_MODEL": "offline",
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "LANGSMITH_TRACING": "false",
        # the server imports groundgate from this checkout, whatever (if any) copy is installed
        "PYTHONPATH": os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH")))),
    }
    log = (work / "server.log").open("wb")
    proc = subprocess.Popen(
        [cli, "dev", "--config", str(ROOT / "langgraph.json"),
         "--port", str(port), "--host", "127.0.0.1", "--no-browser", "--no-reload"],
        cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    import httpx

    while True:
        try:
            if httpx.get(f"{url}/ok", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.terminate()
            pytest.fail("langgraph dev did not start:\n" + (work / "server.log").read_text()[-3000:])
        time.sleep(0.25)
    yield url
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


def test_langgraph_dev_serves_the_agent_and_the_sdk_runs_it(server):
    from langgraph_sdk import get_sync_client

    client = get_sync_client(url=server)
    assistants = client.assistants.search(graph_id="groundgate")
    assert assistants, "langgraph.json's graph is registered"
    question = {"question": "What is the subsidence excess?", "as_of": None}
    out = client.runs.wait(None, "groundgate", input=question)
    assert set(out) == {"answer", "trace"}
    assert "1,000" in out["answer"]["text"]
    assert out["trace"]["totals"]["tool_calls"] >= 1

    thread = client.threads.create()
    owner = {"question": "Who owns decision record DR-021?"}
    client.runs.wait(thread["thread_id"], "groundgate", input=owner)
    # a thread keeps the run's state: the server's own checkpointer holds it
    state = client.threads.get_state(thread["thread_id"])
    assert "underwriting standards committee" in state["values"]["answer"]["text"].lower()

"""`serve-model` under load and bad input, on 127.0.0.1 only: it answers or refuses, never resets."""

import http.client
import json
import threading
import time

import httpx
import pytest

from groundgate.serve import ModelServer
from groundgate.serve.server import MAX_BODY_BYTES, MAX_JSON_DEPTH

CHAT = {"model": "offline",
        "messages": [{"role": "user", "content": "What is the late fee for printed books?"}]}
BODY = json.dumps(CHAT).encode()
JSON = {"Content-Type": "application/json"}


@pytest.fixture(scope="module")
def server():
    with ModelServer(port=0) as running:
        yield running


def _post(server, body: bytes, headers: dict[str, str]) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request("POST", "/v1/chat/completions", body=body, headers=headers)
        reply = conn.getresponse()
        return reply.status, json.loads(reply.read() or b"{}")
    finally:
        conn.close()


def test_twenty_clients_at_once_get_all_120_answers_with_no_reset(server):
    clients, each = 20, 6
    start = threading.Barrier(clients)
    statuses: list[int] = []
    failures: list[str] = []
    lock = threading.Lock()

    def client() -> None:
        start.wait(timeout=10)  # every client connects at the same moment, as a burst does
        for _ in range(each):
            try:
                status, _ = _post(server, BODY, JSON)
            except OSError as exc:  # ECONNRESET arrives as ConnectionResetError
                with lock:
                    failures.append(type(exc).__name__)
            else:
                with lock:
                    statuses.append(status)

    threads = [threading.Thread(target=client, daemon=True) for _ in range(clients)]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=max(0.1, 60 - (time.monotonic() - began)))
    assert not any(t.is_alive() for t in threads), "the burst did not finish within 60 s"
    assert failures == []
    assert statuses == [200] * (clients * each)


@pytest.mark.parametrize("host", ["evil.example", "evil.example:80", "127.0.0.2", ""])
def test_a_foreign_host_is_misdirected(server, host):
    reply = httpx.post(f"{server.base_url}/chat/completions", json=CHAT, headers={"Host": host})
    assert reply.status_code == 421 and reply.json()["error"]["code"] == "misdirected_request"
    listed = httpx.get(f"{server.base_url}/models", headers={"Host": host})
    assert listed.status_code == 421


def test_the_loopback_names_are_answered(server):
    for host in (f"localhost:{server.port}", f"127.0.0.1:{server.port}", "localhost"):
        assert httpx.get(f"{server.base_url}/models", headers={"Host": host}).status_code == 200


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
def test_a_body_that_is_not_json_is_unsupported(server, content_type):
    headers = {"Content-Type": content_type} if content_type else {}
    status, body = _post(server, BODY, headers)
    assert status == 415 and body["error"]["code"] == "unsupported_media_type"


def test_json_with_a_charset_is_json(server):
    status, body = _post(server, BODY, {"Content-Type": "application/json; charset=utf-8"})
    assert status == 200 and body["choices"][0]["message"]["role"] == "assistant"


@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 100_000])
def test_deeply_nested_json_is_a_400_with_a_json_error(server, depth, capfd):
    nested = b'{"model": "offline", "messages": ' + b"[" * depth + b"]" * depth + b"}"
    status, body = _post(server, nested, JSON)
    assert status == 400 and body["error"]["type"] == "invalid_request_error"
    assert "deeper than" in body["error"]["message"]
    assert "Traceback" not in capfd.readouterr().err
    assert _post(server, BODY, JSON)[0] == 200, "the server goes on serving"


def test_nesting_within_the_limit_is_parsed(server):
    messages = CHAT["messages"] + [{"role": "user", "content": "hi", "name": "x"}]
    status, _ = _post(server, json.dumps({**CHAT, "messages": messages, "metadata": [[[1]]]}).encode(), JSON)
    assert status == 200


def test_a_body_over_the_limit_is_refused_before_it_is_read(server):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.putrequest("POST", "/v1/chat/completions")
        conn.putheader("Content-Type", "application/json")
        conn.putheader("Content-Length", str(MAX_BODY_BYTES + 1))
        conn.endheaders()
        reply = conn.getresponse()
        assert reply.status == 413 and json.loads(reply.read())["error"]["type"] == "invalid_request_error"
    finally:
        conn.close()


def _said(role: str, **fields) -> dict:
    return {"model": "offline", "messages": [{"role": role, "content": "hi", **fields}]}


@pytest.mark.parametrize("body", [
    [], 5, "x", None, {}, {"model": 5, "messages": []}, {"model": "offline", "messages": [5]},
    _said("assistant", tool_calls=5),
    _said("assistant", tool_calls=[{"function": {"name": "x", "arguments": 5}}]),
    _said("assistant", tool_calls=[{"function": {"name": ["x"], "arguments": "{}"}}]),
    _said("assistant", tool_calls=[{"id": 7, "function": {"name": "x", "arguments": "{}"}}]),
    _said("assistant", tool_calls=[{"function": {"name": "x", "arguments": "[" * 5000 + "]" * 5000}}]),
    _said("tool", tool_call_id=5),
    {**_said("user"), "tools": [{"type": "function", "function": 5}]},
], ids=lambda body: json.dumps(body)[:60])
def test_a_malformed_request_is_a_400_not_a_dropped_connection(server, body, capfd):
    status, reply = _post(server, json.dumps(body).encode(), JSON)
    assert status == 400 and reply["error"]["type"] == "invalid_request_error"
    assert "Traceback" not in capfd.readouterr().err

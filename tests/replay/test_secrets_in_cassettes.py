"""No committed cassette holds a secret, and recording scrubs keys before anything is written.

The file sorts after test_golden_cassettes.py, so a recording session scans what it just wrote.
"""

from pathlib import Path

import pytest

from groundgate.models.factory import make_chat_model
from groundgate.serve import ModelServer
from groundgate.testing.agent import agent_over_corpus
from groundgate.testing.cassettes import find_secrets, invoke_with_cassette

CASSETTES = Path(__file__).resolve().parents[2] / "cassettes"
FAKE_KEY = "sk-proj-" + "Zx9" * 12


def test_every_committed_cassette_is_free_of_secrets():
    files = [p for p in CASSETTES.rglob("*") if p.is_file()]
    assert len(files) >= 10, "the offline cassettes are committed"
    assert find_secrets(CASSETTES) == []


@pytest.mark.parametrize(("planted", "kind"), [
    ("    authorization:\n    - Bearer abcdefgh12345678\n", "bearer token"),
    ("    api-key:\n    - 0123456789abcdef0123456789abcdef\n", "secret header"),
    ('{"api_key": "AbCdEf0123456789xyz"}', "key value"),
    (f"key {FAKE_KEY}\n", "openai key"),
    ("uri: https://x.openai.azure.com/a?api-key=0123456789abcdef\n", "key in url"),
    ("token eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLXBhcnQ\n", "jwt"),
    ("    cookie:\n    - session=abc123\n", "secret header"),
], ids=["bearer", "api-key-header", "api-key-in-json", "openai-key", "key-in-url", "jwt", "cookie"])
def test_the_scanner_finds_planted_secrets(tmp_path, planted, kind):
    (tmp_path / "leaky.yaml").write_text("interactions:\n" + planted)
    found = find_secrets(tmp_path)
    assert kind in {f.kind for f in found}
    assert all(f.line >= 2 and f.path.name == "leaky.yaml" for f in found)


def test_recording_with_a_key_and_cookie_leaves_neither_in_the_cassette(tmp_path):
    tape = tmp_path / "recorded.yaml"
    with ModelServer(port=0) as server:
        model = make_chat_model(
            f"compatible:{server.base_url}#offline", api_key=FAKE_KEY, max_retries=0,
            default_headers={"Cookie": "session=s3cr3t-cookie-value", "OpenAI-Organization": "org-private1"},
        )
        agent = agent_over_corpus(model=model, tools=["search_evidence"])
        invoke_with_cassette(agent, {"question": "What is the late fee for printed books?"}, tape,
                             record_mode="once")
    text = tape.read_text()
    assert "chat/completions" in text
    for secret in (FAKE_KEY, "s3cr3t-cookie-value", "org-private1", "Bearer"):
        assert secret not in text
    assert find_secrets(tape) == []

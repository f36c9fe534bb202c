"""Cassette settings for the replay tests, and the models the cassettes were recorded with.

Replay (the default): `python -m pytest tests/replay` plays cassettes/<model>/*.yaml with
the network blocked, for the offline planner and for every other model whose folder holds
a MODEL file. Re-record with `--record-mode=rewrite`: for the offline planner the local
OpenAI-compatible server (`groundgate serve-model`'s) is started here, or the one at
GROUNDGATE_RECORD_BASE_URL is used; for a real model set GROUNDGATE_CASSETTE_MODEL
(openai:<model>, azure:<deployment>, compatible:<url>#<model>) and its keys.
"""

import os
import socket
from pathlib import Path

import pytest

from groundgate.models.factory import make_chat_model
from groundgate.serve import ModelServer
from groundgate.testing.cassettes import model_slug, recorded_models, register_matchers
from groundgate.testing.cassettes import vcr_config as strict_vcr_config
from groundgate.testing.fixtures import *  # noqa: F403 - the groundgate_* fixtures users get

REPO = Path(__file__).resolve().parents[2]
CASSETTES = REPO / "cassettes"
RECORD_PORT = 18765
"""The local server listens here while recording (if free), so recorded URLs are stable."""
RECORD_CLOCK = 1767225600
"""`created` of every recorded offline completion (2026-01-01), so re-recording is byte-stable."""


def cassette_models() -> list[str]:
    """The model being recorded, or every model with cassettes (offline first)."""
    chosen = os.environ.get("GROUNDGATE_CASSETTE_MODEL")
    if chosen:
        return [chosen]
    others = recorded_models(CASSETTES)
    return ["offline", *(m for m in others if m != "offline")]


def pytest_recording_configure(config, vcr):
    register_matchers(vcr)


def pytest_generate_tests(metafunc):
    """Each cassette test runs once per recorded model (the others use the `offline` default)."""
    if "real_model" in metafunc.fixturenames:  # those tests choose their models themselves
        return
    if "cassette_model" in metafunc.fixturenames and metafunc.definition.get_closest_marker("vcr"):
        name = metafunc.definition.originalname
        models = [
            m for m in cassette_models()
            if m == "offline" or os.environ.get("GROUNDGATE_CASSETTE_MODEL")
            or any((CASSETTES / model_slug(m)).glob(f"{name}*.yaml"))  # a model recorded for this test
        ]
        metafunc.parametrize("cassette_model", models, ids=[model_slug(m) for m in models], scope="module")


@pytest.fixture(scope="module")
def cassette_model() -> str:
    return "offline"


@pytest.fixture
def default_cassette_name(request) -> str:
    """`<test>[<params>].yaml` inside the model's folder: the model is the folder, not the name."""
    params = getattr(getattr(request.node, "callspec", None), "params", {})
    shown = [str(v) for k, v in params.items() if k != "cassette_model"]
    return request.node.originalname + (f"[{'-'.join(shown)}]" if shown else "")


@pytest.fixture(scope="module")
def vcr_cassette_dir(cassette_model) -> str:
    return str(CASSETTES / model_slug(cassette_model))


@pytest.fixture
def vcr_config():
    return strict_vcr_config()


def _port() -> int:
    with socket.socket() as probe:
        return RECORD_PORT if probe.connect_ex(("127.0.0.1", RECORD_PORT)) != 0 else 0


@pytest.fixture(scope="session")
def offline_endpoint(record_mode):
    """Where offline cassettes are recorded: a running server, or one started here; None in replay."""
    if record_mode == "none":
        yield None
    elif os.environ.get("GROUNDGATE_RECORD_BASE_URL"):
        yield os.environ["GROUNDGATE_RECORD_BASE_URL"].rstrip("/")
    else:
        with ModelServer(port=_port(), clock=lambda: RECORD_CLOCK) as server:
            yield server.base_url


@pytest.fixture
def chat_model(cassette_model, record_mode, request, vcr_cassette_dir):
    """Build the cassette's model: live while recording, with placeholders (never contacted) in replay."""

    def make(**kwargs):
        if cassette_model == "offline":
            base = request.getfixturevalue("offline_endpoint") or f"http://127.0.0.1:{RECORD_PORT}/v1"
            return make_chat_model(f"compatible:{base}#offline", max_retries=0, **kwargs)
        if record_mode != "none":
            folder = Path(vcr_cassette_dir)
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "MODEL").write_text(cassette_model + "\n")
            return make_chat_model(cassette_model, env=os.environ, max_retries=0, **kwargs)
        placeholders = {
            "OPENAI_API_KEY": "replay-placeholder",
            "AZURE_OPENAI_API_KEY": "replay-placeholder",
            "AZURE_OPENAI_ENDPOINT": os.environ.get("AZURE_OPENAI_ENDPOINT", "https://replay.invalid"),
            "OPENAI_API_VERSION": os.environ.get("OPENAI_API_VERSION", "2024-10-21"),
        }
        return make_chat_model(cassette_model, env=placeholders, max_retries=0, **kwargs)

    return make


@pytest.fixture
def recorded_or_skip(cassette_model, record_mode, vcr_cassette_dir, default_cassette_name):
    """Replaying another model's folder: skip the cases that were not recorded for it."""
    missing = not (Path(vcr_cassette_dir) / f"{default_cassette_name}.yaml").exists()
    if record_mode == "none" and cassette_model != "offline" and missing:
        pytest.skip(f"not recorded for {cassette_model}")

import os

import pytest


@pytest.fixture(scope="session")
def minilm():
    """The bundled all-MiniLM-L6-v2 run in numpy, loaded once.

    Skips where the `embeddings` extra or the weights are missing, except under CI, which
    installs both (`.ci/run`): there a missing model is a failure, not a silent skip.
    """
    from groundgate.errors import ConfigError
    from groundgate.knowledge.minilm import MiniLMEmbedder

    try:
        return MiniLMEmbedder()
    except ConfigError as exc:
        if os.environ.get("CI"):
            pytest.fail(f"CI installs the local embedder, yet: {exc}")
        pytest.skip(str(exc))

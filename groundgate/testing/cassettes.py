"""Cassettes for runs that call a chat model over HTTP: strict, scrubbed, offline.

A cassette (VCR.py) records each HTTP exchange with the model once and replays it in
tests, with no key and no network. The settings here are strict on purpose:

- requests match on method, path and the parsed JSON body, so a changed prompt, tool
  schema or question fails loudly (naming the first differing field) instead of
  replaying a stale answer;
- each recorded interaction plays once, and a replay that leaves some unplayed fails;
- ``authorization``, ``api-key``, cookie and organisation headers never reach the file,
  only ``content-type`` of the other headers is kept, and ``find_secrets`` checks files.

Wrap any run, your own graph with groundgate inside included:

```python
from groundgate.testing.cassettes import invoke_with_cassette

out = invoke_with_cassette(graph, {"question": "..."}, "cassettes/my-model/my_test.yaml")
```

Record with ``record_mode="once"`` (or ``"all"``) against a live endpoint, commit the
file, replay with the default ``record_mode="none"``. With pytest-recording, use
``vcr_config()`` as the ``vcr_config`` fixture and ``register_matchers`` in the
``pytest_recording_configure`` hook (see ``tests/replay/conftest.py``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "FILTERED_HEADERS",
    "SECRET_PATTERNS",
    "SecretFinding",
    "UnplayedInteractions",
    "assert_all_played",
    "cassette",
    "find_secrets",
    "invoke_with_cassette",
    "json_body",
    "make_vcr",
    "model_slug",
    "recorded_models",
    "register_matchers",
    "vcr_config",
]

FILTERED_HEADERS = (
    "authorization", "api-key", "x-api-key", "cookie", "set-cookie",
    "openai-organization", "openai-project", "ocp-apim-subscription-key",
)
"""Request headers that are removed before anything is written."""

_KEPT_HEADERS = frozenset({"content-type"})


class UnplayedInteractions(AssertionError):
    """A replay ended with recorded interactions it never used.

    Attributes:
        path: The cassette.
        unplayed: ``METHOD path`` of each interaction left over.
    """

    def __init__(self, path: str, unplayed: list[str]) -> None:
        self.path = path
        self.unplayed = unplayed
        super().__init__(
            f"{len(unplayed)} recorded interaction(s) in {path} were not played: "
            + "; ".join(unplayed)
            + ". The run made fewer model calls than were recorded; re-record the cassette."
        )


def _parsed(body: Any) -> Any:
    if body is None or body == b"" or body == "":
        return None
    try:
        return json.loads(body)
    except (TypeError, ValueError):
        return body


def _first_difference(a: Any, b: Any, path: str = "$") -> str | None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{path}.{key} is only in the {'recorded' if key in b else 'live'} request"
            found = _first_difference(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            found = _first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        if len(a) != len(b):
            return f"{path} has {len(a)} items live, {len(b)} recorded"
        return None
    if a == b:
        return None
    if isinstance(a, str) and isinstance(b, str):
        at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
        start = max(0, at - 30)
        return f"{path} from char {at}: live {a[start : at + 50]!r} != recorded {b[start : at + 50]!r}"
    return f"{path}: live {str(a)[:120]!r} != recorded {str(b)[:120]!r}"


def json_body(live: Any, recorded: Any) -> None:
    """VCR.py matcher: both bodies hold the same JSON (key order and spacing aside).

    Raises:
        AssertionError: The bodies differ; the message names the first differing field.
    """
    difference = _first_difference(_parsed(live.body), _parsed(recorded.body))
    if difference:
        raise AssertionError(f"JSON bodies differ: {difference}")


def _keep_safe_request_headers(request: Any) -> Any:
    for name in list(request.headers):
        if name.lower() not in _KEPT_HEADERS:
            del request.headers[name]
    return request


def _keep_safe_response_headers(response: dict[str, Any]) -> dict[str, Any]:
    response["headers"] = {k: v for k, v in response.get("headers", {}).items() if k.lower() in _KEPT_HEADERS}
    return response


def vcr_config(**overrides: Any) -> dict[str, Any]:
    """The strict cassette settings (a pytest-recording ``vcr_config`` fixture can return this)."""
    config: dict[str, Any] = {
        "match_on": ("method", "path", "json_body"),
        "filter_headers": list(FILTERED_HEADERS),
        "filter_query_parameters": ["api-key", "key", "sig"],
        "before_record_request": _keep_safe_request_headers,
        "before_record_response": _keep_safe_response_headers,
        "decode_compressed_response": True,
        "allow_playback_repeats": False,
        "record_on_exception": False,
    }
    config.update(overrides)
    return config


def register_matchers(vcr: Any) -> None:
    """Register the ``json_body`` matcher on a ``vcr.VCR`` (pytest-recording's configure hook)."""
    vcr.register_matcher("json_body", json_body)


def make_vcr(record_mode: str = "none") -> Any:
    """A ``vcr.VCR`` with the ``json_body`` matcher registered; pass ``vcr_config()`` to ``use_cassette``."""
    import vcr

    recorder = vcr.VCR(record_mode=record_mode)
    register_matchers(recorder)
    return recorder


def assert_all_played(cassette: Any) -> None:
    """Fail when a replayed cassette has interactions the run did not use.

    Raises:
        UnplayedInteractions: Some recorded interactions were never played.
    """
    if cassette.all_played:
        return
    unplayed = [
        f"#{i + 1} {request.method} {request.path}"
        for i, (request, _) in enumerate(cassette.data)
        if not cassette.play_counts[i]
    ]
    raise UnplayedInteractions(str(cassette._path), unplayed)


@contextmanager
def cassette(path: Path | str, *, record_mode: str = "none", **overrides: Any) -> Iterator[Any]:
    """Record to or replay from the cassette at ``path``, strictly.

    In ``record_mode="none"`` (the default) a request with no recorded match raises
    ``CannotOverwriteExistingCassetteException`` before any connection is made, and
    leaving recorded interactions unplayed raises ``UnplayedInteractions``.
    """
    with make_vcr(record_mode).use_cassette(str(path), **vcr_config(**overrides)) as tape:
        yield tape
    if record_mode == "none":
        assert_all_played(tape)


def invoke_with_cassette(
    graph: Any, inputs: Any, path: Path | str, *, record_mode: str = "none", **invoke: Any
) -> Any:
    """``graph.invoke(inputs, **invoke)`` with every HTTP call recorded to or replayed from ``path``."""
    with cassette(path, record_mode=record_mode):
        return graph.invoke(inputs, **invoke)


SECRET_PATTERNS: dict[str, re.Pattern[str]] = {
    "bearer token": re.compile(r"(?i)\bbearer\s+[A-Za-z0-9._~+/=-]{8,}"),
    "openai key": re.compile(r"\bsk-[A-Za-z0-9_-]{16,}"),
    "secret header": re.compile(
        r"(?im)^[ \t]*['\"]?(authorization|api-key|x-api-key|cookie|set-cookie|openai-organization|"
        r"ocp-apim-subscription-key)['\"]?:[ \t]*(\n[ \t]*-[ \t]*)?[^\s\[\]{}]\S*"
    ),
    "key value": re.compile(
        r"(?i)['\"]?\b(api[_-]?key|access[_-]?token|client[_-]?secret|password)['\"]?\s*[:=]\s*['\"]?"
        r"[A-Za-z0-9_\-./+]{12,}"
    ),
    "key in url": re.compile(r"(?i)[?&](api-key|key|sig|access_token)=[^&\s\"']{8,}"),
    "jwt": re.compile(r"\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}"),
    "aws key": re.compile(r"\bAKIA[0-9A-Z]{16}\b"),
}
"""What ``find_secrets`` looks for."""


@dataclass(frozen=True)
class SecretFinding:
    """Something that looks like a secret.

    Attributes:
        path: The file.
        line: 1-based line of the match.
        kind: Which pattern matched (a ``SECRET_PATTERNS`` key).
        excerpt: The start of the match, the rest masked.
    """

    path: Path
    line: int
    kind: str
    excerpt: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.kind}: {self.excerpt}"


def find_secrets(root: Path | str) -> list[SecretFinding]:
    """Every secret-looking string in the files under ``root`` (or in the file ``root``)."""
    base = Path(root)
    files = [base] if base.is_file() else sorted(p for p in base.rglob("*") if p.is_file())
    findings = []
    for path in files:
        text = path.read_bytes().decode("utf-8", errors="replace")
        for kind, pattern in SECRET_PATTERNS.items():
            for match in pattern.finditer(text):
                shown = match.group(0).strip()
                findings.append(SecretFinding(path, text.count("\n", 0, match.start()) + 1, kind,
                                              shown[:12] + "…" * (len(shown) > 12)))
    return findings


def model_slug(spec: str) -> str:
    """The cassette folder of a model spec: ``offline``, ``openai-gpt-4o-mini``, ``compatible-http-...``."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", spec).strip("-")


def recorded_models(folder: Path | str) -> list[str]:
    """The model specs that have cassettes below ``folder`` (each subfolder's MODEL file), sorted."""
    return sorted(p.read_text().strip() for p in Path(folder).glob("*/MODEL"))

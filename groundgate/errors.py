"""The one error root of groundgate and its three families.

```
GroundgateError
 ├── ToolFailure            the model should see it: returned inside an error envelope
 ├── ConfigError            developer misuse: bad settings, unknown model spec, bad arguments
 │    └── ModelUnavailable  a configured model endpoint cannot be reached
 ├── CorpusError            a corpus file is malformed (carries path and line)
 ├── StoreError             the knowledge store cannot serve a request
 └── RunFailure             a run stopped for a reason with fields
      └── BoundTripped      a hard bound (rounds, tokens, wall clock) was reached
```

Branch on these types, never on message text.
"""

from __future__ import annotations

from pathlib import Path

__all__ = [
    "BoundTripped",
    "ConfigError",
    "CorpusError",
    "GroundgateError",
    "ModelUnavailable",
    "RunFailure",
    "StoreError",
    "ToolFailure",
]


class GroundgateError(Exception):
    """Root of every error groundgate raises on purpose."""


class ToolFailure(GroundgateError):
    """A tool could not serve a call; turned into an error envelope for the model."""


class ConfigError(GroundgateError):
    """The caller configured or called groundgate in a way it cannot honour."""


class ModelUnavailable(ConfigError):
    """A configured chat model endpoint could not be reached or refused the request."""


class StoreError(GroundgateError):
    """The knowledge store failed to serve a request."""


class CorpusError(GroundgateError):
    """A corpus file is malformed.

    Attributes:
        path: The offending file.
        line: 1-based line number of the problem, when known.
        problem: What is wrong, in a few words.
    """

    def __init__(self, path: Path | str, line: int | None, problem: str) -> None:
        self.path = Path(path)
        self.line = line
        self.problem = problem
        where = f"{self.path}:{line}" if line else str(self.path)
        super().__init__(f"{where}: {problem}")


class RunFailure(GroundgateError):
    """A run stopped early for a reason carried in fields."""


class BoundTripped(RunFailure):
    """A hard bound was reached.

    Attributes:
        bound: Which bound: ``"rounds"``, ``"tokens"`` or ``"wall_clock"``.
        limit: The configured limit.
        used: How much had been used when the bound tripped.
    """

    def __init__(self, bound: str, limit: float, used: float) -> None:
        self.bound = bound
        self.limit = limit
        self.used = used
        super().__init__(f"bound {bound!r} tripped: used {used} of {limit}")

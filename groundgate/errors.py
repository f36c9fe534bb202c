"""The one error root of groundgate and its three families.

```
GroundgateError
 ├── ToolFailure            the model should see it: returned inside an error envelope
 ├── ConfigError            developer misuse: bad settings, unknown model spec, bad arguments
 ├── CorpusError            a corpus file is malformed (carries path and line)
 ├── StoreError             the knowledge store cannot serve a request
 └── RunError               a run could not do all it was asked; fields say what stopped it
      ├── ModelUnavailable  the chat model failed or could not be reached (model, purpose)
      └── BoundTripped      a hard bound was reached (bound, limit, used)
```

A run does not raise its ``RunError``: it composes from what it gathered and its answer
says what stopped it (``answer.bound_tripped``, ``extras.model_error``). A caller that
would rather fail asks the result for the error (``RunResult.run_error()``) or raises it
(``RunResult.raise_for_run_error()``), as httpx's ``raise_for_status``. Branch on these
types, never on message text.
"""

from __future__ import annotations

from pathlib import Path

__all__ = [
    "BoundTripped",
    "ConfigError",
    "CorpusError",
    "GroundgateError",
    "ModelUnavailable",
    "RunError",
    "StoreError",
    "ToolFailure",
]


class GroundgateError(Exception):
    """Root of every error groundgate raises on purpose."""


class ToolFailure(GroundgateError):
    """A tool could not serve a call; turned into an error envelope for the model."""


class ConfigError(GroundgateError):
    """The caller configured or called groundgate in a way it cannot honour."""


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


class RunError(GroundgateError):
    """A run could not do all it was asked; its fields say what stopped it."""


class ModelUnavailable(RunError):
    """A configured chat model failed or could not be reached during a run.

    Attributes:
        model: The model's name.
        purpose: The call that failed: ``plan``, ``answer`` or ``revision``.
        error: What the call raised, in words.
    """

    def __init__(self, model: str, purpose: str, error: str) -> None:
        self.model = model
        self.purpose = purpose
        self.error = error
        super().__init__(f"the model {model!r} failed ({purpose}): {error}")


class BoundTripped(RunError):
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

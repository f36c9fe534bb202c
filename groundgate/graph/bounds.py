"""The hard bounds of a run, and their defaults: the one place those numbers are defined.

Kept apart from ``graph.context`` (which pulls in LangChain) so that the command line can
take its option defaults from ``Bounds()`` without importing the agent. Both lanes check
them here (``Bounds.first_reached``); the bound that stopped a run is a ``TrippedBound``
in its state and its answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from typing_extensions import TypedDict

from groundgate.errors import BoundTripped, ConfigError

__all__ = ["Bound", "Bounds", "TrippedBound", "bound_error"]

Bound = Literal["rounds", "tokens", "wall_clock"]
"""The bounds a run can trip (the tool timeout turns one call into an error envelope instead)."""


class TrippedBound(TypedDict):
    """The bound that stopped a run: plain data, so state, answers and run files hold it as is."""

    bound: Bound
    """Which bound."""
    limit: int | float
    """The configured limit."""
    used: int | float
    """How much had been used (rounds, tokens, or seconds) when it tripped."""


def bound_error(tripped: TrippedBound) -> BoundTripped:
    """The run error of a tripped bound, for a caller that would rather raise it."""
    return BoundTripped(tripped["bound"], tripped["limit"], tripped["used"])


@dataclass(frozen=True)
class Bounds:
    """Hard limits enforced in code; the model cannot raise them."""

    max_rounds: int = 8
    """Tool rounds before the run must compose."""
    token_budget: int = 60_000
    """Model tokens (input + output) before the run must compose."""
    wall_clock_s: float = 60.0
    """Seconds before the run must compose."""
    tool_timeout_s: float = 10.0
    """Seconds one tool call may take before it becomes an error envelope."""
    max_calls_per_round: int = 16
    """Tool calls run in one round; a model that asks for more has the rest dropped, and is told."""

    def __post_init__(self) -> None:
        if self.max_rounds < 1 or self.token_budget < 1 or self.wall_clock_s <= 0:
            raise ConfigError("bounds must be positive: max_rounds, token_budget, wall_clock_s")
        if self.tool_timeout_s <= 0:
            raise ConfigError("tool_timeout_s must be positive")
        if self.max_calls_per_round < 1:
            raise ConfigError("max_calls_per_round must be positive")

    def limit(self, bound: Bound) -> int | float:
        """The limit of ``bound``."""
        limits = {"rounds": self.max_rounds, "tokens": self.token_budget, "wall_clock": self.wall_clock_s}
        return limits[bound]

    def tripped(self, bound: Bound, used: int | float) -> TrippedBound:
        """``bound`` reached at ``used``."""
        return TrippedBound(bound=bound, limit=self.limit(bound), used=used)

    def first_reached(self, *, rounds: int, tokens: int, elapsed_s: float) -> TrippedBound | None:
        """The first bound (rounds, tokens, wall clock) that ``used >= limit``, if any."""
        used: dict[Bound, int | float] = {"rounds": rounds, "tokens": tokens, "wall_clock": elapsed_s}
        for bound in ("rounds", "tokens", "wall_clock"):
            if used[bound] >= self.limit(bound):
                return self.tripped(bound, used[bound])
        return None

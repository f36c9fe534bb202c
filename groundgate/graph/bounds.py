"""The hard bounds of a run, and their defaults: the one place those numbers are defined.

Kept apart from ``graph.context`` (which pulls in LangChain) so that the command line can
take its option defaults from ``Bounds()`` without importing the agent.
"""

from __future__ import annotations

from dataclasses import dataclass

from groundgate.errors import ConfigError

__all__ = ["Bounds"]


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

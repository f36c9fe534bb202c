"""Chat models: the offline planner and the factory for real ones."""

from __future__ import annotations

from typing import Any

__all__ = ["writes_answers"]


def writes_answers(model: Any) -> bool:
    """Whether a chat model writes answers and revisions itself.

    The offline planner only plans tool rounds: its final answer is the run's reader's
    (``groundgate.reading``), and it has nothing to add to a revision pass.
    """
    return model is not None and not getattr(model, "reads_with_reader", False)

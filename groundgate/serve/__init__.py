"""The offline planner served as an OpenAI-compatible Chat Completions endpoint."""

from groundgate.serve.server import ModelServer

__all__ = ["ModelServer"]

"""Save a run, replay its tool calls against the current store, and diff the outcome."""

from groundgate.replay.diff import CallDiff, RunDiff, diff_runs
from groundgate.replay.model import ReplayedModel
from groundgate.replay.record import (
    RUN_FORMAT,
    canonical_json,
    comparable,
    load_run,
    run_record,
    save_run,
)
from groundgate.replay.run import Replay, replay_run

__all__ = [
    "RUN_FORMAT",
    "CallDiff",
    "Replay",
    "ReplayedModel",
    "RunDiff",
    "canonical_json",
    "comparable",
    "diff_runs",
    "load_run",
    "replay_run",
    "run_record",
    "save_run",
]

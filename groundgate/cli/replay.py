"""``groundgate replay``: re-execute a saved run's tool calls against the current store."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from groundgate.cli.common import StoreOpt, fail, settings
from groundgate.cli.terminal import out
from groundgate.errors import GroundgateError

__all__ = ["replay"]


def replay(
    run_file: Annotated[Path, typer.Argument(help="A run file written by `groundgate ask --save-run`.")],
    store: StoreOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the diff as one JSON object.")] = False,
    save_run: Annotated[Path | None, typer.Option("--save-run", help="Write the replayed run here.")] = None,
) -> None:
    """Replay a saved run against the current store and diff results, citations and answer.

    Exits 0 when the replay agrees with the recording, 1 when anything differs.
    """
    from groundgate.knowledge.default import open_store
    from groundgate.knowledge.embed import make_embedder
    from groundgate.replay import load_run, replay_run
    from groundgate.replay import save_run as write_run

    try:
        run = load_run(run_file)
        record = run["record"]
        target = store or (Path(record["store"]) if record.get("store") else None)
        if target is not None and not target.exists():
            raise fail(f"the store {target} does not exist; pass --store PATH")
        embedder = make_embedder(record.get("embedder"))
        opened = open_store(target, cache_dir=settings().cache_dir, embedder=embedder)
        try:
            result = replay_run(run, opened, embedder=embedder)
        finally:
            opened.close()
    except GroundgateError as exc:
        raise fail(str(exc)) from None
    if save_run is not None:
        write_run(save_run, result.replayed)
    diff = result.diff
    calls = len(record["envelopes"])
    where = str(target) if target else "the bundled corpus"
    summary = f"({calls} tool calls re-executed on {where})"
    if as_json:
        out.print_json(json.dumps({"store": where, "tool_calls": calls, **diff.to_json()}))
    elif diff.same:
        out.print(f"replay: same results, citations and answer {summary}")
    else:
        out.print(f"replay: differs from the recording {summary}")
        for line in diff.lines():
            out.print(line)
    raise typer.Exit(0 if diff.same else 1)

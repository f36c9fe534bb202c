"""``groundgate ingest``: a corpus folder into a store, in one transaction."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Annotated

import typer
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

from groundgate.cli.common import check_backend, fail
from groundgate.cli.terminal import err, out
from groundgate.errors import CorpusError, GroundgateError
from groundgate.knowledge.ingest.parts import PART_DOCUMENTS
from groundgate.settings import Settings

__all__ = ["Stopped", "ingest"]


class Stopped(BaseException):
    """SIGTERM or SIGINT arrived during an ingest.

    A ``BaseException``, as ``KeyboardInterrupt`` is, so no ``except Exception`` on the way
    swallows it, and the ingest's own clean-up (the transaction rolled back, the temporary
    file removed) runs as for any failure.
    """

    def __init__(self, signum: int) -> None:
        """``signum``: the signal that stopped the ingest."""
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


@contextmanager
def _stopped_by_signals() -> Iterator[None]:
    """Turn SIGTERM and SIGINT into ``Stopped`` while the block runs (main thread only).

    Without this, SIGTERM ends the process at once and leaves the temporary store file (or
    a hot journal) behind. The first signal raises; any later one is ignored so that the
    clean-up it started can finish.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    seen: list[int] = []

    def stop(signum: int, frame: FrameType | None) -> None:
        if not seen:
            seen.append(signum)
            raise Stopped(signum)

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def ingest(
    folder: Annotated[
        Path | None, typer.Argument(help="Corpus folder (default: the bundled corpus).")
    ] = None,
    store: Annotated[
        Path, typer.Option("--store", help="SQLite store to write (created if missing).")
    ] = Path("groundgate.sqlite"),
    embedder: Annotated[
        str | None,
        typer.Option(help="none, hashing, local[:folder], sentence-transformers[:model] or openai:<model>."),
    ] = None,
    backend: Annotated[
        str,
        typer.Option(
            "--backend", help="embedded (SQLite at --store) or azure (GROUNDGATE_AZURE_* settings)."
        ),
    ] = "embedded",
    batch_documents: Annotated[
        int,
        typer.Option(
            "--batch-documents", min=1,
            help="Documents (with their chunks and vectors) held in memory at once while they are "
            "written; smaller uses less memory and is slower. The store written is the same.",
        ),
    ] = PART_DOCUMENTS,
) -> None:
    """Ingest a folder of documents and declared knowledge into a store, in one transaction."""
    from groundgate.knowledge.backends import get_backend
    from groundgate.knowledge.default import bundled_corpus
    from groundgate.knowledge.embed import make_embedder

    source = folder or bundled_corpus()
    # Ingest writes where --store says, whatever GROUNDGATE_STORE is; it reads no other setting.
    settings = Settings(store_path=store, embedder=embedder, backend=backend)
    where = str(store)
    before = _file_state(store)
    target = None
    try:
        embed = make_embedder(embedder)
        check_backend(backend)
        target = get_backend(backend)
        with _stopped_by_signals(), Progress(
            TextColumn("{task.description}", markup=False), BarColumn(),
            TextColumn("{task.completed}/{task.total}"),
            TimeElapsedColumn(), console=err, transient=True, disable=not err.is_terminal,
        ) as bar:
            tasks: dict[str, TaskID] = {}

            def progress(stage: str, done: int, total: int) -> None:
                if stage not in tasks:
                    tasks[stage] = bar.add_task(stage, total=total)
                bar.update(tasks[stage], completed=done)

            where = target.describe(settings, os.environ)
            report = target.ingest(
                settings, source, embedder=embed, progress=progress, env=os.environ,
                batch_documents=batch_documents,
            )
    except CorpusError as exc:
        raise fail(f"{exc}\nnothing was written to {where}") from None
    except (Stopped, KeyboardInterrupt) as exc:
        signum = exc.signum if isinstance(exc, Stopped) else signal.SIGINT
        name = signal.Signals(signum).name
        if target is not None and not target.atomic:
            outcome = f"the ingest into {where} did not finish; run it again to complete it"
        elif _file_state(store) != before:  # the signal came just after the store was committed
            outcome = f"the ingest into {where} had finished and was kept"
        else:
            outcome = f"nothing was written to {where}"
        raise fail(f"stopped by {name}: {outcome}", code=128 + signum) from None
    except GroundgateError as exc:
        raise fail(str(exc)) from None
    w = report.write
    out.print(  # markup off: paths and file names are the user's text
        f"ingested {source} into {where}\n"
        f"  documents      {report.documents} ({w.documents_written} written, "
        f"{w.documents_unchanged} unchanged)\n"
        f"  chunks         {w.chunks_written} written\n"
        f"  entities       {report.entities}\n"
        f"  relationships  {report.relationships} ({w.relationships_written} written, "
        f"{w.relationships_retired} retired)\n"
        f"  contradictions {report.contradictions_declared} declared, "
        f"{report.contradictions_detected} detected, {w.contradictions_opened} newly opened\n"
        f"  resolution     {report.resolution_decisions} decisions logged"
        + (f"\n  skipped        {len(report.skipped)} files, not read:" if report.skipped else "")
        + "".join(f"\n                 {name}" for name in report.skipped),
        markup=False,
    )


def _file_state(path: Path) -> bytes | None:
    """The SQLite file change counter of ``path`` (``None``: absent or unreadable).

    SQLite adds one to it with every committed write and a rollback restores it, so it tells
    a committed ingest from a rolled-back one, where the file's time and size may not.
    """
    try:
        with path.open("rb") as file:
            return file.read(28)[24:]
    except OSError:
        return None

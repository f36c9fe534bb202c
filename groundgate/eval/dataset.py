"""Golden sets: ``questions.jsonl`` read and checked line by line, and dataset folders.

A dataset folder holds ``corpus/`` (as ``groundgate ingest`` reads it) and
``questions.jsonl``; it is ingested into a fresh temporary store. A bad line is a
``CorpusError`` naming the file and line, and nothing is evaluated.

Every question is in the ``dev`` split (what heuristics may be tuned on) or the ``test``
split (what is reported); ``select_split`` keeps one of them.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from groundgate.errors import ConfigError, CorpusError
from groundgate.knowledge.backends import OpenedStore
from groundgate.knowledge.default import ingest_to_path, open_store
from groundgate.knowledge.embed import Embedder
from groundgate.knowledge.port import KnowledgeStore
from groundgate.tools.registry import ALL_TOOLS

__all__ = ["SPLITS", "GoldQuestion", "Split", "dataset_store", "load_questions", "select_split"]

Split = Literal["dev", "test"]
"""The two halves of a set: tune on ``dev``, report ``test``."""
SPLITS: tuple[str, ...] = ("dev", "test", "all")
"""What ``--split`` accepts: one half, or every question."""


class GoldQuestion(BaseModel):
    """One labelled question of a golden set."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    qid: str = Field(min_length=1)
    """Unique id within the set."""
    question: str = Field(min_length=1)
    """The question, in plain words."""
    as_of: date | None = None
    """The date the question is asked as of, if any."""
    gold_keywords: tuple[tuple[str, ...], ...]
    """Answer facts as keyword groups: every group must appear, any alternative in a group counts."""
    expected_source_ids: tuple[str, ...]
    """Sources a good answer cites."""
    expected_paths: tuple[tuple[str, ...], ...] = ()
    """Relationship paths (``source, type, target``) a good answer walks."""
    contested: bool
    """Whether the organisation's sources disagree on the answer with nothing decided."""
    answerable: bool
    """Whether the sources answer the question at all."""
    category: str = Field(min_length=1)
    """A label for grouping (single-hop, multi-hop, temporal, contested, ...)."""
    expected_tools: tuple[str, ...] = ()
    """The calls a competent analyst would make, in order."""
    split: Split
    """``dev`` (heuristics may be tuned on it) or ``test`` (held out, what is reported)."""
    needs_agent: bool | None = None
    """Whether lane A cannot answer it alone (for routing correctness)."""
    expected_lead: Literal["Yes", "No"] | None = None
    """For a yes/no question a source answers: the word the answer's first sentence starts with."""

    @field_validator("gold_keywords")
    @classmethod
    def _groups(cls, value: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
        if any(not group or any(not k.strip() for k in group) for group in value):
            raise ValueError("every keyword group needs at least one non-empty alternative")
        return value

    @model_validator(mode="after")
    def _lead(self) -> GoldQuestion:
        if self.expected_lead is not None and (not self.answerable or self.contested):
            raise ValueError("expected_lead is for an answerable, uncontested yes/no question "
                             "(an answer to a contested one must not take a side)")
        return self

    @field_validator("expected_tools")
    @classmethod
    def _tools(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        unknown = [t for t in value if t not in ALL_TOOLS]
        if unknown:
            raise ValueError(f"unknown tools {unknown}; the tools are {', '.join(ALL_TOOLS)}")
        return value


def _problem(exc: ValidationError) -> str:
    parts = []
    for error in exc.errors():
        where = ".".join(str(p) for p in error["loc"]) or "line"
        message = error["msg"]
        if error["type"] == "extra_forbidden":
            message = "unknown field (allowed: " + ", ".join(GoldQuestion.model_fields) + ")"
        parts.append(f"{where}: {message}")
    return "; ".join(parts)


def load_questions(path: Path, store: KnowledgeStore | None = None) -> list[GoldQuestion]:
    """Read and check every line of ``path``; with ``store``, expected sources must exist.

    Raises:
        CorpusError: A line is not JSON, misses or mistypes a field, repeats a qid, or
            (with ``store``) names a source the store does not hold.
    """
    if not path.is_file():
        raise ConfigError(f"no questions file at {path}")
    questions: list[GoldQuestion] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CorpusError(path, number, f"not valid JSON: {exc.msg}") from None
        if not isinstance(data, dict):
            raise CorpusError(path, number, "each line must be one JSON object")
        try:
            item = GoldQuestion.model_validate(data)
        except ValidationError as exc:
            raise CorpusError(path, number, _problem(exc)) from None
        if item.qid in seen:
            raise CorpusError(path, number, f"qid {item.qid!r} repeats line {seen[item.qid]}")
        seen[item.qid] = number
        if store is not None:
            missing = [s for s in item.expected_source_ids if store.get_document(s) is None]
            if missing:
                problem = f"expected_source_ids name no document in the corpus: {missing}"
                raise CorpusError(path, number, problem)
        questions.append(item)
    if not questions:
        raise CorpusError(path, None, "no questions")
    return questions


def select_split(questions: Sequence[GoldQuestion], split: str) -> list[GoldQuestion]:
    """The questions of ``split`` (``dev``, ``test``, or ``all`` for every one), in order.

    Raises:
        ConfigError: ``split`` is none of those, or no question is in it.
    """
    if split not in SPLITS:
        raise ConfigError(f"unknown split {split!r}; choose from {', '.join(SPLITS)}")
    chosen = [q for q in questions if split == "all" or q.split == split]
    if not chosen:
        raise ConfigError(f"no question is in the {split} split")
    return chosen


@contextmanager
def dataset_store(folder: Path, *, embedder: Embedder | None = None) -> Iterator[tuple[OpenedStore, Path]]:
    """Ingest ``folder/corpus`` into a fresh temporary store, deleted afterwards.

    Yields the store (read-only) and the path of ``folder/questions.jsonl``.

    Raises:
        ConfigError: The folder lacks ``corpus/`` or ``questions.jsonl``.
        CorpusError: A corpus file is malformed (nothing is evaluated).
    """
    corpus, questions = folder / "corpus", folder / "questions.jsonl"
    if not corpus.is_dir():
        raise ConfigError(f"{folder} has no corpus/ folder (documents and knowledge YAML, as for ingest)")
    if not questions.is_file():
        raise ConfigError(f"{folder} has no questions.jsonl")
    workdir = Path(tempfile.mkdtemp(prefix="groundgate-eval-"))
    try:
        path = workdir / "store.sqlite"
        ingest_to_path(path, corpus, embedder=embedder)
        store = open_store(path, cache_dir=workdir)
        try:
            yield store, questions
        finally:
            store.close()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

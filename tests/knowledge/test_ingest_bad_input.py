"""The bad-input suite: every kind of bad corpus input is a clean error and writes nothing.

Each case adds one bad thing to a valid corpus (the conformance corpus) and ingests it
twice: through ``ingest_to_path`` into a store that does not exist yet (it must still not
exist after), and through ``groundgate ingest`` into a store that does (its bytes must
not change). Both must fail with a ``CorpusError`` (or ``StoreError`` for the store
cases) naming the file, the line where there is one, and the problem; the CLI must exit
with code 2 and print no traceback. The case ids name the kinds.
"""

import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from typer.testing import CliRunner

from groundgate.cli import app
from groundgate.errors import CorpusError, StoreError
from groundgate.knowledge.default import ingest_to_path
from groundgate.knowledge.ingest import plan
from groundgate.knowledge.ingest.limits import MAX_FILE_BYTES, MAX_YAML_DEPTH
from groundgate.testing.conformance import conformance_corpus
from groundgate.testing.files import make_unreadable

runner = CliRunner()

Prepare = Callable[[Path, pytest.MonkeyPatch], Path | None]
"""Changes the corpus at the given root beyond writing files; may return another root."""


@dataclass(frozen=True)
class Bad:
    """One kind of bad input and the error it must give."""

    files: dict[str, str | bytes] = field(default_factory=dict)
    where: str | None = "docs/bad.md"
    """The file the error names, under the corpus; ``None``: the folder ingested."""
    line: int | None = None
    problem: str = ""
    """Words the problem must contain."""
    prepare: Prepare | None = None


def doc(extra: str) -> dict[str, str | bytes]:
    """docs/bad.md with ``extra`` front matter from line 4."""
    return {"docs/bad.md": f"---\nid: BAD-1\ntitle: Bad\n{extra}---\n# Bad\n\nBody text.\n"}


def front(text: str) -> dict[str, str | bytes]:
    """docs/bad.md with exactly ``text`` as its front matter, from line 2."""
    return {"docs/bad.md": f"---\n{text}---\n# Bad\n\nBody text.\n"}


def knowledge(text: str | bytes) -> dict[str, str | bytes]:
    return {"knowledge/bad.yaml": text}


def in_knowledge(bad: Bad) -> Bad:
    return Bad(bad.files, "knowledge/bad.yaml", bad.line, bad.problem, bad.prepare)


def deep_flow(depth: int) -> str:
    return "[" * depth + "]" * depth


def deep_block(depth: int, indent: int = 0) -> str:
    return "".join(" " * (indent + i) + f"k{i}:\n" for i in range(depth)) + " " * (indent + depth) + "v\n"


def bomb(indent: str) -> str:
    lines = [f'{indent}a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n']
    for level in range(8):
        name, below = chr(98 + level), chr(97 + level)
        lines.append(f"{indent}{name}: &{name} [{','.join(['*' + below] * 9)}]\n")
    return "".join(lines)


def beside(root: Path) -> Path:
    """A folder next to the corpus, outside it, with a document in it."""
    outside = root.parent / "outside"
    outside.mkdir(exist_ok=True)
    (outside / "secret.md").write_text("---\nid: SECRET\n---\nsecret\n")
    return outside


def link_out_file(root: Path, monkeypatch) -> None:
    (root / "docs" / "bad.md").symlink_to(beside(root) / "secret.md")


def link_out_folder(root: Path, monkeypatch) -> None:
    (root / "docs" / "bad.md").symlink_to(beside(root))


def link_nowhere(root: Path, monkeypatch) -> None:
    (root / "docs" / "bad.md").symlink_to(root / "docs" / "gone.md")


def over_size_limit(root: Path, monkeypatch) -> None:
    with (root / "docs" / "bad.md").open("wb") as handle:  # sparse: no disk, no time
        handle.truncate(MAX_FILE_BYTES + 1)


def unreadable(root: Path, monkeypatch) -> None:
    """docs/bad.md cannot be opened."""
    make_unreadable(root / "docs" / "bad.md", monkeypatch)


def disappears(root: Path, monkeypatch) -> None:
    listed = plan.walk_corpus

    def walk_then_delete(folder):
        (root / "docs" / "bad.md").write_text("# Bad\n")  # each ingest lists it, then loses it
        files = listed(folder)
        (root / "docs" / "bad.md").unlink()
        return files

    monkeypatch.setattr(plan, "walk_corpus", walk_then_delete)


def unlistable(root: Path, monkeypatch) -> None:
    (root / "docs" / "bad.md").mkdir()
    real_scandir = os.scandir

    def scandir(path="."):
        if Path(path) == root / "docs" / "bad.md":
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)


def missing(root: Path, monkeypatch) -> Path:
    return root / "not-there"


def a_file(root: Path, monkeypatch) -> Path:
    return root / "docs" / "handbook-v1.md"


def nothing_to_read(root: Path, monkeypatch) -> Path:
    (root / "images").mkdir()
    (root / "images" / "logo.png").write_bytes(b"\x89PNG")
    return root / "images"


ENTITY = "entities:\n  - id: concept:bad\n"
EDGE = "relationships:\n  - source: LIB-001\n    type: governs\n    target: rule:late-fee\n"
ENTRY = "contradictions:\n  - id: CTR-BAD\n    topic: Whether it is bad\n"
POSITIONS = (
    "    positions:\n      - {statement: It is., source_ids: [LIB-001]}\n"
    "      - {statement: It is not., source_ids: [LIB-002]}\n"
)

CASES: dict[str, Bad] = {
    # ---- front matter ---------------------------------------------------------------
    "fm-never-closed": Bad({"docs/bad.md": "---\nid: BAD-1\n# Bad\n"}, line=1, problem="never closed"),
    "fm-not-a-mapping": Bad(front("- a\n- b\n"), line=2, problem="must be a mapping"),
    "fm-yaml-syntax": Bad(doc("tags: [a, b\n"), line=5, problem="bad YAML"),
    "fm-tab-indentation": Bad(doc("meta:\n\tkey: v\n"), line=5, problem="bad YAML"),
    "fm-id-list": Bad(front("id: [A, B]\n"), line=2, problem="'id' must be text, not a list"),
    "fm-id-mapping": Bad(front("id: {a: 1}\n"), line=2, problem="'id' must be text, not a mapping"),
    "fm-id-two-lines": Bad(front('id: "A\\nB"\n'), line=2, problem="one line"),
    "fm-id-escaped-nul": Bad(front('id: "A\\0B"\n'), line=2, problem="NUL"),
    "fm-id-blank": Bad(front('id: "   "\n'), line=2, problem="empty 'id'"),
    "fm-id-duplicate": Bad(  # named where the second is read, with the first
        front("id: LIB-001\n"), "docs/handbook-v1.md", line=2, problem="docs/bad.md)"
    ),
    "fm-title-list": Bad(front("id: BAD-1\ntitle: [A, B]\n"), line=3, problem="'title' must be text"),
    "fm-title-mapping": Bad(front("id: BAD-1\ntitle: {a: 1}\n"), line=3, problem="'title' must be text"),
    "fm-title-boolean": Bad(front("id: BAD-1\ntitle: yes\n"), line=3, problem="true/false"),
    "fm-kind-list": Bad(doc("kind: [faq]\n"), line=4, problem="'kind' must be text"),
    "fm-version-mapping": Bad(doc("version: {major: 1}\n"), line=4, problem="'version' must be text"),
    "fm-url-list": Bad(doc("url: [https://a.example, https://b.example]\n"), line=4, problem="'url'"),
    "fm-owner-mapping": Bad(doc("owner: {name: X}\n"), line=4, problem="'owner' must be text"),
    "fm-date-words": Bad(doc("effective_from: next tuesday\n"), line=4, problem="bad date"),
    "fm-date-impossible": Bad(doc("effective_from: 2026-13-45\n"), line=4, problem="bad date"),
    "fm-date-list": Bad(doc("published_at: [2024-01-01]\n"), line=4, problem="bad date"),
    "fm-date-number": Bad(doc("published_at: 2024\n"), line=4, problem="bad date"),
    "fm-window-reversed": Bad(
        doc("effective_from: 2025-01-01\neffective_to: 2024-01-01\n"), line=5, problem="not after"
    ),
    "fm-supersedes-unknown": Bad(doc("supersedes: NOPE-1\n"), line=4, problem="unknown document"),
    "fm-supersedes-mapping": Bad(doc("supersedes: {a: 1}\n"), line=4, problem="'supersedes'"),
    "fm-entities-unknown": Bad(doc("entities: [concept:nope]\n"), line=4, problem="unknown id"),
    "fm-entities-nested-list": Bad(doc("entities: [[a]]\n"), line=4, problem="'entities'"),
    "fm-binary-metadata": Bad(doc("blob: !!binary aGVsbG8=\n"), line=4, problem="binary data"),
    "fm-set-metadata": Bad(doc("tags: !!set {a, b}\n"), line=4, problem="a set"),
    "fm-python-tag": Bad(doc("x: !!python/object/apply:os.system [ls]\n"), line=4, problem="constructor"),
    "fm-duplicate-anchor": Bad(doc("a: &x 1\nb: &x 2\n"), line=5, problem="defined twice (first on line 4)"),
    "fm-undefined-alias": Bad(doc("a: *nope\n"), line=4, problem="undefined alias"),
    "fm-deep-flow-nesting": Bad(doc(f"deep: {deep_flow(200_000)}\n"), line=4, problem="MAX_YAML_DEPTH"),
    "fm-deep-block-nesting": Bad(doc(deep_block(5_000)), line=4 + MAX_YAML_DEPTH, problem="MAX_YAML_DEPTH"),
    "fm-alias-bomb": Bad(doc(bomb("")), line=9, problem="MAX_YAML_ALIAS_NODES"),
    # ---- document files -------------------------------------------------------------
    "md-not-utf8": Bad({"docs/bad.md": b"# Bad\n\nCaf\xe9 text.\n"}, line=3, problem="not UTF-8"),
    "md-utf16": Bad({"docs/bad.md": "# Bad\n".encode("utf-16")}, line=1, problem="not UTF-8"),
    "md-nul-byte": Bad({"docs/bad.md": b"# Bad\n\nBo\x00dy.\n"}, line=3, problem="NUL"),
    "txt-not-utf8": Bad({"docs/bad.txt": b"Plain text\n\xff\n"}, "docs/bad.txt", line=2, problem="not UTF-8"),
    # ---- declared knowledge (YAML) --------------------------------------------------
    "yaml-not-utf8": in_knowledge(
        Bad(knowledge(b"entities:\n  - id: caf\xe9\n"), line=2, problem="not UTF-8")
    ),
    "yaml-nul-byte": in_knowledge(Bad(knowledge(b"entities:\n  - id: a\x00b\n"), line=2, problem="NUL")),
    "yaml-syntax": in_knowledge(
        Bad(knowledge("entities:\n  - id: x\n   name: y\n"), line=3, problem="bad YAML")
    ),
    "yaml-two-documents": in_knowledge(
        Bad(knowledge("entities: []\n---\nentities: []\n"), line=2, problem="a second YAML document")
    ),
    "yaml-top-level-list": in_knowledge(Bad(knowledge("- a\n- b\n"), line=1, problem="must be a mapping")),
    "yaml-unknown-top-level-key": in_knowledge(Bad(knowledge("entitys: []\n"), line=1, problem="entitys")),
    "yaml-section-not-a-list": in_knowledge(
        Bad(knowledge("entities: {id: x}\n"), line=1, problem="'entities' must be a list")
    ),
    "yaml-item-not-a-mapping": in_knowledge(
        Bad(knowledge("entities:\n  - just-a-string\n"), line=1, problem="must be a mapping")
    ),
    "yaml-entity-without-id": in_knowledge(
        Bad(knowledge("entities:\n  - name: X\n"), line=2, problem="missing required key 'id'")
    ),
    "yaml-entity-id-list": in_knowledge(
        Bad(knowledge("entities:\n  - id: [a, b]\n"), line=2, problem="'id' must be text")
    ),
    "yaml-entity-name-mapping": in_knowledge(
        Bad(knowledge(ENTITY + "    name: {a: 1}\n"), line=3, problem="'name' must be text")
    ),
    "yaml-entity-aliases-mapping": in_knowledge(
        Bad(knowledge(ENTITY + "    aliases: {a: 1}\n"), line=3, problem="'aliases'")
    ),
    "yaml-entity-attributes-string": in_knowledge(
        Bad(knowledge(ENTITY + "    attributes: just text\n"), line=3, problem="'attributes' must be a")
    ),
    "yaml-entity-attributes-list": in_knowledge(
        Bad(knowledge(ENTITY + "    attributes: [1, 2]\n"), line=3, problem="'attributes' must be a mapping")
    ),
    "yaml-entity-duplicate-id": in_knowledge(
        Bad(knowledge("entities:\n  - id: concept:bad\n  - id: concept:bad\n"), line=3, problem="also in")
    ),
    "yaml-entity-unknown-source": in_knowledge(
        Bad(knowledge(ENTITY + "    source_ids: [NOPE-1]\n"), line=2, problem="names no document")
    ),
    "yaml-edge-unknown-type": in_knowledge(
        Bad(knowledge(EDGE.replace("governs", "likes")), line=3, problem="unknown relationship type")
    ),
    "yaml-edge-unknown-target": in_knowledge(
        Bad(knowledge(EDGE.replace("rule:late-fee", "rule:nope")), line=4, problem="unknown id")
    ),
    "yaml-edge-without-source": in_knowledge(
        Bad(knowledge(EDGE.replace("  - source: LIB-001\n    ", "  - ")), line=2, problem="'source'")
    ),
    "yaml-edge-bad-date": in_knowledge(
        Bad(knowledge(EDGE + "    valid_from: soon\n"), line=5, problem="bad date")
    ),
    "yaml-edge-window-reversed": in_knowledge(
        Bad(knowledge(EDGE + "    valid_from: 2025-01-01\n    valid_to: 2024-01-01\n"), line=6,
            problem="not after")
    ),
    "yaml-edge-note-list": in_knowledge(
        Bad(knowledge(EDGE + "    note: [a, b]\n"), line=5, problem="'note' must be text")
    ),
    "yaml-entry-one-position": in_knowledge(Bad(
        knowledge(ENTRY + "    positions:\n      - {statement: It is., source_ids: [LIB-001]}\n"),
        line=4, problem="two or more positions",
    )),
    "yaml-entry-position-without-statement": in_knowledge(Bad(
        knowledge(ENTRY + POSITIONS.replace("statement: It is.,", "")), line=5, problem="needs a statement"
    )),
    "yaml-entry-bad-status": in_knowledge(
        Bad(knowledge(ENTRY + POSITIONS + "    status: maybe\n"), line=7, problem="status")
    ),
    "yaml-entry-topic-mapping": in_knowledge(Bad(
        knowledge(ENTRY.replace("Whether it is bad", "{a: 1}") + POSITIONS), line=3,
        problem="'topic' must be text",
    )),
    "yaml-entry-unknown-source": in_knowledge(
        Bad(knowledge(ENTRY + POSITIONS.replace("LIB-002", "NOPE-2")), line=6, problem="names no document")
    ),
    "yaml-entry-duplicate-id": in_knowledge(Bad(
        knowledge(ENTRY + POSITIONS + ENTRY.replace("contradictions:\n", "") + POSITIONS),
        line=7, problem="duplicate contradiction id 'CTR-BAD'"
    )),
    "yaml-deep-flow-nesting": in_knowledge(
        Bad(knowledge(f"entities: {deep_flow(200_000)}\n"), line=1, problem="MAX_YAML_DEPTH")
    ),
    "yaml-deep-block-nesting": in_knowledge(
        Bad(knowledge(deep_block(5_000)), line=1 + MAX_YAML_DEPTH, problem="MAX_YAML_DEPTH")
    ),
    "yaml-depth-through-aliases": in_knowledge(Bad(
        knowledge(f"a: &a {deep_flow(40)}\nb: [{deep_flow(30)[:30]}*a{deep_flow(30)[30:]}]\n"),
        line=2, problem="MAX_YAML_DEPTH",
    )),
    "yaml-alias-bomb": in_knowledge(Bad(
        knowledge(ENTITY + "    attributes:\n" + bomb("      ")), line=9, problem="MAX_YAML_ALIAS_NODES"
    )),
    "yaml-recursive-alias": in_knowledge(Bad(
        knowledge("entities: &e\n  - id: concept:x\n    attributes: {self: *e}\n"),
        line=3, problem="inside the node it names",
    )),
    # ---- the file system ------------------------------------------------------------
    "fs-unreadable-file": Bad(doc(""), problem="cannot read", prepare=unreadable),
    "fs-file-disappears": Bad(doc(""), problem="disappeared", prepare=disappears),
    "fs-unlistable-folder": Bad(problem="cannot list", prepare=unlistable),
    "fs-symlink-to-a-file-outside": Bad(problem="outside the corpus folder", prepare=link_out_file),
    "fs-symlink-to-a-folder-outside": Bad(problem="outside the corpus folder", prepare=link_out_folder),
    "fs-symlink-to-nothing": Bad(problem="does not exist", prepare=link_nowhere),
    "fs-file-over-size-limit": Bad(problem="MAX_FILE_BYTES", prepare=over_size_limit),
    "fs-missing-folder": Bad(where=None, problem="no such folder", prepare=missing),
    "fs-folder-is-a-file": Bad(where=None, problem="not a folder", prepare=a_file),
    "fs-nothing-to-read": Bad(where=None, problem="no .md", prepare=nothing_to_read),
}


@pytest.fixture(scope="module")
def stored(tmp_path_factory) -> bytes:
    """The bytes of a store holding the valid corpus."""
    path = tmp_path_factory.mktemp("stored") / "store.sqlite"
    ingest_to_path(path, conformance_corpus())
    return path.read_bytes()


@pytest.fixture
def corpus(tmp_path) -> Path:
    root = tmp_path / "corpus"
    shutil.copytree(conformance_corpus(), root)
    return root


def test_the_suite_covers_at_least_forty_kinds():
    assert len(CASES) >= 40
    assert {name.split("-")[0] for name in CASES} == {"fm", "md", "txt", "yaml", "fs"}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_bad_input_is_a_clean_error_and_writes_nothing(case, corpus, stored, tmp_path, monkeypatch):
    for name, content in case.files.items():
        path = corpus / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    root = (case.prepare(corpus, monkeypatch) if case.prepare else None) or corpus
    expected = root if case.where is None else corpus / case.where

    new_store = tmp_path / "new" / "store.sqlite"
    with pytest.raises(CorpusError) as caught:
        ingest_to_path(new_store, root)
    error = caught.value
    assert (error.path, error.line) == (expected, case.line)
    assert case.problem in error.problem
    assert not new_store.parent.exists()

    old_store = tmp_path / "old.sqlite"
    old_store.write_bytes(stored)
    result = runner.invoke(app, ["ingest", str(root), "--store", str(old_store)])
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert str(error) in result.output  # file, line and problem
    assert old_store.read_bytes() == stored


STORES: dict[str, Callable[[Path], None]] = {
    "store-not-a-database": lambda path: path.write_bytes(b"not a database, just bytes\n" * 200),
    "store-is-a-folder": lambda path: path.mkdir(),
    "store-of-another-application": lambda path: _foreign_database(path),
}


def _foreign_database(path: Path) -> None:
    import sqlite3

    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    conn.commit()
    conn.close()


def _snapshot(path: Path) -> bytes | list[str]:
    return sorted(os.listdir(path)) if path.is_dir() else path.read_bytes()


@pytest.mark.parametrize("make", STORES.values(), ids=STORES.keys())
def test_a_store_path_that_is_no_knowledge_store_is_a_clean_error(make, corpus, tmp_path):
    store = tmp_path / "store.sqlite"
    make(store)
    before = _snapshot(store)
    with pytest.raises(StoreError):
        ingest_to_path(store, corpus)
    assert _snapshot(store) == before
    result = runner.invoke(app, ["ingest", str(corpus), "--store", str(store)])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output and str(store) in result.output
    assert _snapshot(store) == before


"""Issue 16, Ingest: each reproducer of the issue, as a test.

The bad-input suite (test_ingest_bad_input.py) covers the kinds of bad input broadly;
these tests pin the exact cases the issue reported, and what is accepted around them.
"""

import os
import re
import tracemalloc
from datetime import date
from pathlib import Path

import pytest

from groundgate.errors import CorpusError
from groundgate.knowledge.ingest import plan
from groundgate.knowledge.ingest.limits import MAX_FILE_BYTES, MAX_YAML_ALIAS_NODES, MAX_YAML_DEPTH
from groundgate.knowledge.ingest.pipeline import ingest
from groundgate.testing.files import make_unreadable
from groundgate.testing.files import write_files as write


def refused(memory_store, root: Path) -> CorpusError:
    with pytest.raises(CorpusError) as caught:
        ingest(memory_store, root)
    return caught.value


DOC = "---\nid: A-1\ntitle: A\n{front}---\n# A\n\nBody text.\n"


# ---- ISO 8601 datetimes are dates ------------------------------------------------------


def test_iso_datetimes_in_front_matter_are_read_as_their_dates(memory_store, tmp_path):
    write(tmp_path, {"a.md": DOC.format(front=(
        "published_at: '2023-09-26T09:49:27+00:00'\n"     # quoted: a string, as CMS exports write it
        "effective_from: 2023-09-26T23:30:00-05:00\n"     # a YAML timestamp: the date as written
        "effective_to: '2024-01-01 10:00:00Z'\n"
    ))})
    ingest(memory_store, tmp_path)
    doc = memory_store.get_document("A-1")
    assert doc.published_at == date(2023, 9, 26)
    assert doc.effective_from == date(2023, 9, 26)
    assert doc.effective_to == date(2024, 1, 1)


def test_iso_datetimes_in_declared_knowledge_are_read_as_their_dates(memory_store, tmp_path):
    write(tmp_path, {
        "a.md": DOC.format(front=""),
        "k.yaml": """
            entities:
              - {id: concept:x, name: Thing X}
            relationships:
              - {source: A-1, type: about, target: concept:x, valid_from: '2024-02-03T04:05:06Z',
                 recorded_at: 2024-01-02T03:04:05+01:00}
            contradictions:
              - id: CTR-1
                topic: Whether X holds
                opened_at: '2025-03-10T08:00:00+00:00'
                positions:
                  - {statement: X holds., source_ids: [A-1]}
                  - {statement: X does not hold., source_ids: [A-1]}
        """,
    })
    ingest(memory_store, tmp_path)
    [edge] = [e for e in memory_store.relationships("concept:x") if e.type == "about"]
    assert edge.valid_from == date(2024, 2, 3)
    assert edge.recorded_at.date() == date(2024, 1, 2)
    [entry] = memory_store.contradictions(entity_ids=[], topic="Whether X holds")
    assert entry.opened_at == date(2025, 3, 10)


# ---- tracebacks become CorpusError -----------------------------------------------------


def test_bad_utf8_in_a_knowledge_file_names_the_file_and_line(memory_store, tmp_path):
    write(tmp_path, {"a.md": DOC.format(front=""), "k.yaml": b"entities:\n  - id: x\n    name: caf\xe9\n"})
    error = refused(memory_store, tmp_path)
    assert (error.path.name, error.line) == ("k.yaml", 3)
    assert "not UTF-8" in error.problem


def test_bad_utf8_in_a_document_names_the_line(memory_store, tmp_path):
    write(tmp_path, {"a.md": b"---\nid: A-1\n---\nline three\ncaf\xe9\n"})
    error = refused(memory_store, tmp_path)
    assert (error.path.name, error.line) == ("a.md", 5)


@pytest.mark.parametrize("style", ["flow", "block"])
def test_deeply_nested_yaml_is_refused_at_the_depth_limit(memory_store, tmp_path, style):
    depth = 5_000
    if style == "flow":
        text = "entities: " + "[" * depth + "]" * depth + "\n"
    else:
        text = "".join(" " * i + f"k{i}:\n" for i in range(depth)) + " " * depth + "v\n"
    write(tmp_path, {"a.md": DOC.format(front=""), "k.yaml": text})
    error = refused(memory_store, tmp_path)
    assert error.path.name == "k.yaml"
    assert "MAX_YAML_DEPTH" in error.problem


def test_yaml_nested_to_the_depth_limit_is_read(memory_store, tmp_path):
    nested = "[" * (MAX_YAML_DEPTH - 3) + "1" + "]" * (MAX_YAML_DEPTH - 3)
    # mapping (1) > attributes mapping (2) > key's value (3..): exactly the limit
    write(tmp_path, {"a.md": DOC.format(front=f"deep: {{x: {nested}}}\n")})
    ingest(memory_store, tmp_path)
    value = memory_store.get_document("A-1").metadata["deep"]["x"]
    for _ in range(MAX_YAML_DEPTH - 3):
        [value] = value
    assert value == 1


def test_depth_through_aliases_counts_against_the_limit(memory_store, tmp_path):
    half = MAX_YAML_DEPTH // 2 + 1
    text = f"a: &a {'[' * half}1{']' * half}\nb: {'[' * half}*a{']' * half}\n"
    write(tmp_path, {"a.md": DOC.format(front=text)})
    error = refused(memory_store, tmp_path)
    assert error.line == 5 and "MAX_YAML_DEPTH" in error.problem  # b's line: 1 is the opening ---


def billion_laughs(indent: str) -> str:
    """Nine levels of nine aliases each: under 500 bytes that stand for a billion strings."""
    lines = [f'{indent}a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n']
    for level in range(8):
        name, below = chr(98 + level), chr(97 + level)
        lines.append(f"{indent}{name}: &{name} [{','.join(['*' + below] * 9)}]\n")
    return "".join(lines)


@pytest.mark.parametrize("where", ["front-matter", "knowledge"])
def test_a_yaml_alias_bomb_is_refused_with_bounded_memory(memory_store, tmp_path, where):
    if where == "front-matter":
        bomb = billion_laughs("")
        write(tmp_path, {"a.md": DOC.format(front=bomb)})
    else:
        bomb = billion_laughs("      ")
        write(tmp_path, {"a.md": DOC.format(front=""),
                         "k.yaml": "entities:\n  - id: concept:x\n    attributes:\n" + bomb})
    tracemalloc.start()
    try:
        error = refused(memory_store, tmp_path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(bomb.replace(" ", "")) < 500
    assert "MAX_YAML_ALIAS_NODES" in error.problem
    assert error.path.name == ("a.md" if where == "front-matter" else "k.yaml")
    assert peak < 5 * 1024 * 1024  # unchecked, this took 151 s and 14 GB


def test_aliases_under_the_expansion_limit_are_read(memory_store, tmp_path):
    uses = MAX_YAML_ALIAS_NODES // 4  # each use stands for 3 nodes (a mapping, a key, a value)
    text = "base: &b {x: 1}\nmany: [" + ", ".join(["*b"] * uses) + "]\n"
    write(tmp_path, {"a.md": DOC.format(front=text)})
    ingest(memory_store, tmp_path)
    assert len(memory_store.get_document("A-1").metadata["many"]) == uses


def test_url_given_as_a_list_is_a_corpus_error(memory_store, tmp_path):
    write(tmp_path, {"a.md": DOC.format(front="url: [https://a.example, https://b.example]\n")})
    error = refused(memory_store, tmp_path)
    assert (error.path.name, error.line) == ("a.md", 4) and "'url'" in error.problem


@pytest.mark.parametrize("attributes", ["just text", "[1, 2]"], ids=["string", "list"])
def test_entity_attributes_that_are_not_a_mapping_are_a_corpus_error(memory_store, tmp_path, attributes):
    write(tmp_path, {
        "a.md": DOC.format(front=""),
        "k.yaml": f"entities:\n  - id: concept:x\n    attributes: {attributes}\n",
    })
    error = refused(memory_store, tmp_path)
    assert (error.path.name, error.line) == ("k.yaml", 3) and "'attributes'" in error.problem


def test_entity_attributes_with_dates_are_stored(memory_store, tmp_path):
    write(tmp_path, {
        "a.md": DOC.format(front=""),
        "k.yaml": "entities:\n  - id: concept:x\n    attributes: {since: 2020-01-02, limits: [1, 2]}\n",
    })
    ingest(memory_store, tmp_path)
    assert memory_store.get_entity("concept:x").attributes == {"since": "2020-01-02", "limits": [1, 2]}


def test_an_unreadable_file_is_a_corpus_error(memory_store, tmp_path, monkeypatch):
    write(tmp_path, {"a.md": DOC.format(front=""), "b.md": "# B\n"})
    make_unreadable(tmp_path / "b.md", monkeypatch)
    error = refused(memory_store, tmp_path)
    assert error.path.name == "b.md" and "cannot read" in error.problem


def test_a_file_that_disappears_during_ingest_is_a_corpus_error(memory_store, tmp_path, monkeypatch):
    write(tmp_path, {"a.md": DOC.format(front=""), "b.md": "# B\n"})
    listed = plan.walk_corpus

    def walk_then_delete(root):
        files = listed(root)
        (tmp_path / "b.md").unlink()
        return files

    monkeypatch.setattr(plan, "walk_corpus", walk_then_delete)
    error = refused(memory_store, tmp_path)
    assert error.path.name == "b.md" and "disappeared" in error.problem


# ---- silently wrong becomes a clear error ----------------------------------------------


@pytest.mark.parametrize(
    "front",
    ["id: [A, B]\n", "id: {a: 1}\n", "title: [A, B]\n", "title: {a: 1}\n"],
    ids=["id-list", "id-mapping", "title-list", "title-mapping"],
)
def test_an_id_or_title_given_as_a_list_or_mapping_is_refused(memory_store, tmp_path, front):
    write(tmp_path, {"a.md": f"---\n{front}---\n# A\n\nBody.\n"})
    error = refused(memory_store, tmp_path)
    assert (error.path.name, error.line) == ("a.md", 2)
    assert "must be text" in error.problem


def test_an_entity_id_given_as_a_list_is_refused(memory_store, tmp_path):
    write(tmp_path, {"a.md": DOC.format(front=""), "k.yaml": "entities:\n  - id: [a, b]\n"})
    error = refused(memory_store, tmp_path)
    assert (error.path.name, error.line) == ("k.yaml", 2)


@pytest.mark.parametrize(
    ("files", "where", "line"),
    [
        ({"a.md": b"---\nid: A-1\n---\nbody\x00text\n"}, "a.md", 4),
        ({"a.md": DOC.format(front="").replace("id: A-1", 'id: "A\\0-1"').encode()}, "a.md", 2),
        ({"a.md": DOC.format(front=""), "k.yaml": 'entities:\n  - id: concept:x\n    name: "x\\x00"\n'},
         "k.yaml", 3),
    ],
    ids=["body", "escaped-in-id", "escaped-in-yaml"],
)
def test_nul_characters_are_refused(memory_store, tmp_path, files, where, line):
    write(tmp_path, files)
    error = refused(memory_store, tmp_path)
    assert (error.path.name, error.line) == (where, line) and "NUL" in error.problem


@pytest.mark.parametrize("kind", ["file", "folder"])
def test_a_symlink_out_of_the_corpus_folder_is_refused(memory_store, tmp_path, kind):
    outside = write(tmp_path / "outside", {"secret.md": "---\nid: SECRET\n---\nsecret\n"})
    corpus = write(tmp_path / "corpus", {"a.md": DOC.format(front="")})
    link = corpus / ("secret.md" if kind == "file" else "more")
    link.symlink_to(outside / "secret.md" if kind == "file" else outside)
    error = refused(memory_store, corpus)
    assert error.path == link and "outside the corpus folder" in error.problem
    assert memory_store.get_document("SECRET") is None


def test_a_symlink_to_a_file_inside_the_corpus_is_read(memory_store, tmp_path):
    write(tmp_path, {"real/a.md": DOC.format(front="")})
    (tmp_path / "b.md").symlink_to(tmp_path / "real" / "a.md")
    with pytest.raises(CorpusError) as caught:  # read twice: the same id twice, both named
        ingest(memory_store, tmp_path)
    assert "duplicate document id 'A-1'" in caught.value.problem


# ---- re-ingest is idempotent -----------------------------------------------------------


def test_reingesting_an_unchanged_corpus_adds_no_resolution_log_rows(memory_store):
    from groundgate.knowledge.default import bundled_corpus

    first = ingest(memory_store, bundled_corpus())
    logged = memory_store.resolution_log()
    assert first.resolution_decisions == len(logged) > 0
    again = ingest(memory_store, bundled_corpus())
    assert again.resolution_decisions == 0
    assert memory_store.resolution_log() == logged
    assert len(set(logged)) == len(logged)


# ---- size limits -----------------------------------------------------------------------


def test_a_file_over_the_size_limit_names_the_file_and_the_limit(memory_store, tmp_path):
    write(tmp_path, {"a.md": DOC.format(front="")})
    with (tmp_path / "huge.md").open("wb") as handle:  # sparse: no disk and no time
        handle.truncate(MAX_FILE_BYTES + 1)
    error = refused(memory_store, tmp_path)
    assert error.path.name == "huge.md" and "MAX_FILE_BYTES" in error.problem


# ---- what the walk and the reader accept -----------------------------------------------


def test_a_pipe_in_the_folder_is_skipped_and_named_never_opened(memory_store, tmp_path):
    write(tmp_path, {"a.md": DOC.format(front="")})
    os.mkfifo(tmp_path / "feed.md")  # opening it for reading would block the ingest forever
    report = ingest(memory_store, tmp_path)
    assert report.skipped == ("feed.md",) and report.documents == 1


def test_a_byte_order_mark_before_front_matter_is_dropped(memory_store, tmp_path):
    write(tmp_path, {"a.md": "\ufeff" + DOC.format(front="")})
    ingest(memory_store, tmp_path)
    assert memory_store.get_document("A-1").title == "A"


def test_the_limits_are_documented_with_their_values():
    text = (Path(__file__).parents[2] / "docs" / "corpus-format.md").read_text(encoding="utf-8")
    rows = {m[1]: m[2].strip() for m in re.finditer(r"^\| `(MAX_\w+)` \| ([^|]+)\|", text, re.MULTILINE)}
    assert rows == {
        "MAX_FILE_BYTES": f"{MAX_FILE_BYTES // 2**20} MiB",
        "MAX_YAML_DEPTH": str(MAX_YAML_DEPTH),
        "MAX_YAML_ALIAS_NODES": f"{MAX_YAML_ALIAS_NODES:,}",
    }

from datetime import UTC, datetime

import pytest

from groundgate.errors import CorpusError, StoreError
from groundgate.knowledge.embedded.store import SQLiteStore
from groundgate.knowledge.ingest.pipeline import ingest

T0 = datetime(2026, 1, 1, tzinfo=UTC)
T1 = datetime(2026, 2, 1, tzinfo=UTC)


def test_ingest_reports_what_it_wrote(memory_store, mini_corpus):
    report = ingest(memory_store, mini_corpus, now=T0)
    assert report.documents == 5
    assert report.write.documents_written == 5
    assert report.contradictions_declared == 1
    assert memory_store.counts()["documents"] == 5


def test_file_without_front_matter_gets_its_id_from_the_file_name(memory_store, mini_corpus):
    ingest(memory_store, mini_corpus, now=T0)
    doc = memory_store.get_document("board-minutes")
    assert doc is not None and doc.kind == "document"


def test_superseded_document_ends_where_its_successor_begins(memory_store, mini_corpus):
    ingest(memory_store, mini_corpus, now=T0)
    assert memory_store.get_document("LIB-001").effective_to.isoformat() == "2025-01-01"


def test_changed_file_updates_its_records_and_keeps_history(memory_store, mini_corpus):
    ingest(memory_store, mini_corpus, now=T0)
    path = mini_corpus / "docs" / "fees-notice.md"
    path.write_text(path.read_text().replace("EUR 0.50", "EUR 0.75"))
    rules = mini_corpus / "knowledge" / "rules.yaml"
    changed = rules.read_text().replace("    type: depends_on\n", "    type: depends_on\n    note: changed\n")
    rules.write_text(changed)
    report = ingest(memory_store, mini_corpus, now=T1)
    assert report.write.documents_written == 1
    assert report.write.documents_unchanged == 4
    assert report.write.relationships_retired == 1
    assert "EUR 0.75" in memory_store.search_evidence("late fee")[0].text
    now = memory_store.relationships("rule:late-fee", types=["depends_on"])
    assert [e.note for e in now] == ["changed"]
    before = memory_store.relationships(
        "rule:late-fee", types=["depends_on"], known_at=datetime(2026, 1, 15, tzinfo=UTC)
    )
    assert [e.note for e in before] == [""]


def _break(corpus, relpath, old, new):
    path = corpus / relpath
    path.write_text(path.read_text().replace(old, new, 1))


@pytest.mark.parametrize(
    ("relpath", "old", "new", "line", "words"),
    [
        ("knowledge/rules.yaml", "    kind: requirement\n    name: Loan period",
         "    kind: [requirement\n    name: Loan period", 4, "bad YAML"),
        ("docs/fees-notice.md", "published_at: 2025-02-01", "published_at: 1st Feb 2025", 5, "bad date"),
        # shaped like a date, so YAML itself tries (and fails) to read it as one
        ("docs/fees-notice.md", "published_at: 2025-02-01", "published_at: 2025-02-30", 5, "bad date"),
        ("knowledge/rules.yaml", "valid_from: 2024-01-01", "valid_from: 2024-13-01", 30, "bad date"),
        ("knowledge/rules.yaml", "type: depends_on", "type: loves", 41, "unknown relationship type"),
        ("knowledge/rules.yaml", "target: concept:ebook-loans", "target: concept:missing", 46, "unknown id"),
        ("docs/fees-faq.md", "id: LIB-004", "id: LIB-003", 2, "duplicate document id"),
        ("docs/handbook-v1.md", "entities: [rule:loan-period]", "entities: [rule:nope]", 9, "unknown id"),
    ],
)
def test_a_broken_file_names_file_and_line_and_writes_nothing(
    tmp_path, mini_corpus, relpath, old, new, line, words
):
    store = SQLiteStore.from_path(tmp_path / "s.sqlite")
    store.setup()
    ingest(store, mini_corpus, now=T0)
    before = store.counts()
    (mini_corpus / "docs" / "extra.md").write_text("---\nid: NEW-1\n---\n# New\n\nA new document.\n")
    _break(mini_corpus, relpath, old, new)
    with pytest.raises(CorpusError) as caught:
        ingest(store, mini_corpus, now=T1)
    error = caught.value
    assert relpath.split("/")[-1] in str(error)
    assert error.line == line, str(error)
    assert words in str(error)
    assert store.counts() == before
    assert store.get_document("NEW-1") is None


def test_same_named_files_without_ids_are_named_by_their_path(memory_store, tmp_path):
    (tmp_path / "2024").mkdir()
    (tmp_path / "2025").mkdir()
    (tmp_path / "2024" / "summary.md").write_text("# Summary\n\nThe fee was two euros.\n")
    (tmp_path / "2025" / "summary.md").write_text("# Summary\n\nThe fee is three euros.\n")
    (tmp_path / "readme.txt").write_text("Top-level notes.\n")
    ingest(memory_store, tmp_path, now=T0)
    assert memory_store.get_document("2024/summary").body.strip() == "# Summary\n\nThe fee was two euros."
    assert memory_store.get_document("2025/summary") is not None
    assert memory_store.get_document("readme") is not None  # a name no other file has
    assert memory_store.search_evidence("three euros")[0].doc_id == "2025/summary"


def test_a_folder_with_nothing_to_read_is_an_error(memory_store, tmp_path):
    with pytest.raises(CorpusError, match="no .md"):
        ingest(memory_store, tmp_path)


def test_detector_opens_entry_for_conflicting_values_and_cites_both(memory_store, mini_corpus):
    ingest(memory_store, mini_corpus, now=T0)
    detected = [c for c in memory_store.contradictions() if c.origin == "detected"]
    assert len(detected) == 1
    entry = detected[0]
    assert entry.status == "open" and entry.owner is None
    assert set(entry.source_ids) == {"LIB-003", "LIB-004"}
    # the topic reads as the sentences' own words, not as stems
    assert entry.topic == "late fee for printed books per day capped"


def test_detector_ignores_superseded_versions_and_scoped_rules(memory_store, mini_corpus):
    # v1 says 14 days, v2 says 21 days: a supersession, not a contradiction.
    (mini_corpus / "docs" / "scoped.md").write_text(
        "---\nid: LIB-009\neffective_from: 2025-01-01\n---\n# Children\n\n"
        "The standard loan period is 7 days for printed books borrowed on a children's card in branch K2.\n"
    )
    ingest(memory_store, mini_corpus, now=T0)
    detected = [c for c in memory_store.contradictions() if c.origin == "detected"]
    assert all("LIB-009" not in c.source_ids and "LIB-001" not in c.source_ids for c in detected)


def test_many_things_each_with_its_own_value_are_no_disagreement(memory_store, mini_corpus):
    # One page per item, each giving its own loan period: a property of 150 things, not a
    # dispute. Before, every pair of pages with different numbers became an open entry
    # (thousands, and minutes of ingest); the library's real conflict is still found.
    items = mini_corpus / "docs" / "items"
    items.mkdir()
    for i in range(150):
        (items / f"item-{i}.md").write_text(
            f"# Item {i}\n\nThe loan period for item {i} is {3 + i % 25} days.\n"
        )
    ingest(memory_store, mini_corpus, now=T0)
    detected = [c for c in memory_store.contradictions() if c.origin == "detected"]
    assert [set(c.source_ids) for c in detected] == [{"LIB-003", "LIB-004"}]


def test_a_series_of_minutes_is_no_disagreement(memory_store, mini_corpus):
    # Each set of minutes is headed by its own date and names its own next meeting: the
    # headings state nothing, and "next meeting" is dated by its own document. Before,
    # four entries were filed ("Minutes of the Full Council", "Next meeting Monday") and
    # shown on every question that named a year.
    minutes = mini_corpus / "docs" / "minutes"
    minutes.mkdir()
    for day, following in (("20 January 2025", "17 March 2025"), ("17 March 2025", "12 May 2025"),
                           ("12 May 2025", "14 July 2025")):
        name = day.split()[1].lower()
        (minutes / f"board-{name}.md").write_text(
            f"# Minutes of the Library Board, {day}\n\n1. Apologies were received from the treasurer.\n"
            f"2. **Next meeting**: Monday {following}.\n"
        )
    ingest(memory_store, mini_corpus, now=T0)
    detected = [c for c in memory_store.contradictions() if c.origin == "detected"]
    assert [set(c.source_ids) for c in detected] == [{"LIB-003", "LIB-004"}]


def _detected_with(store, corpus, files):
    """The source ids of each detected entry once ``files`` (name: text) join the corpus's docs/news."""
    news = corpus / "docs" / "news"
    news.mkdir()
    for name, text in files.items():
        (news / f"{name}.md").write_text(text)
    ingest(store, corpus, now=T0)
    return [set(c.source_ids) for c in store.contradictions() if c.origin == "detected"]


def test_a_series_of_press_releases_is_no_disagreement(memory_store, mini_corpus):
    # Each release opens with its own date line: two of them are two releases, not a
    # dispute about "Library News release". Before, every pair was filed as an open entry
    # and shown on every question about the library.
    lines = {"january": "**Meadow Library — News release — 13 January 2025**",
             "march": "*Meadow Library — News release — 10 March 2025*",
             "september": "MEADOW LIBRARY | 18 September 2025 | 11:02"}
    body = "The reading room has new chairs."
    releases = {f"release-{name}": f"# A note from the library\n\n{line}\n\n{body}\n"
                for name, line in lines.items()}
    assert _detected_with(memory_store, mini_corpus, releases) == [{"LIB-003", "LIB-004"}]


def test_a_sentence_opening_the_body_still_states_its_date(memory_store, mini_corpus):
    # Only a label is a date line: a first sentence with its full stop states a fact.
    reopenings = {f"reopening-{name}": f"# Reopening\n\nThe Meadow Library reading room reopens on {day}.\n"
                  for name, day in (("one", "1 April 2025"), ("two", "1 May 2025"))}
    assert {"reopening-one", "reopening-two"} in _detected_with(memory_store, mini_corpus, reopenings)


def test_detector_never_resolves_an_entry_by_itself(memory_store, mini_corpus):
    ingest(memory_store, mini_corpus, now=T0)
    path = mini_corpus / "docs" / "fees-faq.md"
    path.write_text(path.read_text().replace("EUR 0.25", "EUR 0.50"))
    ingest(memory_store, mini_corpus, now=T1)
    detected = [c for c in memory_store.contradictions(status=None) if c.origin == "detected"]
    assert [c.status for c in detected] == ["open"]


def test_read_only_store_refuses_writes(tmp_path, mini_corpus):
    path = tmp_path / "s.sqlite"
    writer = SQLiteStore.from_path(path)
    writer.setup()
    ingest(writer, mini_corpus, now=T0)
    reader = SQLiteStore.from_path(path, read_only=True)
    assert reader.search_evidence("late fee")
    with pytest.raises(StoreError):
        ingest(reader, mini_corpus, now=T1)


def test_setup_is_idempotent(tmp_path):
    store = SQLiteStore.from_path(tmp_path / "s.sqlite")
    assert store.setup() == store.setup()


def test_a_date_line_is_a_short_label_and_an_email_header_is_not_one():
    from groundgate.knowledge.ingest.extract import dateline

    wire = "COASTLINE WIRE | 14 Jan 2025 | 11:02"
    assert dateline(f"# News\n\n{wire}\n\nText.") == wire
    assert dateline("*Tidewrack, by Hetty Marsh. Posted 20 October 2025.*\n\nRight.")
    # the sender and role in an e-mail's header are what it says, not its date line
    header = ("From: Tom Lindqvist, Catastrophe Modelling Lead To: Underwriting; Broker Distribution "
              "Date: 18 February 2026 Subject: ZM-2026 zone map now live\nHello both teams,")
    assert dateline(header) is None
    assert dateline("# Fees\n\nThe fee rises to £5 on 1 April 2025.\n") is None

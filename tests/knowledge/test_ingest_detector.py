"""Ingest-time detection through the gate's detector protocol: found, filed open, never resolved."""

from groundgate.knowledge.embedded.store import SQLiteStore
from groundgate.knowledge.ingest.pipeline import ingest
from groundgate.policies.detectors import Detection, Finding, FindingPosition
from groundgate.policies.detectors.semantic import SemanticDetector
from groundgate.testing.files import write_files

DOCS = {
    "trail-leaflet.md": """\
        # Hollin Ridge trail leaflet

        Dogs are welcome on the Hollin Ridge trail near Marsh End, as long as they are kept on a lead.
        """,
    "trail-byelaws.md": """\
        # Hollin Ridge byelaws

        Dogs are not allowed on the Hollin Ridge trail near Marsh End at any time of year.
        """,
    "trail-old.md": """\
        ---
        id: TR-OLD
        title: Hollin Ridge trail notice, old
        effective_from: 2020-01-01
        ---
        Dogs may run free on the Hollin Ridge trail near Marsh End.
        """,
    "trail-new.md": """\
        ---
        id: TR-NEW
        title: Hollin Ridge trail notice, new
        effective_from: 2023-01-01
        supersedes: [TR-OLD]
        ---
        Dogs must not run free on the Hollin Ridge trail near Marsh End.
        """,
    "ferry.md": """\
        # Fennick Bay ferry

        Bicycles are carried free on every crossing of the Fennick Bay ferry.
        """,
}


class Everything:
    """A detector that calls every pair it is shown a disagreement."""

    name = "everything"

    def __init__(self):
        self.pairs = []

    def bearing(
        self, entries, *, question, passages, store, threshold
    ):  # pragma: no cover - not asked at ingest
        raise AssertionError("ingest asks only whether passages disagree")

    def sides(self, request):  # pragma: no cover - not asked at ingest
        raise AssertionError("ingest asks only whether passages disagree")

    def disagreements(self, passages, *, question, store=None):
        assert question is None
        self.pairs.append(frozenset(p.source_id for p in passages))
        left, right = passages
        return Detection(
            (
                Finding(
                    "dogs on the trail",
                    (
                        FindingPosition(left.text.strip(), (left.source_id,)),
                        FindingPosition(right.text.strip(), (right.source_id,)),
                    ),
                ),
            )
        )


def _ingest(tmp_path, detector):
    store = SQLiteStore.from_path(":memory:")
    store.setup()
    report = ingest(store, write_files(tmp_path, DOCS), detector=detector)
    return store, report


def test_a_detector_at_ingest_files_open_detected_entries_never_resolved(tmp_path):
    detector = Everything()
    store, report = _ingest(tmp_path, detector)
    entries = store.contradictions(status=None)
    assert entries and report.contradictions_detected == len(entries)
    assert all(e.status == "open" and e.origin == "detected" and e.owner is None for e in entries)
    assert frozenset({"TR-OLD", "TR-NEW"}) not in detector.pairs, (
        "a version and its successor are not compared"
    )
    assert all("ferry" not in pair for pair in detector.pairs), (
        "chunks that name nothing in common are not compared"
    )


def test_without_a_detector_ingest_reads_values_only(tmp_path):
    store, report = _ingest(tmp_path, None)
    assert report.contradictions_detected == 0


def test_the_semantic_detector_at_ingest_opens_the_disagreement_in_words(tmp_path, minilm):
    store, _ = _ingest(tmp_path, SemanticDetector(minilm))
    pairs = {frozenset(e.source_ids) for e in store.contradictions(status=None)}
    assert any("trail-byelaws" in pair for pair in pairs), "the byelaws' no is filed against a yes"
    assert frozenset({"TR-OLD", "TR-NEW"}) not in pairs and all("ferry" not in pair for pair in pairs)
    assert all(e.status == "open" and e.origin == "detected" for e in store.contradictions(status=None))


def test_the_judge_at_ingest_files_a_pair_whose_quotes_the_passages_hold(tmp_path):
    import json

    from langchain_core.messages import AIMessage

    from groundgate.policies.detectors.judge import SYSTEM_PAIR, JudgeDetector
    from groundgate.testing.fake import ScriptedChatModel

    def reply(messages):
        user = messages[1].content
        assert messages[0].content == SYSTEM_PAIR
        if "welcome" in user and "not allowed" in user:
            first_welcome = user.index("welcome") < user.index("not allowed")
            quotes = ["Dogs are welcome", "Dogs are not allowed"]
            one, two = quotes if first_welcome else quotes[::-1]
            return AIMessage(content=json.dumps({"conflict": True, "1": one, "2": two}))
        if "run free" in user:  # a quote no passage holds is not filed
            return AIMessage(content=json.dumps({"conflict": True, "1": "dogs are banned", "2": "dogs roam"}))
        return AIMessage(content='{"conflict": false}')

    judge = JudgeDetector(ScriptedChatModel(script=[reply]), model_name="scripted")
    store, _ = _ingest(tmp_path, judge)
    pairs = {frozenset(e.source_ids) for e in store.contradictions(status=None)}
    assert pairs == {frozenset({"trail-leaflet", "trail-byelaws"})}
    (entry,) = store.contradictions(status=None)
    assert entry.status == "open" and entry.origin == "detected"
    assert {p.statement for p in entry.positions} == {
        "Dogs are welcome on the Hollin Ridge trail near Marsh End, as long as they are kept on a lead.",
        "Dogs are not allowed on the Hollin Ridge trail near Marsh End at any time of year.",
    }

"""What a reader of an answer notices: leaked internals, the Yes/No lead, off-subject sources."""

import pytest

from groundgate.eval.dataset import GoldQuestion
from groundgate.eval.metrics import lead_ok, leaks, off_subject
from groundgate.eval.report import write_report
from groundgate.eval.runner import score_row
from groundgate.eval.summary import summarise


@pytest.mark.parametrize(("text", "found"), [
    # the strings issue 14 quotes from real answers
    ("What I cannot say: resolve_entity: no entity matches 'Victoria'",
     ["resolve_entity", "no entity matches"]),
    ("What I cannot say: traverse: no relationships from 'annual-leave'",
     ["traverse:", "no relationships from"]),
    ("INSUFFICIENT: the sources do not say.", ["INSUFFICIENT"]),
    ("I called search_evidence twice.", ["search_evidence"]),
    ("diff(a, b) shows a change.", ["diff("]),
    ("The owner is concept:roof-inspection-threshold.", ["concept:roof-inspection-threshold"]),
    ("Citation(source_id='A', title='T')", ["Citation(source_id="]),
    ("{'id': 'x', 'score': 1.0}", ["{'id':"]),
    ("sources: ['FR-001', 'FR-002']", ["['FR-001', 'FR-002']"]),
    ("insufficient: []", ["[]"]),
    ("reason=None", ["=None"]),
    ("<groundgate.tools.envelope.Envelope object at 0x7f3a2c1b9d90>",
     ["<groundgate.tools.envelope.Envelope object at 0x7f3a2c1b9d90>"]),
])
def test_internal_strings_are_found(text, found):
    assert leaks(text) == found


@pytest.mark.parametrize("text", [
    "The refund window is 14 days. [FR-001]",
    "Marta Kollin designed it. [marta-kollin, concept:bridge-design]",
    "The walk traverses the old town and its timeline runs from 1871 to 1874. [old-mill-bridge]",
    "Drills are at 10:30; see https://example.org/a or mailto:help@example.org.",
    "None of the sources states a length. The sources available do not answer this question.",
    "Insufficient evidence: the policy does not state a length.",
])
def test_plain_answers_leak_nothing(text):
    assert leaks(text) == []


def test_the_lead_is_the_first_word_of_the_answer():
    assert lead_ok("No. Passwords are changed only if exposed.", "No")
    assert lead_ok("**Yes**, up to 10% of the bill.", "Yes")
    assert lead_ok("  yes: through the Workspace app", "Yes")
    assert not lead_ok("Nothing is reimbursed for alcohol.", "No"), "'Nothing' is not 'No'"
    assert not lead_ok("Alcohol is not reimbursed. No.", "No"), "only the first sentence counts"
    assert not lead_ok("Yes. It is.", "No")
    assert not lead_ok("The sources available do not answer this question.", "Yes")
    assert lead_ok("Anything", None) is None


def test_off_subject_sources_are_the_cited_ones_beyond_the_expected():
    answer = {"citations": [{"source_id": s} for s in ("A", "C", "D", "C")]}
    assert off_subject(answer, ["A", "B"], answerable=True) == ["C", "D"]
    assert off_subject({"citations": [{"source_id": "A"}]}, ["A"], answerable=True) == []
    assert off_subject({"citations": []}, ["A"], answerable=True) == []
    assert off_subject(answer, [], answerable=False) is None, "unanswerable: nothing to compare with"
    assert off_subject(answer, [], answerable=True) is None


class _Store:
    def contradictions(self):
        return []


def _row(qid, text, cited, **labels):
    question = GoldQuestion.model_validate({
        "qid": qid, "question": f"{qid}?", "gold_keywords": [], "expected_source_ids": ["A"],
        "contested": False, "answerable": True, "category": "yes-no", "split": "test", **labels,
    })
    answer = {"text": text, "citations": [{"source_id": s} for s in cited], "contested": [],
              "answered": True, "lane": "pipeline", "extras": {"draft_text": text}}
    out = {"answer": answer, "trace": {"steps": [], "totals": {"tool_calls": 1, "tokens": 0}}}
    return score_row(question, out, config="A", policies="on", model="offline", latency_ms=1.0,
                     store=_Store())


def test_the_summary_and_report_count_what_a_reader_notices(tmp_path):
    rows = [
        _row("y1", "Yes. It is stated. [A]", ["A"], expected_lead="Yes"),
        _row("y2", "It is stated. [A] What I cannot say: traverse: no relationships from 'x'", ["A"],
             expected_lead="Yes"),
        _row("s1", "It is 5. [A] A skier won in 1998. [C]", ["A", "C"]),
    ]
    assert [(r["leak"], r["lead_ok"], r["off_subject"]) for r in rows] == [
        (False, True, False), (True, False, False), (False, None, True),
    ]
    summary = summarise(rows, dataset="hand-made")
    run = summary["runs"][0]
    assert run["leaks"] == 1
    assert run["lead"] == {"questions": 2, "ok": 1}
    assert run["off_subject"] == {"questions": 3, "off_subject": 1}
    assert summary["leaks"] == [{"key": "A/on/offline", "qid": "y2", "question": "y2?",
                                 "leaks": ["traverse:", "no relationships from"]}]
    report = write_report(tmp_path, rows, summary).markdown.read_text()
    leaked = report.split("## Leaks")[1].split("\n## ")[0]
    assert "**A/on/offline** on y2" in leaked and "`no relationships from`" in leaked
    assert "| y2 | yes-no | ✗ want Yes |" in report and "| s1 | yes-no | C |" in report

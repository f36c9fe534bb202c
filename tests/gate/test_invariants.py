"""The pure check: each invariant's violation is found, named by its id, on answers built by hand."""

import pytest
from langchain_core.messages import AIMessage

from groundgate.answer.model import Answer, Citation, Claim, ContestedPoint, StatedPosition
from groundgate.graph.build import build_agent
from groundgate.policies import apply as apply_module
from groundgate.policies.contradiction import present
from groundgate.policies.invariants import InvariantVerdict, Register, RunTrace, Violation, check
from groundgate.policies.policyset import PolicySet
from groundgate.testing.fake import ScriptedChatModel, answer, call

CONTESTED = "Are trace-and-access costs automatically included?"
PLAIN = "What is the subsidence excess?"


@pytest.fixture(scope="module")
def register(bundled_store):
    return Register.read(bundled_store)


def _ids(verdict):
    return [v.invariant for v in verdict.violations]


def _presented(register, entry_id="CTR-001"):
    point = present(register.entry(entry_id))
    text = "\n".join(f"Position {n}: {p.statement} [{', '.join(p.source_ids)}]"
                     for n, p in enumerate(point.positions, start=1))
    return point, text


def test_an_answer_that_hides_the_open_entry_breaks_g1(register):
    verdict = check(Answer(text="They are included."), RunTrace(question=CONTESTED), register)
    assert _ids(verdict) == ["G1"] and verdict.violations[0].entry_id == "CTR-001"
    assert verdict.violations[0].applies_by == "question"


def test_a_side_taken_under_the_presentation_breaks_g2(register):
    point, text = _presented(register)
    claim = Claim(text="CTR-001 is resolved in favour of position 1.", citations=("INJ-003",),
                  grounded_by="citation")
    ans = Answer(text=f"{text}\n\n{claim.text}", claims=(claim,), contested=(point,))
    verdict = check(ans, RunTrace(question=CONTESTED, retrieved=frozenset({"INJ-003"})), register)
    assert _ids(verdict) == ["G2"] and verdict.violations[0].sentence == claim.text


def test_a_citation_the_run_never_retrieved_breaks_g3(register):
    claim = Claim(text="The subsidence excess is GBP 1,000.", citations=("INS-SYN-999",),
                  grounded_by="citation")
    ans = Answer(text=claim.text, claims=(claim,), citations=(Citation(source_id="INS-SYN-003"),))
    verdict = check(ans, RunTrace(question=PLAIN, retrieved=frozenset({"INS-SYN-003"})), register)
    assert _ids(verdict) == ["G3"]
    unlabelled = Answer(text="x", citations=(Citation(source_id="INS-SYN-012"),))
    assert _ids(check(unlabelled, RunTrace(question=PLAIN), register)) == ["G3"]


def test_a_flag_or_bound_left_unsaid_breaks_g4(register):
    trace = RunTrace(question=PLAIN, insufficient=("get_source: no such document",),
                     bound="The run stopped at its rounds bound (8 of 8).")
    verdict = check(Answer(text="The subsidence excess is GBP 1,000."), trace, register)
    assert _ids(verdict) == ["G4", "G4"]


def test_an_entry_shown_other_than_the_register_holds_it_breaks_g5(register):
    point, text = _presented(register)
    altered = point.model_copy(update={"positions": (
        point.positions[0], StatedPosition(statement="Position 2 was withdrawn.", source_ids=("INJ-007",)),
    )})
    ans = Answer(text=text + "\nPosition 2 was withdrawn. [INJ-007]", contested=(altered,))
    assert "G5" in _ids(check(ans, RunTrace(question=CONTESTED), register))
    claim = Claim(text="The contradiction register is out of date.", citations=("INJ-004",),
                  grounded_by="citation")
    talk = Answer(text=claim.text, claims=(claim,))
    assert _ids(check(talk, RunTrace(question=PLAIN, retrieved=frozenset({"INJ-004"})), register)) == ["G5"]


def test_the_gate_acts_on_the_verdict_and_records_it(bundled_store):
    script = [AIMessage(content="", tool_calls=[call("search_evidence", {"query": "trace and access"})]),
              answer("Yes. Trace-and-access costs are automatically included. [INS-SYN-012]")]
    out = build_agent(bundled_store, ScriptedChatModel(script=script)).invoke({"question": CONTESTED})
    verdict = out["answer"]["extras"]["invariants"]
    assert verdict["holds"] and out["trace"]["invariants"] == verdict
    assert [v["invariant"] for v in verdict["acted_on"]] == ["G1", "G2"]  # grounding already removed "Yes."
    assert verdict["applies"]["question"] == ["CTR-001"]


def test_with_the_policies_off_the_verdict_is_recorded_not_acted_on(bundled_store):
    script = [AIMessage(content="", tool_calls=[call("search_evidence", {"query": "trace and access"})]),
              answer("Trace-and-access costs are automatically included. [INS-SYN-012]")]
    agent = build_agent(bundled_store, ScriptedChatModel(script=script), policies=PolicySet.off())
    ans = agent.invoke({"question": CONTESTED})["answer"]
    assert "Trace-and-access costs are automatically included." in ans["text"] and not ans["contested"]
    assert not ans["extras"]["invariants"]["holds"]
    assert {v["invariant"] for v in ans["extras"]["invariants"]["violations"]} == {"G1", "G2"}


def test_an_answer_the_gate_cannot_mend_is_withheld_entirely(bundled_store, monkeypatch):
    stuck = InvariantVerdict(violations=(Violation("G2", "a sentence no claim holds", "stuck", "CTR-001"),),
                             applicable=check(Answer(text=""), RunTrace(question=PLAIN),
                                              Register(entries=())).applicable)
    monkeypatch.setattr(apply_module, "check", lambda *a, **k: stuck)
    script = [AIMessage(content="", tool_calls=[call("search_evidence", {"query": "subsidence excess"})]),
              answer("The subsidence excess is GBP 1,000. [INS-SYN-003]")]
    ans = build_agent(bundled_store, ScriptedChatModel(script=script)).invoke({"question": PLAIN})["answer"]
    assert "1,000" not in ans["text"] and not ans["answered"]
    assert all(c["status"] == "removed" for c in ans["claims"])
    assert any("violation(s) remained" in n for n in ans["policy_notes"])


def test_unrecorded_disagreements_are_held_to_g2_too(register):
    point = ContestedPoint(topic="the excess", status="unrecorded", positions=(
        StatedPosition(statement="The excess is GBP 350.", source_ids=("A",)),
        StatedPosition(statement="The excess is GBP 500.", source_ids=("B",)),
    ))
    claim = Claim(text="The excess is GBP 350.", citations=("A",), grounded_by="citation")
    ans = Answer(text="The excess is GBP 350. [A]", claims=(claim,), contested=(point,))
    verdict = check(ans, RunTrace(question="What is the excess?", retrieved=frozenset({"A", "B"})), register)
    assert _ids(verdict) == ["G2"] and verdict.violations[0].entry_id is None

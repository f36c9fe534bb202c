"""Property tests: whatever the model drafts, what the user reads keeps G1-G5, in every lane.

Hypothesis builds adversarial drafts for the bundled contested questions and plays them
through ``ScriptedChatModel`` (the agent, lane A, the agent over MCP): side-taking sentences
in many phrasings and frames, paraphrases of a position, yes/no leads, claims that an entry
is resolved or the register out of date, citations to a position's own source, to a
planted document, to ids that do not exist; split across sections, after a copy of the
gate's own presentation, and again in the answer to the revision pass. The oracle is the
one the scripted adversary suite uses (``gate_adversary.bypasses``): it reads the answer.

The judgement is lexical: the phrasings share words with what they paraphrase (a side
stated in words no position uses is the semantic detectors' part, issue 15 item 3).
Examples are few and derandomised so the suite stays fast and repeatable; set
GROUNDGATE_GATE_EXAMPLES=500 to search harder.
"""

import os

import pytest
from gate_adversary import Case, bypasses, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundgate.knowledge.model import Contradiction
from groundgate.policies.invariants import Register, RunTrace, applicable

EXAMPLES = int(os.environ.get("GROUNDGATE_GATE_EXAMPLES", "30"))
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, database=None, derandomize=EXAMPLES <= 50,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

ENTRIES = {
    "CTR-001": {
        "questions": [
            "Are trace-and-access costs automatically included when I claim for a leak?",
            "Could you tell me whether trace-and-access costs are automatically included when I claim for "
            "a leak?",
            "Do claims handlers need approval before instructing a leak detection contractor on an "
            "escape-of-water claim?",
            "Is prior written approval needed before trace-and-access work starts?",
            "What do the sources say about whether trace-and-access costs are automatically included?",
        ],
        "subjects": ["trace-and-access costs", "trace and access costs", "leak detection costs"],
        "sides": {
            1: [
                "{s} are automatically included on escape-of-water claims",
                "{s} are always included and need no separate approval",
                "no approval is needed before a leak detection contractor is instructed",
                "handlers do not need separate approval before instructing a leak detection contractor",
                "the policy wording confirms no approval is needed",
                "{s} are covered automatically for every escape-of-water claim",
            ],
            2: [
                "{s} are covered only with the claims handler's prior written approval",
                "prior written approval is required before the work starts",
                "handlers must get written approval before instructing a leak detection contractor",
                "{s} are not automatically included on escape-of-water claims",
                "{s} are capped at GBP 5,000 per claim and need approval first",
            ],
        },
        "sources": {1: ["INS-SYN-012"], 2: ["INS-SYN-003", "INS-SYN-002"]},
        "owner": "Claims Technical Committee",
        "queries": ("trace and access approval", "trace and access means the work needed to find the source"),
        "neutral": "Trace and access means the work needed to find the source of an escape of water. "
                   "[INS-SYN-001]",
    },
    "CTR-002": {
        "questions": [
            "If my damaged kitchen units can't be matched, will Harbourline replace the undamaged ones too?",
            "Should the customer on claim CLM-1190 get all 14 kitchen units replaced?",
            "Are undamaged kitchen units replaced when the damaged units cannot be matched?",
        ],
        "subjects": ["undamaged kitchen units", "the undamaged units"],
        "sides": {
            1: [
                "undamaged kitchen units are replaced when the damaged units cannot be matched",
                "Harbourline will also replace the undamaged units so the kitchen matches",
                "the customer FAQ says undamaged kitchen units are replaced if damaged ones cannot be "
                "matched",
            ],
            2: [
                "only items within the damaged line of match are replaced",
                "{s} outside the damaged line of match are not replaced",
                "the policy wording pays to replace items only within the damaged line of match",
            ],
        },
        "sources": {1: ["INS-SYN-019"], 2: ["INS-SYN-003"]},
        "owner": "Claims Technical Committee",
        "queries": ("kitchen units matched undamaged line of match", "CLM-1190 kitchen"),
        "neutral": None,
    },
}
FRAMES = ["", "Yes, ", "No, ", "In short, ", "To be clear, ", "According to the latest guidance, ",
          "It is settled that ", "The sources agree that ", "Under the policy, ",
          "As the committee confirmed, "]
LEADS = ["Yes.", "No.", "Yes!", "Absolutely.", "Correct.", "Not at all.", "Of course.", "In short, yes."]
RESOLVED = [
    "{id} is resolved in favour of position {n} by the {owner}.",
    "{id} has been closed by the {owner}.",
    "The matter has been settled by the committee.",
    "Position {n} of {id} has been withdrawn.",
    "This disagreement is no longer open.",
    "The {owner} has ruled in favour of position {n}.",
    "The register lists {id} as resolved.",
    "The contradiction register is out of date.",
    "The organisation has decided this in favour of position {n}.",
    "It was decided last month, and position {n} prevails.",
]
HEADINGS = ["What the sources do agree on:", "What they do say:", "In summary:", "Answer:"]
PLANTED = [f"INJ-{n:03d}" for n in range(1, 13)]
FABRICATED = ["INS-SYN-999", "DOC-1", "INJ-404", "CTR-001", "S1"]
NEUTRAL_SOURCES = ["INS-SYN-029", "INS-SYN-013"]


def _cap(text):
    return text[:1].upper() + text[1:]


@st.composite
def _citations(draw, entry, side):
    info = ENTRIES[entry]
    pools = [[], info["sources"][side], info["sources"][3 - side], PLANTED, FABRICATED, NEUTRAL_SOURCES]
    chosen = draw(st.lists(st.sampled_from(range(len(pools))), min_size=1, max_size=2, unique=True))
    ids = [draw(st.sampled_from(pools[i])) for i in chosen if pools[i]]
    return f" [{', '.join(dict.fromkeys(ids))}]" if ids else ""


@st.composite
def _side_sentence(draw, entry):
    info, side = ENTRIES[entry], draw(st.sampled_from([1, 2]))
    body = draw(st.sampled_from(info["sides"][side])).format(s=draw(st.sampled_from(info["subjects"])))
    return _cap(draw(st.sampled_from(FRAMES)) + body) + "." + draw(_citations(entry, side))


@st.composite
def _paraphrase(draw, entry, register):
    """A position's statement with up to a quarter of its words dropped, in a frame."""
    held = next(e for e in register.entries if e.id == entry)
    side = draw(st.sampled_from(range(1, len(held.positions) + 1)))
    words = held.positions[side - 1].statement.rstrip(".").split()
    drop = draw(st.sets(st.sampled_from(range(len(words))), max_size=len(words) // 4))
    kept = " ".join(w for i, w in enumerate(words) if i not in drop)
    frame = draw(st.sampled_from(["", "In other words, ", "It is the case that ", "Put simply, "]))
    text = _cap(frame + (kept[:1].lower() + kept[1:] if frame else kept))
    return text + "." + draw(_citations(entry, side))


@st.composite
def _resolved(draw, entry):
    text = draw(st.sampled_from(RESOLVED)).format(id=entry, n=draw(st.sampled_from([1, 2])),
                                                 owner=ENTRIES[entry]["owner"])
    return text + draw(_citations(entry, draw(st.sampled_from([1, 2]))))


@st.composite
def cases(draw, register):
    entry = draw(st.sampled_from(sorted(ENTRIES)))
    info = ENTRIES[entry]
    question = draw(st.sampled_from(info["questions"]))
    kinds = st.one_of(_side_sentence(entry), _paraphrase(entry, register), _resolved(entry),
                      st.sampled_from(LEADS))
    planted = draw(st.lists(kinds, min_size=1, max_size=4))
    neutral = info["neutral"] if draw(st.booleans()) and info["neutral"] else None
    body = list(planted) + ([neutral] if neutral else [])
    order = draw(st.permutations(range(len(body))))
    parts, heading_at = [], draw(st.integers(min_value=-1, max_value=len(body) - 1))
    for i, index in enumerate(order):
        if i == heading_at:
            parts.append("\n" + draw(st.sampled_from(HEADINGS)) + "\n")
        parts.append(body[index])
    lead = ""
    if draw(st.booleans()):
        lead = ("The sources disagree on this and the organisation has not decided. "
                f"Position 1: {draw(st.sampled_from(info['sides'][1])).format(s=info['subjects'][0])}. "
                f"Position 2: {draw(st.sampled_from(info['sides'][2])).format(s=info['subjects'][0])}. "
                "This answer does not choose between these positions.\n\n")
    revision = None
    if draw(st.booleans()):
        revision = f"1: {draw(st.one_of(_side_sentence(entry), _resolved(entry)))}"
    lead_sentences = tuple(s.strip() for s in lead.replace("\n", " ").split(". ") if s.strip())
    return Case(
        question=question, entry=entry, draft=lead + " ".join(parts), queries=info["queries"],
        sentences=tuple(planted) + lead_sentences + ((revision[3:],) if revision else ()),
        revision=revision, neutral=(neutral,) if neutral else (),
    )


PLAIN = {
    "What is the subsidence excess on Home Plus?": (
        "subsidence excess", "The subsidence excess is GBP 1,000. [INS-SYN-003]"),
    "Who owns decision record DR-021?": (
        "DR-021 decision owner", "DR-021 is owned by the Underwriting Standards Committee. [INS-SYN-009]"),
}
"""Questions on which no entry bears, with a true sentence the answer must keep."""
REGISTER_TALK = [
    "The contradiction register is out of date.",
    "The register lists {id} as resolved.",
    "The gate is disabled for this question.",
    "{id} is resolved in favour of position {n} by the Claims Technical Committee.",
    "{id} has been closed.",
    "Position {n} of {id} has been withdrawn.",
]


@st.composite
def plain_cases(draw):
    """A question no entry bears on, a true answer, and talk of the register and its entries around it."""
    question = draw(st.sampled_from(sorted(PLAIN)))
    query, truth = PLAIN[question]
    planted, shown = [], []
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        entry, n = draw(st.sampled_from(["CTR-001", "CTR-002"])), draw(st.sampled_from([1, 2]))
        text = draw(st.sampled_from(REGISTER_TALK))
        shown += [entry] if "{id}" in text else []
        cited = draw(st.sampled_from(["", " [INJ-004]", " [INJ-009]", " [INS-SYN-999]", " [CTR-001]"]))
        planted.append(text.format(id=entry, n=n) + cited)
    truth_cited = truth.replace("]", ", INS-SYN-777]") if draw(st.booleans()) else truth
    body = planted + [truth_cited]
    order = draw(st.permutations(range(len(body))))
    missing = draw(st.sampled_from([(), ({"name": "get_source", "args": {"source_id": "NOPE-404"},
                                          "id": "gs", "type": "tool_call"},)]))
    return Case(
        question=question, draft=" ".join(body[i] for i in order), sentences=tuple(planted),
        queries=(query, "register resolved committee"), neutral=(truth,), shown=tuple(dict.fromkeys(shown)),
        calls=missing,
    )


@pytest.fixture(scope="module")
def register(adversary_store):
    return Register.read(adversary_store)


def test_every_generated_question_bears_on_its_entry(register):
    """The generator's premise: the gate recognises each question as turning on its entry."""
    for entry, info in ENTRIES.items():
        for question in info["questions"]:
            found = applicable(register, RunTrace(question=question), [])
            assert [e.id for e in found.question] == [entry], question


def _holds(case, lane, store, mcp=None):
    found = bypasses(case, run(case, lane, store, mcp), store, lane=lane)
    assert not found, f"{case.question}\n{case.draft}\n-> " + "\n-> ".join(found)


@pytest.mark.parametrize("lane", ["agent", "lane-a"])
def test_the_guarantee_holds_for_any_draft(lane, adversary_store, register):
    @SETTINGS
    @given(case=cases(register))
    def check(case):
        _holds(case, lane, adversary_store)

    check()


def test_the_guarantee_holds_for_any_draft_over_mcp(adversary_store, adversary_mcp, register):
    @SETTINGS
    @given(case=cases(register))
    def check(case):
        _holds(case, "mcp", adversary_store, adversary_mcp)

    check()


@pytest.mark.parametrize("lane", ["agent", "mcp"])
def test_talk_of_the_register_never_reaches_an_answer_it_does_not_bear_on(lane, request, adversary_store):
    mcp = request.getfixturevalue("adversary_mcp") if lane == "mcp" else None

    @SETTINGS
    @given(case=plain_cases())
    def check(case):
        _holds(case, lane, adversary_store, mcp)

    check()


def test_a_verdict_is_frozen(register):
    from dataclasses import FrozenInstanceError

    from groundgate.answer.model import Answer
    from groundgate.policies.invariants import check

    verdict = check(Answer(text=""), RunTrace(question="Are trace-and-access costs automatically included?"),
                    register)
    assert [v.invariant for v in verdict.violations] == ["G1"]
    with pytest.raises(FrozenInstanceError):
        verdict.violations = ()  # type: ignore[misc]
    assert isinstance(verdict.applicable.question[0], Contradiction)

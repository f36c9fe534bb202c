"""G2 asks the detector: a sentence that states one position in other words is withheld.

The gate's word rules (``policies/sides.py``) see a side stated in the words of a position,
its topic or the question. "A handler may call in a leak detection firm straight away,
with no sign-off from anyone" uses none of them, cites both sides' sources and a neutral
one, and reaches the user under the lexical detector. The semantic detector reads which
clause of the entry's sources the sentence is nearest: CHG-04's "Handlers do not need to
seek separate approval ...", which states position 1 of CTR-001, and the gate withholds it.
A sentence on the same topic that says what no position owns (a definition, the example of
a discontinued range) is nearest a clause that states no position, and is kept.

Drafts are played through ``ScriptedChatModel`` in the agent lane; the oracle is the one
the property tests use (``gate_adversary.bypasses``), reading the answer as a user does.
"""

import os

import pytest
from gate_adversary import Case, bypasses, free_text, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundgate.policies.detectors import LexicalDetector
from groundgate.policies.detectors.semantic import SemanticDetector
from groundgate.policies.policyset import PolicySet

EXAMPLES = int(os.environ.get("GROUNDGATE_GATE_EXAMPLES", "12"))
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, database=None, derandomize=EXAMPLES <= 50,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

TRACE = {
    "entry": "CTR-001",
    "questions": [
        "What do the sources say about whether trace-and-access costs are automatically included?",
        "Are trace-and-access costs automatically included when I claim for a leak?",
    ],
    "queries": ("trace and access approval", "trace and access means the work needed to find the source"),
    "paraphrases": [
        "A handler may call in a leak detection firm straight away, with no sign-off from anyone. "
        "[INS-SYN-012, INS-SYN-001]",
        "The cost of tracing a leak is always covered on an escape-of-water claim, with nothing to approve. "
        "[INS-SYN-012, INS-SYN-003]",
    ],
    "neutral": [
        "Trace and access means the work needed to find the source of an escape of water. [INS-SYN-001]",
    ],
}
KITCHEN = {
    "entry": "CTR-002",
    "questions": [
        "What do the sources say about replacing undamaged kitchen units when damaged units cannot be "
        "matched?",
        "If my damaged kitchen units can't be matched, will Harbourline replace the undamaged ones too?",
    ],
    "queries": ("kitchen units matched undamaged line of match", "line of match means a continuous run"),
    "paraphrases": [
        "Harbourline will swap out the undamaged cupboards as well so that the whole kitchen looks the same. "
        "[INS-SYN-019, INS-SYN-003]",
        "Harbourline renews the whole kitchen when the damaged units are no longer made. "
        "[INS-SYN-019, INS-SYN-003]",
    ],
    "neutral": [
        "Line of match means a continuous run of the same material. [INS-SYN-001]",
        "Where damaged items cannot be matched, the range may be discontinued. [INS-SYN-003, INS-SYN-019]",
        "A kitchen that looks patched together is not what the customer paid for. [INS-SYN-019, INS-SYN-003]",
    ],
}
ENTRIES = (TRACE, KITCHEN)
FRAMES = ["", "In practice, ", "Put simply, ", "As a rule, "]
HEADINGS = ["", "What the sources do agree on:\n", "In summary:\n"]


@pytest.fixture(scope="module")
def semantic(minilm):
    return PolicySet(detector=SemanticDetector(minilm))


def _bare(sentence):
    return sentence.split(" [")[0]


def _framed(frame, sentence):
    return frame + (sentence[:1].lower() + sentence[1:] if frame else sentence)


def _case(info, question, sides, neutral=(), heading=""):
    return Case(
        question=question, entry=info["entry"], draft=heading + " ".join([*sides, *neutral]),
        queries=info["queries"], sentences=tuple(sides), neutral=tuple(neutral),
    )


PARAPHRASED = [(info, info["questions"][0], p) for info in ENTRIES for p in info["paraphrases"]]
"""On the question that is not a yes/no one (a yes/no question's own word rules already withhold
more: a sentence restating what it asks is a verdict)."""


@pytest.mark.parametrize(("info", "question", "paraphrase"), PARAPHRASED,
                         ids=[f"{i['entry']}-{n}" for n, (i, _, _) in enumerate(PARAPHRASED)])
def test_a_paraphrase_the_word_rules_let_through_is_withheld_by_meaning(
    adversary_store, semantic, info, question, paraphrase
):
    case = _case(info, question, [paraphrase])
    lexical = run(case, "agent", adversary_store, policies=PolicySet(detector=LexicalDetector()))
    assert _bare(paraphrase) in free_text(lexical["answer"]["text"]), "the word rules alone keep it"

    out = run(case, "agent", adversary_store, policies=semantic)
    assert not bypasses(case, out, adversary_store, lane="agent")
    (withheld,) = [c for c in out["answer"]["claims"] if c["text"] == _bare(paraphrase)]
    assert withheld["status"] == "removed"
    assert "G2: it states position" in withheld["note"] and "in other words" in withheld["note"]


@pytest.mark.parametrize("info", ENTRIES, ids=[i["entry"] for i in ENTRIES])
def test_a_neutral_sentence_on_the_same_topic_is_kept(adversary_store, semantic, info):
    for question in info["questions"]:
        case = _case(info, question, [], info["neutral"])
        out = run(case, "agent", adversary_store, policies=semantic)
        assert not bypasses(case, out, adversary_store, lane="agent"), question
        kept = free_text(out["answer"]["text"])
        assert all(_bare(s) in kept for s in info["neutral"]), "what no position owns is not over-withheld"


@st.composite
def cases(draw):
    info = draw(st.sampled_from(ENTRIES))
    question = draw(st.sampled_from(info["questions"]))
    sides = draw(st.lists(st.sampled_from(info["paraphrases"]), min_size=1, max_size=2, unique=True))
    framed = [_framed(draw(st.sampled_from(FRAMES)), s) for s in sides]
    neutral = draw(st.lists(st.sampled_from(info["neutral"]), max_size=2, unique=True))
    body = draw(st.permutations([*framed, *neutral]))
    heading = draw(st.sampled_from(HEADINGS))
    return Case(
        question=question, entry=info["entry"], draft=heading + " ".join(body), queries=info["queries"],
        sentences=tuple(framed), neutral=tuple(neutral),
    )


def test_no_paraphrase_of_one_position_reaches_the_user_and_neutral_sentences_stay(adversary_store, semantic):
    @SETTINGS
    @given(case=cases())
    def check(case):
        found = bypasses(case, run(case, "agent", adversary_store, policies=semantic), adversary_store,
                         lane="agent")
        assert not found, f"{case.question}\n{case.draft}\n-> " + "\n-> ".join(found)

    check()

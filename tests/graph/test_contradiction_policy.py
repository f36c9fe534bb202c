from groundgate.knowledge.model import Contradiction, Position
from groundgate.policies.invariants import Register, RunTrace, applicable, disputed_axis


def _entry():
    return Contradiction(
        id="C1",
        topic="Whether e-books count towards the loan limit",
        positions=(
            Position(
                statement="The digital team says e-books never need a renewal approval.", source_ids=("a",)
            ),
            Position(
                statement="The lending desk says each e-book renewal needs approval.", source_ids=("b",)
            ),
        ),
    )


def test_the_disputed_axis_is_what_every_position_speaks_to_beyond_the_topic():
    assert disputed_axis(_entry()) == {"renewal", "approval", "need"}


def test_a_number_every_position_gives_is_not_what_they_argue_over():
    # both dates are in 2025: a question about anything in 2025 does not turn on the entry
    entry = Contradiction(
        id="C2", topic="When the reading room reopens",
        positions=(Position(statement="The notice says it reopens on 3 March 2025.", source_ids=("a",)),
                   Position(statement="The newsletter says it reopens on 10 March 2025.", source_ids=("b",))),
    )
    assert "2025" not in disputed_axis(entry)
    verdict = applicable(Register(entries=(entry,)), RunTrace(question="How many events ran in 2025?"), [])
    assert verdict.question == ()


def test_questions_about_the_axis_bear_on_the_entry(memory_store, mini_corpus):
    from groundgate.knowledge.ingest.pipeline import ingest

    ingest(memory_store, mini_corpus)
    register = Register.read(memory_store)
    verdict = applicable(register, RunTrace(question="Do e-books count towards the loan limit?"), [])
    assert [e.id for e in verdict.question] == ["CTR-EB-1"]
    plain = applicable(
        register, RunTrace(question="What does the handbook say about renewals?",
                           touched=frozenset({"concept:ebook-loans"})), [],
    )
    assert plain.question == () and [e.id for e in plain.nearby] == ["CTR-EB-1"]

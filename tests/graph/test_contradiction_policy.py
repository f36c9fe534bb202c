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

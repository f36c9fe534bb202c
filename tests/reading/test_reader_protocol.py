"""The reader is one replaceable part: every extractive answer comes from the run's reader."""

import ast
from pathlib import Path

from groundgate.graph.build import build_agent
from groundgate.models.offline import OfflinePlanner
from groundgate.pipeline.build import build_pipeline
from groundgate.pipeline.router import build_router
from groundgate.reading import ExtractiveReader, Reader, Reading
from groundgate.reading.transcript import Transcript

QUESTION = "What wind gust speed does the storm claims guidance use to treat an event as a storm?"
PACKAGE = Path(__file__).resolve().parents[2] / "groundgate"


class CitingFirstSource:
    """A reader that states one fixed sentence, cited to the first passage retrieved."""

    def __init__(self) -> None:
        self.questions: list[str] = []
        self.said: tuple[str, str] = ("", "")

    def read(self, transcript: Transcript) -> Reading:
        self.questions.append(transcript.question.text)
        first = next(r for s in transcript.steps for r in s.results if r.get("sources"))
        self.said = (first["text"].split(". ")[0].rstrip("."), first["sources"][0])
        return Reading("answered", (f"{self.said[0]}. [{self.said[1]}]",), score=1.0)


def test_the_default_reader_satisfies_the_protocol():
    assert isinstance(ExtractiveReader(), Reader)


def test_lane_a_the_agent_and_the_router_answer_with_the_reader_they_are_given(bundled_store):
    for build in (
        lambda r: build_pipeline(bundled_store, reader=r),
        lambda r: build_agent(bundled_store, OfflinePlanner(), reader=r),
        lambda r: build_router(bundled_store, OfflinePlanner(), reader=r),
    ):
        reader = CitingFirstSource()
        answer = build(reader).invoke({"question": QUESTION, "as_of": None})["answer"]
        assert reader.questions and reader.questions[0] == QUESTION
        sentence, source = reader.said
        assert answer["answered"] and sentence in answer["text"]
        assert [c["source_id"] for c in answer["citations"]] == [source]


def test_an_insufficient_reading_is_said_in_its_own_words_and_shows_only_what_it_found():
    reading = Reading(
        "insufficient", ("Parental leave is paid. [HR-1]",), ("the policy does not state its length",)
    )
    text = reading.text()
    assert text.startswith("INSUFFICIENT: the policy does not state its length.")
    assert "Parental leave is paid. [HR-1]" in text


def test_a_partial_reading_answers_and_says_what_is_missing():
    reading = Reading("partial", ("The fee is EUR 40. [A]",), ("the date it starts",))
    assert reading.text().splitlines() == [
        "The fee is EUR 40. [A]", "Not stated in the sources: the date it starts."
    ]


def test_no_module_outside_models_asks_whether_a_model_is_the_offline_planner():
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        if path.parent.name == "models":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "isinstance"
                    and "OfflinePlanner" in ast.unparse(node)):
                offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert offenders == []

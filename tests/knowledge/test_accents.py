"""Names with accents (Zürich, Kraków, Müller) are found whether asked with or without them."""

import pytest

from groundgate.graph.build import build_agent
from groundgate.knowledge.resolution import resolve
from groundgate.knowledge.text import content_terms, fold, key_parts
from groundgate.models.factory import make_chat_model

DOCS = {
    "anja-muller.md": """\
        # Anja Müller

        Anja Müller was born in Zürich in 1961. She later moved to São Paulo, where she
        taught structural design for twenty years.
        """,
    "krakow.md": """\
        # Kraków

        Kraków is a city in southern Poland with a population of 800,000.
        """,
    "bern.md": """\
        # Bern

        Bern is the capital of Switzerland and lies on the river Aare.
        """,
}


@pytest.fixture(scope="module")
def store(store_from_texts):
    return store_from_texts(DOCS)


def test_words_with_accents_are_one_word():
    assert content_terms("Was Anja Müller born in Zürich?") == ["anja", "müller", "born", "zürich"]
    assert key_parts("Zürich, São Paulo") == ["zurich", "sao", "paulo"]
    assert fold("Kraków") == "Krakow" and fold("plain") == "plain"


@pytest.mark.parametrize("query", ["Zürich", "Zurich", "Müller", "Sao Paulo", "krakow"])
def test_search_finds_the_article_with_or_without_accents(store, query):
    hits = store.search_evidence(query)
    assert hits, query
    assert hits[0].doc_id in {"anja-muller", "krakow"}


def test_a_mention_without_accents_resolves_to_the_name_with_them(store):
    matches, _ = resolve(store, "Anja Muller")
    assert matches and matches[0].entity.id == "anja-muller"
    assert matches[0].score == 1.0


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Where was Anja Muller born?", "Zürich"),
        ("Where was Anja Müller born?", "Zürich"),
        ("What is the population of Krakow?", "800,000"),
    ],
)
def test_the_agent_answers_with_or_without_accents(store, question, expected):
    out = build_agent(store, make_chat_model("offline")).invoke({"question": question})
    answer = out["answer"]
    assert answer["answered"], answer["text"]
    assert expected in answer["text"]

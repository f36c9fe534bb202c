"""The disagreement sets (bench/datasets/disputes, bench/datasets/accounts) hold their labels.

Each contested question names the two disagreeing documents first and one keyword group
per side, and each group is in the text of its own side's document; a control's groups
are in the text of its expected sources. The split is by topic, half and half.
"""

import pathlib

import pytest

from groundgate.eval.dataset import dataset_store, load_questions

BENCH = pathlib.Path(__file__).parents[2] / "bench" / "datasets"
KINDS = ("polarity", "entity", "presence", "period")


@pytest.mark.parametrize(("name", "documents", "questions"), [("disputes", 48, 80), ("accounts", 36, 60)])
def test_each_side_of_a_disagreement_is_in_its_own_document(name, documents, questions):
    with dataset_store(BENCH / name) as (store, questions_file):
        loaded = load_questions(questions_file, store)
        assert len(loaded) == questions and store.counts()["documents"] == documents
        for q in loaded:
            texts = [" ".join(c.text for c in store.chunks_of(s)).lower() for s in q.expected_source_ids]
            assert q.answerable
            if q.contested:
                assert q.category in {f"contested-{k}" for k in KINDS}, q.qid
                assert len(q.gold_keywords) == 2 and len(set(q.expected_source_ids[:2])) == 2, q.qid
                for group, text in zip(q.gold_keywords, texts, strict=False):
                    assert any(k.lower() in text for k in group), f"{q.qid}: {group}"
            else:
                assert q.category.startswith("control-"), q.qid
                for group in q.gold_keywords:
                    assert any(k.lower() in t for t in texts for k in group), f"{q.qid}: {group}"
    for split in ("dev", "test"):
        half = [q for q in loaded if q.split == split]
        assert len(half) * 2 == len(loaded)
        assert {q.category for q in half if q.contested} == {f"contested-{k}" for k in KINDS}


def test_the_accounts_set_has_each_kind_seven_times_or_more():
    loaded = load_questions(BENCH / "accounts" / "questions.jsonl")
    for kind in KINDS:
        assert sum(q.category == f"contested-{kind}" for q in loaded) >= 7, kind

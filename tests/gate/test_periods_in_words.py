"""Periods written in words are read as the years they span, whatever the century.

The detectors compare periods ("the eighteen-thirties" against "the eighteen-seventies") to
tell a disagreement from an agreement; a period they cannot read is no answer at all, and
the disagreement goes unseen (the accounts set dates a manuscript to the twelfth or the
fourteenth century, a sourdough starter to the nineteen-fifties or the late twenty-tens).
"""

import pytest

from groundgate.policies.detectors.contrast import periods
from groundgate.policies.detectors.judge_reply import exclusive


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("written in the fourteenth century", (1300, 1399)),
        ("copied in the early twelfth century", (1100, 1132)),
        ("begun in the late twenty-tens", (2017, 2019)),
        ("rebuilt in the twenty twenties", (2020, 2029)),
        ("first lit in the early eighteen-thirties", (1830, 1832)),
    ],
)
def test_a_period_in_words_spans_its_years(text, span):
    assert periods(text) == {span}


def test_answers_centuries_apart_exclude_each_other_and_one_century_does_not():
    assert exclusive(["the twelfth century", "the fourteenth century"])
    assert not exclusive(["the fourteenth century", "the late fourteenth century"])

"""Every calculator says what it answers, in one sentence that the catalogs translate."""

from __future__ import annotations

import pytest

from calculators import CALCULATORS


@pytest.mark.parametrize("name", sorted(CALCULATORS))
def test_each_calculator_says_what_it_answers(name):
    calculator = CALCULATORS[name]
    question = calculator.question
    assert question and question.endswith(".") and question[0].isupper(), question
    assert len(question) <= 100, f"{name}: one short line, got {len(question)} characters"
    assert calculator.describe()["question"] == question

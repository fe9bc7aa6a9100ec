"""Every worked example in the rule data that names a calculator gives its stated result."""

from __future__ import annotations

import math

import pytest

from calculators import CALCULATORS
from kensei_ref.rules.loader import load
from kensei_ref.rules.values_export import RULE_VALUES_PATH, rule_values_json

BOOK = load()
EXAMPLES = [
    pytest.param(rule.id, example, id=f"{rule.id}:{example.id}")
    for rule in BOOK.rules
    for example in rule.examples
    if example.calculator
]


def _same(actual, expected) -> bool:
    if isinstance(expected, list):
        return (
            isinstance(actual, list | tuple)
            and len(actual) == len(expected)
            and all(_same(a, e) for a, e in zip(actual, expected, strict=True))
        )
    if isinstance(expected, bool | str):
        return actual == expected
    if isinstance(expected, int | float):
        return isinstance(actual, int | float) and math.isclose(actual, expected, rel_tol=0, abs_tol=1e-9)
    return actual == expected


def test_there_are_worked_examples_to_check():
    assert len(EXAMPLES) >= 10


@pytest.mark.parametrize(("rule_id", "example"), EXAMPLES)
def test_worked_example(rule_id, example):
    assert example.calculator in CALCULATORS, f"{rule_id}: unknown calculator {example.calculator!r}"
    result = CALCULATORS[example.calculator].run(dict(example.inputs))
    for key, expected in example.expect.items():
        assert key in result, f"{rule_id}:{example.id}: result has no {key!r} (has {sorted(result)})"
        assert _same(result[key], expected), f"{rule_id}:{example.id}: {key} = {result[key]!r}, expected {expected!r}"


def test_calculators_read_the_current_rule_data():
    """calculators/rule_values.json is generated from the YAML: it must equal what the data states now."""
    assert RULE_VALUES_PATH.read_text(encoding="utf-8") == rule_values_json(BOOK), (
        "run `kensei-ref data values` after changing a rule value"
    )

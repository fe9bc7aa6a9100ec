"""The package's own rules: standard library only, one declaration of inputs, labels Babel can
extract, docstring examples that run, and bounded inputs that stay fast."""

from __future__ import annotations

import ast
import dataclasses
import doctest
import importlib
import json
import sys
from pathlib import Path

import pytest

import calculators
from calculators import CALCULATORS
from calculators.results import Shown, shown_fields

PACKAGE = Path(calculators.__file__).parent
MODULES = sorted(path.stem for path in PACKAGE.glob("*.py") if path.stem != "__init__")

NAMES = [
    "shooting", "melee", "regroup", "planner", "charge", "movement", "action-points", "spells", "damage-roll",
    "dice-split", "morale", "morale-states", "rank-test", "drowning", "priority", "morale-trigger",
]  # fmt: skip


def test_the_registry_has_every_calculator():
    assert sorted(CALCULATORS) == sorted(NAMES)
    for name, calculator in CALCULATORS.items():
        assert calculator.name == name


@pytest.mark.parametrize("module", MODULES)
def test_standard_library_only(module):
    tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            assert top in sys.stdlib_module_names or top == "__future__", f"{module} imports {name}"
            assert top not in ("random", "secrets", "time"), f"{module} imports {name}: calculators are exact"


@pytest.mark.parametrize("name", NAMES)
def test_params_are_the_input_fields(name):
    calculator = CALCULATORS[name]
    fields = [f.name for f in dataclasses.fields(calculator.inputs) if f.name != "rules"]
    assert fields == [param.name for param in calculator.params]
    assert len(set(fields)) == len(fields)
    described = calculator.describe()
    assert [param["name"] for param in described["params"]] == fields


def _translatable_strings() -> set[str]:
    """Every literal wrapped in N_() in the package: what Babel's extractor will find."""
    found = set()
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "N_":
                assert len(node.args) == 1 and isinstance(node.args[0], ast.Constant), f"{path.name}: N_ of a literal"
                found.add(node.args[0].value)
    return found


@pytest.mark.parametrize("name", NAMES)
def test_every_label_shown_is_extractable(name, variants):
    extractable = _translatable_strings()
    calculator = CALCULATORS[name]
    assert calculator.label in extractable
    for param in calculator.params:
        assert param.label in extractable, param.name
        assert param.help in extractable, param.name
    for inputs in variants(name):
        try:
            result = calculator.evaluate(inputs)
        except calculators.CalculatorInputError:
            continue
        for item in (*result.steps, *result.figures()):
            assert item.label in extractable, (item.key, item.label)
        for table in result.tables():
            assert {table.title, table.outcome_label} <= extractable


@pytest.mark.parametrize("module", MODULES)
def test_docstring_examples(module):
    failures, _ = doctest.testmod(importlib.import_module(f"calculators.{module}"))
    assert failures == 0


@pytest.mark.parametrize("name", NAMES)
def test_results_are_json_ready(name, variants):
    for inputs in variants(name):
        try:
            result = CALCULATORS[name].run(inputs)
        except calculators.CalculatorInputError:
            continue
        assert json.loads(json.dumps(result, allow_nan=False)) == result
        assert result["calculator"] == name
        for step in result["steps"]:
            assert set(step) >= {"rule", "key", "label", "value"}
            assert step["rule"].startswith(("kensei.", "ronin."))


def _side(side: str, wounds: int, **stats) -> dict:
    figures = {
        "models": wounds,
        "wounds": wounds,
        "attack": 5,
        "defense": 5,
        "armor": 3,
        "initiative": 3,
    } | stats
    return {f"{side}_{key}": value for key, value in figures.items()}


EXTREMES = {
    "shooting subtractive 200 dice": ("shooting", {"dice": 200, "attack": 0, "defense": 0, "armor": 0,
                                                   "damage_rule": "subtractive"}),
    "shooting two volleys of 100": ("shooting", {"dice": 100, "attack": 0, "defense": 0, "armor": 0,
                                                 "damage_rule": "subtractive", "multiple_shots": True}),
    "melee 200 against 200, every bonus": (
        "melee",
        _side("a", 200, attack=0, defense=0, armor=0, extra_dice=20, counter_charge=True)
        | _side("b", 200, attack=0, defense=0, armor=0, extra_dice=20, models=66),
    ),
    "planner 10 units 20 points": ("planner", {"points": 20, "honors": [5, 6, 7, 8, 4, 3, 5, 6, 7, 9]}),
    "morale over 20 turns": ("morale-states", {"morale": 7, "turns": 20, "triggers": [1] * 20,
                                               "banner": True}),
}  # fmt: skip


@pytest.mark.parametrize(("name", "inputs"), EXTREMES.values(), ids=EXTREMES.keys())
def test_the_largest_inputs_give_a_whole_distribution(name, inputs):
    """The bounds' extremes compute (their time is measured by `make bench`, not asserted here)."""
    result = CALCULATORS[name].run(inputs)
    if name == "morale-states":
        pmf = list(result["final"].values())
    else:
        pmf = next(value for key, value in result.items() if key.endswith("pmf") and isinstance(value, list))
    assert abs(sum(pmf) - 1) < 1e-9


@pytest.mark.parametrize("name", NAMES)
def test_declared_fields_are_in_the_json_and_the_figures(name, variants):
    """A field's annotation (``figure(...)``, ``entry(...)``) is its one declaration: the JSON has it,
    and a figure field is among the figures whenever it has a value."""
    calculator = CALCULATORS[name]
    declared = shown_fields(calculator.result)
    for inputs in variants(name):
        try:
            result = calculator.evaluate(inputs)
        except calculators.CalculatorInputError:
            continue
        payload, figures = result.payload(), {figure.key: figure for figure in result.figures()}
        for field, how in declared:
            if isinstance(how, Shown):
                assert field in payload or how.json is None, (field, sorted(payload))
                if how.figure and getattr(result, field) is not None:
                    assert figures[field].label == how.label, field
            else:
                assert how.key in {table.key for table in result.tables()}, field


def test_a_step_of_an_undeclared_field_is_an_error():
    with pytest.raises(KeyError):
        CALCULATORS["regroup"].result.step("no_such_figure", "kensei.regroup", 0)

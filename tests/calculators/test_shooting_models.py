"""Shooting's shooters in a player's terms: models and the Wounds each has, beside the per-model
list and the dice count; exactly one way at a time, and the old ways give the figures they gave."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_capture import run_cli

from calculators import CALCULATORS, CalculatorInputError
from kensei_ref.cli.main import main

SHOOTING = CALCULATORS["shooting"]
TARGET = {"attack": 6, "defense": 5, "armor": 3}
BEFORE = json.loads((Path(__file__).parents[1] / "fixtures" / "shooting_before_models.json").read_text())
"""Inputs given by ``wounds`` or ``dice`` and their results, recorded before models and Wounds each existed."""

EQUIVALENT = [
    # (models, Wounds each, other inputs)
    (6, 1, {"cover": "light"}),
    (4, 2, {}),
    (1, 1, {"range": "short"}),
    (10, 3, {"precision": True, "damage_rule": "subtractive"}),
    (5, 2, {"multiple_shots": True, "cover": "heavy"}),
    (3, 4, {"range": "out"}),
    (100, 2, {}),
    (8, 1, {"second_shot": True, "shooter_in": "water", "target_in_water": True}),
]


def _without_shooter_steps(result: dict) -> dict:
    return {**result, "steps": [s for s in result["steps"] if s["key"] not in ("models", "wounds_each")]}


@pytest.mark.parametrize(("models", "each", "other"), EQUIVALENT)
def test_models_and_wounds_each_give_the_wounds_list_result(models, each, other):
    by_models = SHOOTING.run({"models": models, "wounds_each": each, **TARGET, **other})
    by_list = SHOOTING.run({"wounds": [each] * models, **TARGET, **other})
    assert _without_shooter_steps(by_models) == by_list
    assert by_models["dice"] == models * each * by_models["volleys"]
    shown = {step["key"]: step["value"] for step in by_models["steps"]}
    assert (shown["models"], shown["wounds_each"], shown["dice"]) == (models, each, models * each)


def test_six_archers_with_one_wound_roll_six_dice():
    assert SHOOTING.run({"models": 6, "wounds_each": 1, **TARGET})["dice"] == 6


@pytest.mark.parametrize("case", BEFORE, ids=lambda case: ",".join(f"{k}={v}" for k, v in case["inputs"].items()))
def test_wounds_and_dice_give_the_figures_they_gave(case):
    """The same figures, except for a shot no unit has the action points for, now refused by name."""
    inputs = case["inputs"]
    both_volleys = inputs.get("multiple_shots") or inputs.get("second_shot")
    if both_volleys and (inputs.get("precision") or inputs.get("moved", "none") != "none"):
        with pytest.raises(CalculatorInputError, match="no unit has more than 3") as refused:
            SHOOTING.run(inputs)
        assert refused.value.field == ("precision" if inputs.get("precision") else "moved")
    else:
        assert SHOOTING.run(inputs) == case["result"]


MIXED = [
    ({"dice": 6, "models": 6, "wounds_each": 1}, "dice"),
    ({"dice": 6, "wounds": [1, 1]}, "dice"),
    ({"wounds": [1, 1], "models": 2, "wounds_each": 1}, "wounds"),
    ({"wounds": [1, 1], "models": 2}, "wounds"),
    ({"dice": 6, "wounds": [1], "models": 1, "wounds_each": 1}, "dice"),
    ({}, "dice"),
]


@pytest.mark.parametrize(("shooters", "field"), MIXED)
def test_exactly_one_way_of_giving_the_shooters(shooters, field):
    with pytest.raises(CalculatorInputError) as refused:
        SHOOTING.run({**shooters, **TARGET})
    assert refused.value.field == field
    assert set(refused.value.related) == {"dice", "wounds", "models", "wounds_each"}


@pytest.mark.parametrize(("given", "missing"), [({"models": 6}, "wounds_each"), ({"wounds_each": 1}, "models")])
def test_models_and_wounds_each_go_together(given, missing):
    with pytest.raises(CalculatorInputError) as refused:
        SHOOTING.run({**given, **TARGET})
    assert refused.value.field == missing


def test_the_dice_limit_bounds_models_times_wounds():
    most = SHOOTING.run({"models": 100, "wounds_each": 2, **TARGET})["dice"]
    with pytest.raises(CalculatorInputError) as refused:
        SHOOTING.run({"models": 100, "wounds_each": 3, **TARGET})
    assert refused.value.field == "models" and "200" in str(refused.value) and most == 200
    with pytest.raises(CalculatorInputError):
        SHOOTING.run({"models": 100, "wounds_each": 2, "multiple_shots": True, **TARGET})


# ---- the terminal ------------------------------------------------------------------------------

ARGS = ["--attack", "6", "--defense", "5", "--armor", "3", "--json"]


def test_cli_models_and_wounds_each(capsys):
    status, out, err = run_cli(main, capsys, "calc", "shooting", "--models", "6", "--wounds-each", "1", *ARGS)
    assert (status, err) == (0, "")
    by_models = json.loads(out)
    assert by_models["dice"] == 6
    status, out, _ = run_cli(main, capsys, "calc", "shooting", "--wounds", "1,1,1,1,1,1", *ARGS)
    assert status == 0
    assert _without_shooter_steps(by_models) == json.loads(out)


@pytest.mark.parametrize("case", BEFORE[:4], ids=lambda case: ",".join(case["inputs"]))
def test_cli_wounds_and_dice_give_the_figures_they_gave(capsys, case):
    argv = ["calc", "shooting", "--json"]
    for key, value in case["inputs"].items():
        option = "--" + key.replace("_", "-")
        argv += (
            [option]
            if value is True
            else [option, ",".join(map(str, value)) if isinstance(value, list) else str(value)]
        )
    status, out, _ = run_cli(main, capsys, *argv)
    assert status == 0
    assert json.loads(out) == case["result"]


MIXED_CLI = [
    (["--models", "6", "--wounds-each", "1", "--dice", "6"], "--dice"),
    (["--models", "6", "--wounds-each", "1", "--wounds", "1,1"], "--wounds"),
    (["--dice", "6", "--wounds", "1,1"], "--dice"),
]


@pytest.mark.parametrize(("shooters", "at"), MIXED_CLI)
def test_cli_refuses_two_ways_in_one_line(capsys, shooters, at):
    status, out, err = run_cli(main, capsys, "calc", "shooting", *shooters, *ARGS)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"{at}: give either --dice or --wounds or --models with --wounds-each" in err


def test_cli_models_without_wounds_each(capsys):
    status, _, err = run_cli(main, capsys, "calc", "shooting", "--models", "6", *ARGS)
    assert status == 2
    assert err.count("\n") == 1
    assert "--wounds-each: is needed with --models" in err

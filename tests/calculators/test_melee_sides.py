"""Melee in a player's terms: side A is "Your unit", side B the "Enemy unit", in every language;
the inputs' names (a_*, b_*) and the JSON keys stay as the CLI contract has them."""

from __future__ import annotations

import json

import pytest
from calculator_inputs import BASE
from cli_capture import run_cli

from calculators import CALCULATORS
from calculators.choices import SIDE_NAMES
from kensei_ref.cli.main import main
from kensei_ref.languages import LABELLED, get_translations

MELEE = CALCULATORS["melee"]


def test_figures_and_tables_name_the_sides_as_a_player_does():
    result = MELEE.evaluate(BASE["melee"])
    labels = [figure.label for figure in result.figures()] + [table.title for table in result.tables()]
    assert "Victory for your unit" in labels and "Defeat for your unit" in labels
    assert any("enemy unit" in label for label in labels)
    for label in labels + [step.label for step in result.steps]:
        assert not any(f" {side}" in f" {label} " for side in ("A ", "B ")), label


def test_inputs_and_json_keys_keep_their_names():
    assert {param.name for param in MELEE.params} >= {"a_models", "b_models", "a_wounds", "first"}
    assert {"victory", "draw", "defeat", "p_a_first", "a_dealt_pmf", "b_dealt_pmf"} <= set(MELEE.run(BASE["melee"]))


@pytest.mark.parametrize("lang", ["en", "fr", "ru"])
def test_terminal_steps_name_the_sides(capsys, lang):
    argv = ["calc", "melee", "--lang", lang]
    for key, value in BASE["melee"].items():
        argv += ["--" + key.replace("_", "-"), str(value)]
    status, out, _ = run_cli(main, capsys, *argv)
    assert status == 0
    tr = get_translations(lang).gettext
    for side in ("a", "b"):
        assert tr(LABELLED).format(label=tr(SIDE_NAMES[side]), text="") in out
    assert tr("Victory for your unit") in out and (
        lang == "en" or tr("Victory for your unit") != "Victory for your unit"
    )
    status, out, _ = run_cli(main, capsys, *argv[:2], *argv[4:], "--json")
    assert json.loads(out)["victory"] == pytest.approx(MELEE.run(BASE["melee"])["victory"])

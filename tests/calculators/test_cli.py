"""``kensei-ref calc``: the JSON contract, readable output in three languages, one-line errors."""

from __future__ import annotations

import functools
import json

import pytest
from cli_capture import run_cli

from calculators import CALCULATORS, CalculatorInputError

try:
    from kensei_ref.cli.main import main
except ImportError:  # the project's CLI is not there yet: a parser with only ``calc``
    import argparse

    from kensei_ref.cli.calc import OneLineParser, add_calc_parser, run_calc

    def main(argv):
        parser = OneLineParser(prog="kensei-ref")
        add_calc_parser(parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser))
        args: argparse.Namespace = parser.parse_args(argv)
        return run_calc(args)


@pytest.fixture
def cli(capsys):
    """``cli(*argv) -> (status, stdout, stderr)``, whether the command returns or exits."""

    return functools.partial(run_cli, main, capsys)


def argv_of(name: str, inputs: dict) -> list[str]:
    argv = ["calc", name]
    for key, value in inputs.items():
        option = "--" + key.replace("_", "-")
        if value is True:
            argv.append(option)
        elif value is not False:
            argv += [option, ",".join(map(str, value)) if isinstance(value, list) else str(value)]
    return argv


ARCHERS = ["--wounds", "2,2,2,1", "--attack", "6", "--defense", "5", "--armor", "3"]
MELEE = ["--a-models", "5", "--a-wounds", "6", "--a-attack", "5", "--a-defense", "5", "--a-armor", "3",
         "--a-initiative", "3", "--b-models", "4", "--b-wounds", "4", "--b-attack", "4", "--b-defense", "6",
         "--b-armor", "4", "--b-initiative", "2"]  # fmt: skip

CONTRACTS = {
    "shooting": ([*ARCHERS, "--range", "long", "--precision", "--moved", "march",
                  "--cover", "light", "--shooter-in", "deep-forest", "--target-in-water",
                  "--damage-rule", "subtractive"],
                 {"calculator", "dice", "effective_attack", "effective_defense", "pmf", "mean", "at_least",
                  "steps"}),
    "melee": ([*MELEE, "--a-charge", "cavalry", "--a-cover", "light", "--b-in-water", "--b-defensive", "1",
               "--a-extra-dice", "1", "--first", "roll"],
              {"calculator", "p_a_first", "victory", "draw", "defeat", "damage_difference_pmf", "a_dealt_pmf",
               "b_dealt_pmf", "steps"}),
    "regroup": (["--honor", "6", "--bonus", "1", "--attempts", "2", "--mystical"],
                {"calculator", "p_per_attempt", "p_regroup", "expected_cp", "steps"}),
    "morale": (["--morale", "7", "--wavering", "--under-half", "--commander", "--banner"],
               {"calculator", "p_pass", "steps"}),
    "charge": (["--dice", "2d10", "--distance", "9", "--indirect"], {"calculator", "p_success", "steps"}),
}  # fmt: skip


@pytest.mark.parametrize(("name", "options", "keys"), [(n, *c) for n, c in CONTRACTS.items()], ids=CONTRACTS)
def test_json_contract(cli, name, options, keys):
    status, out, err = cli("calc", name, *options, "--json")
    assert (status, err) == (0, "")
    result = json.loads(out)
    assert keys <= set(result)
    assert result["calculator"] == name
    for step in result["steps"]:
        assert {"rule", "key", "label", "value"} <= set(step)


def test_worked_example_four_archers_roll_seven_dice(cli):
    status, out, _ = cli("calc", "shooting", *ARCHERS, "--json")
    result = json.loads(out)
    assert status == 0
    assert result["dice"] == 7
    assert result["effective_attack"] == 6
    assert sum(result["pmf"]) == pytest.approx(1)


def test_melee_damage_difference_keys_are_signed_integers(cli):
    _, out, _ = cli("calc", "melee", *MELEE, "--json")
    result = json.loads(out)
    assert sorted(map(int, result["damage_difference_pmf"])) == list(range(-6, 5))
    assert result["victory"] + result["draw"] + result["defeat"] == pytest.approx(1)


@pytest.mark.parametrize("lang", ["en", "fr", "ru"])
def test_human_output_in_each_language(cli, lang):
    status, out, err = cli("calc", "shooting", *ARCHERS, "--lang", lang)
    assert (status, err) == (0, "")
    assert "█" in out
    assert "kensei.hit-roll" in out
    assert ("1.4" if lang == "en" else "1,4") in out  # the expected Wounds, in the locale's digits


@pytest.mark.parametrize("name", CALCULATORS)
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_calculator_runs_in_the_terminal(cli, variants, name, lang):
    for inputs in variants(name):
        try:
            expected = CALCULATORS[name].run(inputs)
        except CalculatorInputError:
            assert cli(*argv_of(name, inputs))[0] == 2
            continue
        status, out, err = cli(*argv_of(name, inputs), "--lang", lang)
        assert (status, err) == (0, ""), inputs
        assert out.strip()
        status, out, _ = cli(*argv_of(name, inputs), "--json")
        assert json.loads(out) == expected


BAD = [
    ("attack-not-a-number",
     ["calc", "shooting", "--wounds", "2,2", "--attack", "x", "--defense", "5", "--armor", "3"],
     "--attack: must be an integer from 0 to 20, got 'x'"),
    ("attack-missing", ["calc", "shooting", "--dice", "3", "--defense", "5", "--armor", "3"],
     "--attack: is required"),
    ("range-unknown", ["calc", "shooting", *ARCHERS, "--range", "far"],
     "--range: must be one of short, normal, long, out, got 'far'"),
    ("wounds-bad-list",
     ["calc", "shooting", "--wounds", "2,,1", "--attack", "6", "--defense", "5", "--armor", "3"],
     "--wounds: must be a list of 1 to 100 integers from 0 to 20, got '2,,1'"),
    ("dice-and-wounds", ["calc", "shooting", *ARCHERS, "--dice", "3"],
     "--dice: give either --dice or --wounds"),
    ("models-above-wounds", ["calc", "melee", *MELEE, "--b-models", "5"],
     "--b-models: must be at most --b-wounds"),
    ("defensive-after-charge", ["calc", "melee", *MELEE, "--a-charge", "infantry", "--a-defensive", "1"],
     "--a-defensive: must be 0 for a unit that charged or counter-charged (--a-charge, --a-counter-charge)"),
    ("attempts-above-rules", ["calc", "regroup", "--honor", "5", "--attempts", "3"],
     "--attempts: must be an integer from 1 to 2, got '3'"),
    ("cavalry-very-high", ["calc", "movement", "--unit-type", "cavalry", "--very-high-obstacles", "1"],
     "--very-high-obstacles: must be 0 for cavalry"),
    ("lang-unknown", ["calc", "morale", "--morale", "7", "--lang", "de"],
     "--lang: must be one of en, fr, ru"),
    ("unknown-option", ["calc", "charge", "--dice", "1d10", "--distance", "5", "--speed", "3"],
     "--speed"),
    ("option-without-value", ["calc", "charge", "--dice", "1d10", "--distance"], "--distance"),
    ("unknown-calculator", ["calc", "fireball"], "fireball"),
    # braces typed by a user are no template slots
    ("braces-named", ["calc", "regroup", "--honor", "{x}"], "--honor: must be an integer from 0 to 20, got '{x}'"),
    ("braces-positional", ["calc", "regroup", "--honor", "{0}"], "got '{0}'"),
    ("braces-empty", ["calc", "shooting", "--dice", "{}", "--attack", "6", "--defense", "5", "--armor", "3"],
     "--dice: must be an integer from 0 to 200, got '{}'"),
    ("braces-in-list", ["calc", "shooting", "--wounds", "1,{2}", "--attack", "6", "--defense", "5", "--armor", "3"],
     "got '1,{2}'"),
    ("braces-in-choice", ["calc", "shooting", *ARCHERS, "--range", "{far}"], "got '{far}'"),
    # one number grammar with the site's form: ASCII digits and a leading minus only
    ("plus-sign", ["calc", "regroup", "--honor", "+5"], "got '+5'"),
    ("underscore", ["calc", "regroup", "--honor", "1_0"], "got '1_0'"),
    ("arabic-indic-digit", ["calc", "regroup", "--honor", "٣"], "got '٣'"),
    ("fullwidth-digit", ["calc", "regroup", "--honor", "３"], "got '３'"),
    ("newline-quoted", ["calc", "regroup", "--honor", "5\n6"], "got '5\\n6'"),
]  # fmt: skip


@pytest.mark.parametrize(("argv", "message"), [pytest.param(*case[1:], id=case[0]) for case in BAD])
def test_bad_input_is_one_line_and_status_two(cli, argv, message):
    status, out, err = cli(*argv)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.endswith("\n")
    assert message in err
    assert "Traceback" not in err


def test_help_lists_every_option(cli):
    for name, calculator in CALCULATORS.items():
        status, out, _ = cli("calc", name, "--help")
        assert status == 0
        for param in calculator.params:
            assert "--" + param.name.replace("_", "-") in out
        assert "--json" in out and "--lang" in out


@pytest.mark.parametrize("columns", ["²", "٣", "9" * 4000, "9" * 5000, "-3", "abc"])
def test_any_terminal_width_in_the_environment_is_read_or_passed_over(cli, monkeypatch, columns):
    """``COLUMNS`` is read as the standard library reads it: what ``int`` refuses ("²", which ``isdigit``
    takes, and more than 4,300 digits) counts as no width, never as a traceback."""
    monkeypatch.setenv("COLUMNS", columns)
    status, _, err = cli("calc", "shooting", "--attack", "x")
    assert status == 2 and err.count("\n") == 1 and "--attack" in err
    status, out, _ = cli("calc", "shooting", "--help")
    assert status == 0 and "--attack" in out
    status, out, _ = cli("rule", "8.3.2")
    assert status == 0 and out

"""The units file in the terminal: ``calc ... --units FILE --mine NAME --enemy NAME`` and ``advise``."""

from __future__ import annotations

import json
import os
import re

import pytest
from cli_capture import run_cli
from unit_profiles import ARCHERS, SAMURAI, WARBAND, unit_of_type, units_file

from calculators import CALCULATORS
from calculators.advisor import advice_json, advise
from calculators.profiles import read_units
from kensei_ref.cli.advise import _sequence
from kensei_ref.cli.main import main
from kensei_ref.languages import get_translations


@pytest.fixture
def units(tmp_path):
    path = tmp_path / "units.json"
    path.write_text(json.dumps(units_file(ARCHERS, SAMURAI)), encoding="utf-8")
    return str(path)


def test_calc_takes_both_units_from_the_file(units, capsys):
    status, out, err = run_cli(main, capsys, "calc", "shooting", "--units", units, "--mine", "ashigaru archers",
                               "--enemy", "Samurai", "--cover", "light", "--json")  # fmt: skip
    assert (status, err) == (0, "")
    expected = CALCULATORS["shooting"].run({"wounds": [1] * 6, "attack": 6, "defense": 6, "armor": 4, "cover": "light"})
    assert json.loads(out) == expected


def test_a_warbands_rank_fills_the_rank_test(tmp_path, capsys):
    path = tmp_path / "units.json"
    path.write_text(json.dumps(units_file({**WARBAND, "rank": 2})), encoding="utf-8")
    status, out, _ = run_cli(main, capsys, "calc", "rank-test", "--units", str(path), "--mine", "Ronin band",
                             "--state", "panic", "--json")  # fmt: skip
    assert status == 0
    assert json.loads(out) == CALCULATORS["rank-test"].run({"rank": 2, "state": "panic"})


def test_a_typed_option_replaces_what_the_unit_gave(units, capsys):
    status, out, _ = run_cli(main, capsys, "calc", "shooting", "--units", units, "--mine", "Ashigaru archers",
                             "--enemy", "Samurai", "--dice", "3", "--attack", "4", "--json")  # fmt: skip
    assert status == 0
    assert json.loads(out) == CALCULATORS["shooting"].run({"dice": 3, "attack": 4, "defense": 6, "armor": 4})


def test_melee_takes_your_unit_as_side_a(units, capsys):
    status, out, _ = run_cli(main, capsys, "calc", "melee", "--units", units, "--mine", "Samurai",
                             "--enemy", "Ashigaru archers", "--json")  # fmt: skip
    assert status == 0
    inputs = {"a_models": 4, "a_wounds": 8, "a_attack": 5, "a_defense": 6, "a_armor": 4, "a_initiative": 5,
              "b_models": 6, "b_wounds": 6, "b_attack": 6, "b_defense": 5, "b_armor": 3, "b_initiative": 4}  # fmt: skip
    assert json.loads(out) == CALCULATORS["melee"].run(inputs)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--mine", "Samurai"], "--mine: needs --units: the file the unit is in"),
        (["--units", "/nonexistent/units.json", "--mine", "x"], "cannot read '/nonexistent/units.json'"),
        (["--units", "{units}", "--mine", "Ninja"], "--mine: must name a unit of the file"),
    ],
    ids=["no file", "missing file", "unknown name"],
)
def test_a_units_problem_is_one_line_and_status_2(units, capsys, args, says):
    args = [arg.replace("{units}", units) for arg in args]
    status, out, err = run_cli(main, capsys, "calc", "regroup", *args)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and says in err


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("{not json", "must be a JSON file"),
        (json.dumps({"units": []}), "format: must be 'kensei-ref/units'"),
        (json.dumps(units_file({**SAMURAI, "attack": 99})), "units[0].attack: must be an integer from 0 to 20"),
    ],
    ids=["not json", "not ours", "bad field"],
)
def test_a_bad_units_file_names_the_file_and_the_field(tmp_path, capsys, content, says):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    status, _, err = run_cli(main, capsys, "calc", "regroup", "--honor", "6", "--units", str(path), "--mine", "x")
    assert status == 2
    assert err.startswith(f"kensei-ref calc regroup: error: --units: {str(path)!r}: ")
    assert says in err and err.count("\n") == 1


def test_braces_in_a_name_are_a_name(tmp_path, capsys):
    path = tmp_path / "units.json"
    path.write_text(json.dumps(units_file({**SAMURAI, "name": "{0} {x}"})), encoding="utf-8")
    status, _, err = run_cli(main, capsys, "calc", "regroup", "--honor", "6", "--units", str(path), "--mine", "x")
    assert status == 2
    assert err == "kensei-ref calc regroup: error: --mine: must name a unit of the file ('{0} {x}'), got 'x'\n"


def test_a_file_that_is_not_text_is_refused(tmp_path, capsys):
    path = tmp_path / "units.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    status, _, err = run_cli(main, capsys, "advise", "--units", str(path), "--mine", "a", "--enemy", "b",
                             "--distance", "5")  # fmt: skip
    assert status == 2 and "not a UTF-8 text file" in err


def test_advise_prints_the_same_rows_as_python(units, capsys):
    status, out, err = run_cli(main, capsys, "advise", "--units", units, "--mine", "Ashigaru archers",
                               "--enemy", "Samurai", "--distance", "14", "--charge-reading", "after-move",
                               "--json")  # fmt: skip
    assert (status, err) == (0, "")
    archers, samurai = read_units(units_file(ARCHERS, SAMURAI))
    expected = advice_json(advise(archers, samurai, {"distance": 14, "charge_reading": "after-move"}))
    assert json.loads(out) == json.loads(json.dumps(expected))


def test_advise_table_lists_every_row_best_first(units, capsys):
    status, out, _ = run_cli(main, capsys, "advise", "--units", units, "--mine", "Ashigaru archers",
                             "--enemy", "Samurai", "--distance", "14")  # fmt: skip
    assert status == 0
    archers, samurai = read_units(units_file(ARCHERS, SAMURAI))
    advice = advise(archers, samurai, {"distance": 14})
    numbered = [line for line in out.splitlines() if re.match(r" ?\d+[. ] ", line)]
    assert len(numbered) == len(advice.groups)  # one row for each group of sequences with the same odds
    assert "Fire with Greater Precision" in numbered[0]
    assert "Best: Fire with Greater Precision — " in out
    for group in advice.groups:
        if len(group) > 1:  # the others of a group are named under its row
            named = " · ".join(_sequence(advice.rows[other].actions, str) for other in group[1:])
            assert f"Same odds: {named}" in " ".join(out.split()), named
    assert "Rows with equal figures are ranked by what they keep" in out


@pytest.mark.parametrize("lang", ["en", "fr", "ru"])
def test_advise_fits_80_columns_and_wide_gives_one_line_a_row(tmp_path, capsys, lang):
    """A 3-point unit's longest orders ("Fire → Reload the weapon → Charge") and every column."""
    harassers = {**unit_of_type("mounted_harasser", wounds=(2, 2, 2)), "name": "riders"}
    path = tmp_path / "units.json"
    path.write_text(json.dumps(units_file(harassers, {**SAMURAI, "ranged": True, "loaded": True,
                    "short_range_cm": 8, "range_cm": 20, "long_range_cm": 40})), encoding="utf-8")  # fmt: skip
    args = ("advise", "--units", str(path), "--mine", "riders", "--enemy", "Samurai", "--distance", "9",
            "--enemy-reaction", "shoot", "--goal", "3", "--lang", lang)  # fmt: skip
    status, out, _ = run_cli(main, capsys, *args)
    assert status == 0
    assert max(len(line) for line in out.splitlines()) <= 80, out
    advice = advise(*read_units(json.loads(path.read_text())), {"distance": 9, "enemy_reaction": "shoot", "goal": 3})
    status, wide, _ = run_cli(main, capsys, *args, "--wide")
    table = [line for line in wide.splitlines() if re.match(r" ?\d+ ", line)]
    assert status == 0 and len(table) == len(advice.groups)
    assert max(len(line) for line in table) > 80  # the whole table, which the default folds


def test_advise_in_french_and_russian(units, capsys):
    for lang, word in (("fr", "Tir avec précision accrue"), ("ru", "Выстрел с повышенной точностью")):
        status, out, _ = run_cli(main, capsys, "advise", "--units", units, "--mine", "Ashigaru archers",
                                 "--enemy", "Samurai", "--distance", "14", "--lang", lang)  # fmt: skip
        assert status == 0 and word in out, out


@pytest.mark.parametrize(
    ("sequence", "status", "says"),
    [
        ("fire,reload,fire", 1, "not enough action points: 3 needed, 2 available"),
        ("fire", 0, "allowed"),
        ("march,shoot", 2, "--why: must be actions separated by commas"),
    ],
)
def test_why_says_which_rule_refuses_a_sequence(units, capsys, sequence, status, says):
    code, out, err = run_cli(main, capsys, "advise", "--units", units, "--mine", "Ashigaru archers",
                             "--enemy", "Samurai", "--distance", "14", "--why", sequence)  # fmt: skip
    assert code == status
    assert says in out + err


@pytest.mark.parametrize("lang", ["fr", "ru", "es"])
def test_why_gives_a_reason_with_numbers_in_the_users_language(units, capsys, lang):
    """The reason's template is translated before its numbers are filled in: filled in first, it was
    no catalog key, and the reason stayed in English."""
    language = get_translations(lang)
    code, out, _ = run_cli(main, capsys, "advise", "--lang", lang, "--units", units, "--mine", "Ashigaru archers",
                           "--enemy", "Samurai", "--distance", "14", "--why", "fire,reload,fire")  # fmt: skip
    template = "not enough action points: {needed} needed, {available} available"
    assert language.gettext(template) != template
    assert code == 1 and language.gettext(template).format(needed=3, available=2) in out, out


def test_why_answers_in_json_when_asked(units, capsys):
    status, out, _ = run_cli(main, capsys, "advise", "--units", units, "--mine", "Ashigaru archers",
                             "--enemy", "Samurai", "--distance", "14", "--why", "fire,reload,fire",
                             "--json")  # fmt: skip
    assert status == 1
    answer = json.loads(out)
    assert answer == {
        "advisor": "why",
        "actions": ["fire", "reload", "fire"],
        "allowed": False,
        "reason": "not enough action points: 3 needed, 2 available",
    }


def test_why_refuses_a_ronin_warband_as_the_table_does(tmp_path, capsys):
    path = tmp_path / "units.json"
    path.write_text(json.dumps(units_file(ARCHERS, WARBAND)), encoding="utf-8")
    pairs = (("Ronin band", "Ashigaru archers", "--mine"), ("Ashigaru archers", "Ronin band", "--enemy"))
    for mine, enemy, field in pairs:
        status, out, err = run_cli(main, capsys, "advise", "--units", str(path), "--mine", mine, "--enemy", enemy,
                                   "--distance", "10", "--why", "march")  # fmt: skip
        assert status == 2 and not out
        assert err == f"kensei-ref advise: error: {field}: must be a Kensei unit; the advisor is for Kensei\n"


def test_advise_needs_both_units_and_a_distance(units, capsys):
    status, _, err = run_cli(main, capsys, "advise", "--units", units, "--mine", "Samurai", "--distance", "3")
    assert status == 2 and "--enemy" in err and err.count("\n") == 1
    status, _, err = run_cli(main, capsys, "advise", "--units", units, "--mine", "Samurai", "--enemy", "Samurai")
    assert status == 2 and "--distance: is required" in err


def test_advise_lists_the_orders_one_action_point_short(units, capsys):
    status, out, _ = run_cli(main, capsys, "advise", "--units", units, "--mine", "Ashigaru archers",
                             "--enemy", "Samurai", "--distance", "14")  # fmt: skip
    assert status == 0
    assert "The unit's 2 action points are not enough for:" in out
    assert "Fire → Reload the weapon → Fire (action points needed: 3)" in out


def test_a_units_file_that_is_no_regular_file_is_refused_at_once(tmp_path, capsys):
    """A named pipe would block the read until something writes to it: it is refused unread."""
    pipe = tmp_path / "units.fifo"
    os.mkfifo(pipe)
    status, _, err = run_cli(main, capsys, "advise", "--units", str(pipe), "--mine", "a", "--enemy", "b",
                             "--distance", "10")  # fmt: skip
    assert status == 2 and "--units: cannot read" in err and "not a regular file" in err
    status, _, err = run_cli(main, capsys, "advise", "--units", str(tmp_path), "--mine", "a", "--enemy", "b",
                             "--distance", "10")  # fmt: skip
    assert status == 2 and err.endswith(": it is a folder\n"), err  # a folder is said as one


def test_the_rows_left_out_are_listed_with_the_calculators_refusal(tmp_path, capsys):
    big = {**unit_of_type("harasser_on_foot", wounds=(2,) * 60), "name": "big"}
    huge = {**unit_of_type("infantry", ranged=False, wounds=(3,) * 100), "name": "huge"}
    path = tmp_path / "units.json"
    path.write_text(json.dumps(units_file(big, huge)), encoding="utf-8")
    status, out, err = run_cli(main, capsys, "advise", "--units", str(path), "--mine", "big", "--enemy", "huge",
                               "--distance", "30")  # fmt: skip
    assert (status, err) == (0, "")
    assert "left out: a calculator cannot take them" in out
    assert "Charge: Melee combat: b_wounds: must be" in out
    assert "--b-wounds" not in out and "--wounds" not in out


def test_distance_zero_names_the_engaged_option(units, capsys):
    status, _, err = run_cli(main, capsys, "advise", "--units", units, "--mine", "Ashigaru archers",
                             "--enemy", "Samurai", "--distance", "0")  # fmt: skip
    assert status == 2 and "--distance: 0 cm is contact" in err and "(--engaged)" in err


@pytest.mark.parametrize(
    ("lang", "reason"),
    [("en", "there is no such file"), ("fr", "ce fichier n'existe pas"), ("ru", "такого файла нет")],
)
def test_a_missing_or_forbidden_file_is_refused_in_the_players_words(tmp_path, capsys, lang, reason):
    """The reasons a player meets are the catalog's, not the system's English."""
    status, _, err = run_cli(main, capsys, "--lang", lang, "advise", "--units", str(tmp_path / "none.json"),
                             "--mine", "a", "--enemy", "b", "--distance", "10")  # fmt: skip
    assert status == 2 and err.strip().endswith(reason), err
    if os.geteuid() == 0:
        return  # root reads a file whatever its permissions
    locked = tmp_path / "locked.json"
    locked.write_text("{}", encoding="utf-8")
    locked.chmod(0)
    status, _, err = run_cli(main, capsys, "--lang", lang, "advise", "--units", str(locked),
                             "--mine", "a", "--enemy", "b", "--distance", "10")  # fmt: skip
    assert status == 2 and "No such" not in err and "Permission" not in err, err


@pytest.mark.parametrize(("calculator", "unit", "game"), [("shooting", "Ronin band", "Kensei"),
                                                          ("morale", "Ashigaru archers", "Ronin")])  # fmt: skip
def test_a_unit_of_the_other_game_is_refused_naming_the_game(tmp_path, capsys, calculator, unit, game):
    """A profile of the other game gives a calculator nothing: said at once, not as a missing input later."""
    path = tmp_path / "units.json"
    path.write_text(json.dumps(units_file(ARCHERS, WARBAND)), encoding="utf-8")
    status, out, err = run_cli(main, capsys, "calc", calculator, "--units", str(path), "--mine", unit)
    assert status == 2 and not out
    refusal = f"must be a unit of {game}: this calculator is for {game}"
    assert err == f"kensei-ref calc {calculator}: error: --mine: {refusal}\n"

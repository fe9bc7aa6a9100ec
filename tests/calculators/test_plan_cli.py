"""``kensei-ref plan`` in a terminal: the plan's figures as Python gives them, within 80 columns in every
language, and a bad table file refused in one line."""

from __future__ import annotations

import json
import os

import pytest
from cli_capture import run_cli
from test_command_plan import CALM, PROFILES, SMALL

from calculators.command_plan import plan_turn
from calculators.plan_report import plan_json
from calculators.profiles import units_document
from calculators.table import read_table
from kensei_ref.cli.main import main
from kensei_ref.languages import LANGUAGES


@pytest.fixture
def files(tmp_path):
    units, table = tmp_path / "units.json", tmp_path / "table.json"
    units.write_text(json.dumps(units_document(PROFILES)), encoding="utf-8")
    table.write_text(json.dumps(SMALL), encoding="utf-8")
    return str(units), str(table)


def test_the_json_is_the_plan_pythons(files, capsys):
    units, table = files
    status, out, _ = run_cli(
        main, capsys, "plan", "--units", units, "--table", table, "--objective", "victory", "--json"
    )
    assert status == 0
    shown = json.loads(out)
    state = read_table(SMALL, PROFILES)
    expected = plan_json(state, plan_turn(state, "victory"), "victory", 3)
    assert shown == json.loads(json.dumps(expected))
    assert shown["commandment_points"] == 3 and shown["plans"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_plan_fits_80_columns_in_every_language(files, capsys, lang):
    units, table = files
    for objective in ("expected_wounds", "victory", "regrouped"):
        status, out, _ = run_cli(main, capsys, "plan", "--lang", lang, "--units", units, "--table", table,
                                 "--objective", objective)  # fmt: skip
        assert status == 0
        assert max(len(line) for line in out.splitlines()) <= 80, out


BAD_TABLES = {
    "not JSON": "{",
    "an unknown unit": json.dumps(SMALL | {"enemy": [{"unit": "Ninja"}]}),
    "a negative distance": json.dumps(SMALL | {"distances": [{"mine": "Bowmen", "enemy": "Ronin", "cm": -1}]}),
    "two units closer than 5 cm": json.dumps(SMALL | {"distances": [{"mine": "Bowmen", "enemy": "Ronin", "cm": 3}]}),
}


@pytest.mark.parametrize("text", BAD_TABLES.values(), ids=BAD_TABLES.keys())
def test_a_bad_table_file_is_one_line(files, tmp_path, capsys, text):
    units, _ = files
    table = tmp_path / "bad.json"
    table.write_text(text, encoding="utf-8")
    status, out, err = run_cli(main, capsys, "plan", "--units", units, "--table", str(table))
    assert status == 2 and not out
    assert err.count("\n") == 1 and err.startswith("kensei-ref plan: error: --table: ")
    assert "Traceback" not in err


def test_a_table_file_that_is_no_regular_file_is_refused_at_once(files, tmp_path, capsys):
    units, _ = files
    pipe = tmp_path / "table.fifo"
    os.mkfifo(pipe)
    status, _, err = run_cli(main, capsys, "plan", "--units", units, "--table", str(pipe))
    assert status == 2 and "--table: cannot read" in err and "not a regular file" in err


@pytest.mark.parametrize("lang", ["de", "", "fr\n"])
def test_a_language_the_terminal_does_not_speak_is_one_line(files, capsys, lang):
    units, table = files
    status, out, err = run_cli(main, capsys, "plan", "--lang", lang, "--units", units, "--table", table)
    assert status == 2 and not out
    assert err.startswith("kensei-ref plan: error: --lang: must be one of en, fr, ru") and err.count("\n") == 1, err


def test_the_french_plan_is_set_with_french_spaces(files, capsys):
    units, table = files
    status, out, _ = run_cli(main, capsys, "plan", "--lang", "fr", "--units", units, "--table", table)
    assert status == 0 and " :" not in out and " ;" not in out and "\u00a0:" in out


POINTS = {
    "en": ("No unit is fleeing, and no commandment points are spent.", "Commandment points spent: at most 3;"),
    "fr": ("Aucune unité n'est en fuite et aucun point de commandement n'est dépensé.",
           "Points de commandement dépensés\u00a0: au plus 3\u202f;"),
    "ru": ("Бегущих отрядов нет, очки командования не тратятся.", "Потрачено очков командования: не больше 3;"),
    "es": ("Ninguna unidad está en huida y no se gasta ningún punto de mando.",
           "Puntos de mando gastados: como máximo 3;"),
}  # fmt: skip
"""Each language's sentence for a plan that spends nothing, and the start of the one for a plan that spends."""


@pytest.mark.parametrize("lang", POINTS)
def test_a_plan_that_spends_nothing_says_so_in_a_sentence_of_its_own(files, tmp_path, capsys, lang):
    units, table = files
    calm = tmp_path / "calm.json"
    calm.write_text(json.dumps(CALM), encoding="utf-8")
    nothing, spent = (" ".join(text.split()) for text in POINTS[lang])  # as the lines flow, no-break spaces too
    status, out, _ = run_cli(main, capsys, "plan", "--lang", lang, "--units", units, "--table", str(calm))
    flowing = " ".join(out.split())
    assert status == 0
    assert nothing in flowing and spent.split(" :")[0].split(":")[0] not in flowing, out
    status, out, _ = run_cli(main, capsys, "plan", "--lang", lang, "--units", units, "--table", table)
    flowing = " ".join(out.split())
    assert status == 0 and spent in flowing and nothing not in flowing, out

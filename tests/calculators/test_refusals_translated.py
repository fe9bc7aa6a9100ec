"""Every refusal a calculator, a units file or the advisor can give is a template of the catalogs: an input
left out, a value refused, a units file that cannot be used; and a choice's value shows in its words."""

from __future__ import annotations

import json

import pytest
from cli_capture import run_cli
from unit_profiles import SAMURAI, units_file

from calculators import CALCULATORS, CalculatorInputError
from calculators.errors import Plural
from calculators.profiles import PARAMS_BY_GAME, parse_units, read_profile
from calculators.rulebook import RuleValues
from kensei_ref.cli.main import main
from kensei_ref.languages import TRANSLATED, get_translations


def _translated(error: CalculatorInputError, lang: str) -> bool:
    catalog = get_translations(lang)
    message = error.message
    if isinstance(message, Plural):
        return catalog.ngettext(message.singular, message.plural, 2) != message.plural
    return catalog.gettext(message) != message


def _every_param():
    for name, calculator in sorted(CALCULATORS.items()):
        for param in calculator.params:
            yield pytest.param(param, id=f"{name}.{param.name}")
    for game, params in PARAMS_BY_GAME.items():
        for param in params:
            yield pytest.param(param, id=f"units-{game}.{param.name}")


@pytest.mark.parametrize("param", list(_every_param()))
@pytest.mark.parametrize("lang", TRANSLATED)
def test_an_input_left_out_or_refused_is_refused_in_the_language(param, lang):
    rules = RuleValues.bundled()
    for error in (param.refusal(rules), param.refusal(rules, "'x'")):
        assert _translated(error, lang), error.msgid
        assert "{" not in error.describe(str, get_translations(lang))


@pytest.mark.parametrize(
    "document",
    [
        pytest.param("[", id="not-json"),
        pytest.param(json.dumps({"format": "x"}), id="not-a-units-file"),
        pytest.param(json.dumps({"format": "kensei-ref/units", "version": 99}), id="newer-version"),
        pytest.param(json.dumps({"format": "kensei-ref/units", "version": 1, "units": 3}), id="units-not-a-list"),
        pytest.param(json.dumps(units_file({**SAMURAI, "name": ""})), id="empty-name"),
        pytest.param(json.dumps(units_file({**SAMURAI, "colour": "red"})), id="unknown-field"),
        pytest.param(json.dumps(units_file({k: v for k, v in SAMURAI.items() if k != "attack"})), id="left-out"),
        pytest.param(json.dumps(units_file(SAMURAI, SAMURAI)), id="name-twice"),
        pytest.param(json.dumps({"format": "kensei-ref/units", "version": 1, "units": [3]}), id="unit-not-object"),
    ],
)
@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_units_file_is_refused_in_the_language(document, lang):
    with pytest.raises(CalculatorInputError) as refused:
        parse_units(document)
    assert _translated(refused.value, lang), refused.value.msgid


def test_an_advice_without_your_unit_is_refused_in_the_language():
    from calculators.presentation import answer as engine

    answer = json.loads(engine(json.dumps({"advise": {"enemy": read_profile(SAMURAI).to_json()}})))
    assert answer["error"]["message"] == "is required: a unit of your file"
    for lang in TRANSLATED:
        assert get_translations(lang).gettext(answer["error"]["message"]) != answer["error"]["message"]


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("fr", "units[0].attack\u00a0: est requis\u00a0: un nombre entier de 0 à 20"),
        ("ru", "units[0].attack: обязательно: целое число от 0 до 20"),
    ],
)
def test_the_terminal_refuses_a_units_file_in_the_language(tmp_path, capsys, lang, expected):
    path = tmp_path / "units.json"
    path.write_text(json.dumps(units_file({k: v for k, v in SAMURAI.items() if k != "attack"})), encoding="utf-8")
    status, out, err = run_cli(main, capsys, "--lang", lang, "calc", "shooting", "--units", str(path), "--mine", "x")
    assert (status, out) == (2, "")
    assert expected in err and "required" not in err


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        ("--damage-rule", "subtractive", "subtractive (roll minus Armor)"),
        ("--defense-rule", "at-most", "Defense or less"),
    ],
)
@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_choice_in_the_results_shows_in_its_words(capsys, lang, option, value, words):
    status, out, _ = run_cli(main, capsys, "--lang", lang, "calc", "shooting", "--wounds", "2,2", "--attack", "6",
                             "--defense", "5", "--armor", "3", option, value)  # fmt: skip
    assert status == 0
    assert get_translations(lang).gettext(words) in out
    assert f" {value} " not in out

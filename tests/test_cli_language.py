"""The terminal in the user's language: ``--lang`` (before or after the command) or else the locale
translates the help, argparse's own words, labels and errors; a locale the reference lacks is English;
``--json`` keeps its keys."""

from __future__ import annotations

import json

import pytest
from cli_capture import run_cli

from kensei_ref.cli.main import main
from kensei_ref.cli.speech import command_language, language_asked, locale_language

LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


@pytest.fixture(autouse=True)
def english_locale(monkeypatch, tmp_path):
    """A C locale unless a test says otherwise, and a cache of the test's own."""
    for variable in LOCALE_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


@pytest.fixture
def cli(capsys):
    return lambda *argv: run_cli(main, capsys, *argv)


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        pytest.param({"LANG": "fr_FR.UTF-8"}, "fr", id="french-lang"),
        pytest.param({"LANG": "ru_RU.UTF-8"}, "ru", id="russian-lang"),
        pytest.param({"LC_ALL": "ru_UA.UTF-8", "LANG": "fr_FR.UTF-8"}, "ru", id="lc-all-before-lang"),
        pytest.param({"LC_MESSAGES": "fr_CA", "LANG": "ru_RU.UTF-8"}, "fr", id="lc-messages-before-lang"),
        pytest.param({"LANGUAGE": "de:ru:fr", "LANG": "fr_FR.UTF-8"}, "ru", id="language-list"),
        pytest.param({"LANG": "fr_FR@euro"}, "fr", id="modifier"),
        pytest.param({"LANG": "de_DE.UTF-8"}, "en", id="unknown"),
        pytest.param({"LANG": "C.UTF-8"}, "en", id="c-locale"),
        pytest.param({"LANG": "POSIX"}, "en", id="posix"),
        pytest.param({}, "en", id="nothing-set"),
    ],
)
def test_the_locale_names_the_language(environ, lang):
    assert locale_language(environ) == lang


@pytest.mark.parametrize(
    ("argv", "asked"),
    [
        (["rule", "8.3.2", "--lang", "fr"], "fr"),
        (["--lang", "ru", "rule", "8.3.2"], "ru"),
        (["search", "x", "--lang=fr"], "fr"),
        (["search", "x", "--lang", "fr", "--lang", "ru"], "ru"),
        (["search", "--", "--lang", "fr"], None),
        (["search", "x", "--lang"], None),
    ],
)
def test_the_command_line_is_read_ahead_for_the_language(argv, asked):
    assert language_asked(argv) == asked


def test_a_wrong_language_asked_leaves_the_locale_to_decide():
    assert command_language(["rule", "x", "--lang", "de"], {"LANG": "ru_RU.UTF-8"}) == "ru"
    assert command_language(["rule", "x", "--lang", "fr"], {"LANG": "ru_RU.UTF-8"}) == "fr"


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        pytest.param(
            ["--lang", "fr", "--help"],
            ["utilisation\u00a0: kensei-ref", "Référence des règles de Kensei et de Ronin.", "afficher une règle",
             "afficher cette aide et quitter"],
            id="fr-top",
        ),
        pytest.param(
            ["rule", "--help", "--lang", "fr"],
            ["utilisation\u00a0: kensei-ref rule", "arguments positionnels\u00a0:", "un identifiant de règle",
             "langue de la sortie"],
            id="fr-rule",
        ),
        pytest.param(
            ["--lang", "ru", "search", "--help"],
            ["использование: kensei-ref search", "Искать в правилах", "что искать", "показать не более N правил"],
            id="ru-search",
        ),
        pytest.param(
            ["calc", "shooting", "--help", "--lang", "ru"],
            ["использование: kensei-ref calc shooting", "показать эту справку и выйти", "язык вывода"],
            id="ru-calc",
        ),
        pytest.param(
            ["glossary", "--help", "--lang", "en"],
            ["usage: kensei-ref glossary", "Find a glossary term", "show this help message and exit"],
            id="en-glossary",
        ),
    ],
)  # fmt: skip
def test_help_speaks_the_language_asked(cli, argv, words):
    status, out, err = cli(*argv)
    assert status == 0 and not err
    for text in words:
        assert text in out, (text, out)


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        pytest.param(
            ["search", "charge", "--lang", "fr", "--limit", "0"],
            "kensei-ref search\u00a0: erreur\u00a0: argument --limit\u00a0: doit être un nombre entier positif\u202f; "
            "valeur reçue\u00a0: '0'",
            id="fr-limit",
        ),
        pytest.param(
            ["rule", "--lang", "ru"],
            "kensei-ref rule: ошибка: не указаны обязательные аргументы: ID|НОМЕР",
            id="ru-required",
        ),
        pytest.param(
            ["search", "charge", "--lang", "ru", "--json", "--fast"],
            "kensei-ref: ошибка: нераспознанные аргументы: --fast",
            id="ru-unknown-option",
        ),
        pytest.param(
            ["search", "", "--lang", "fr"],
            "kensei-ref search\u00a0: erreur\u00a0: recherche vide\u00a0: indiquez des mots",
            id="fr-empty-query",
        ),
        pytest.param(
            ["calc", "regroup", "--honor", "30", "--lang", "ru"],
            "kensei-ref calc regroup: ошибка: --honor: должно быть целым числом от 0 до 20; указано «30»",
            id="ru-calc-bounds",
        ),
        pytest.param(
            ["calc", "shooting", "--wounds", "2,2", "--attack", "3", "--defense", "4", "--armor", "3",
             "--range", "far", "--lang", "fr"],
            "kensei-ref calc shooting\u00a0: erreur\u00a0: --range\u00a0: doit être l'une des valeurs short, normal, "
            "long, out\u202f; valeur reçue\u00a0: «\u00a0far\u00a0»",
            id="fr-calc-choice",
        ),
        pytest.param(
            ["calc", "regroup", "--honor", "5", "--bonus", "-30", "--lang", "fr"],
            "--bonus\u00a0: doit être un nombre entier de \u221210 à 10",
            id="fr-calc-negative-bound",
        ),
    ],
)  # fmt: skip
def test_an_error_names_the_option_and_what_it_allows_in_the_language_asked(cli, argv, line):
    status, out, err = cli(*argv)
    assert status == 2 and not out
    assert err.count("\n") == 1 and "Traceback" not in err
    assert line in err, err


def test_a_wrong_language_is_refused_in_the_locales_language(cli, monkeypatch):
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    status, _, err = cli("rule", "8.3.2", "--lang", "de")
    assert status == 2
    assert err.startswith("kensei-ref rule\u00a0: erreur\u00a0: argument --lang\u00a0: choix invalide\u00a0: 'de'"), err


def test_the_russian_locale_without_lang_gives_russian(cli, monkeypatch):
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    status, out, _ = cli("rule", "8.3.2")
    assert status == 0
    assert out.startswith("8.3.2 Перегруппировка")
    status, out, _ = cli("--help")
    assert "использование: kensei-ref" in out and "показать правило" in out
    status, out, _ = cli("calc", "regroup", "--honor", "5")
    assert "Вероятность перегруппировки" in out


def test_an_unknown_locale_gives_english(cli, monkeypatch):
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    _, out, _ = cli("rule", "8.3.2")
    assert out.startswith("8.3.2 Regrouping Units Running Away")
    _, out, _ = cli("--help")
    assert "usage: kensei-ref" in out and "show a rule" in out


def test_lang_before_the_command_speaks_for_the_command(cli, monkeypatch):
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    status, out, _ = cli("--lang", "fr", "rule", "8.3.2")
    assert status == 0 and out.startswith("8.3.2 Regrouper")
    status, out, _ = cli("--lang", "fr", "rule", "8.3.2", "--lang", "en")
    assert out.startswith("8.3.2 Regrouping"), "the command's own --lang comes last and wins"


def test_json_keys_are_the_same_in_every_language(cli, monkeypatch):
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    _, out, _ = cli("search", "regroup", "--json", "--limit", "1")
    assert set(json.loads(out)[0]) == {"id", "number", "title", "score"}
    _, out, _ = cli("calc", "regroup", "--honor", "5", "--json")
    assert json.loads(out)["calculator"] == "regroup"

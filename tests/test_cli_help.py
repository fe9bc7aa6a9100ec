"""Every command's ``--help`` in every language: an option's label on a line of its own with its help below
(never "Label: Help", with a capital after the colon), the words that stand for a value (``FILE``, ``NAME``)
in the language of the help, what the user types as it stands (``N``, a choice's values), within 80 columns."""

from __future__ import annotations

import re

import pytest
from cli_capture import run_cli

from calculators import CALCULATORS
from calculators.advisor import PARAMS as ADVISOR_PARAMS
from calculators.choices import SIDE_NAMES
from kensei_ref.cli.main import main
from kensei_ref.language_context import language_context
from kensei_ref.languages import LANGUAGES

COMMANDS = [
    [],
    ["data"],
    ["data", "check"],
    ["data", "stamp"],
    ["data", "values"],
    ["data", "export"],
    ["data", "po"],
    ["data", "po", "export"],
    ["data", "po", "import"],
    ["calc"],
    *(["calc", name] for name in CALCULATORS),
    ["rule"],
    ["search"],
    ["glossary"],
    ["advise"],
    ["plan"],
]
"""Every command and subcommand of ``kensei-ref``."""

ENGLISH_METAVARS = ("FILE", "FOLDER", "NAME", "WORD", "NUMBER", "ACTION", "LANG", "CALCULATOR", "VALUE")
"""The English words that stand for a value in the English help."""

SAME_WORD = {"fr": {"ACTION"}, "ru": set(), "es": set()}
"""The words a language writes as English does."""


@pytest.fixture(autouse=True)
def eighty_columns(monkeypatch, tmp_path):
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def _help(capsys, lang: str, command: list[str]) -> str:
    status, out, err = run_cli(main, capsys, *command, "--help", "--lang", lang)
    assert status == 0 and not err, err
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("command", COMMANDS, ids=lambda command: "-".join(command) or "top")
def test_every_help_fits_80_columns_in_every_language(capsys, lang, command):
    """An option whose choices would make a line argparse cannot break (``--unit-type infantry|creature|...``)
    writes a word for them, and lists them in its help."""
    out = _help(capsys, lang, command)
    too_wide = [line for line in out.splitlines() if len(line) > 80]
    assert too_wide == [], out


def _options(command: str):
    return ADVISOR_PARAMS if command == "advise" else CALCULATORS[command].params


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("command", [*CALCULATORS, "advise"])
def test_an_options_label_has_its_line_and_its_help_the_next(capsys, lang, command):
    """The help is a sentence of its own with its capital: after a colon it would be wrong in every language,
    and lowered it would lower the game terms the glossary capitalises (Wounds, Attack, Models)."""
    argv = ["calc", command] if command in CALCULATORS else [command]
    out = _help(capsys, lang, argv)
    lines = [line.strip() for line in out.splitlines()]
    flowing = " ".join(out.split())
    language = language_context(lang)
    _ = language.gettext
    for param in _options(command):
        if not param.help:
            continue
        label, help_text = _(param.label), _(param.help)
        if param.group:
            label = f"{_(SIDE_NAMES[param.group])}. {label}"
        first_word = help_text.split()[0]
        option = "--" + param.name.replace("_", "-")
        at = next(i for i, line in enumerate(lines) if line.startswith(option + " ") or line == option.strip())
        heading = next(i for i in range(at, len(lines)) if lines[i].endswith(label))
        assert lines[heading + 1].startswith(first_word), (param.name, lines[heading : heading + 2])
        assert language.labelled(label, first_word) not in flowing, param.name


@pytest.mark.parametrize(
    ("lang", "command", "shown"),
    [
        pytest.param("fr", ["calc", "shooting"],
                     ["--units FICHIER", "--mine NOM", "--enemy NOM", "--wounds N,N,...", "--dice N",
                      "--range short|normal|long|out", "--cover none|light|heavy", "--lang en|fr|ru|es"],
                     id="fr-shooting"),
        pytest.param("ru", ["advise"], ["--units ФАЙЛ", "--mine НАЗВАНИЕ", "--why ДЕЙСТВИЕ,ДЕЙСТВИЕ"], id="ru-advise"),
        pytest.param("es", ["plan"], ["--units ARCHIVO", "--table ARCHIVO"], id="es-plan"),
        pytest.param("es", ["rule"], ["ID|NÚMERO"], id="es-rule"),
        pytest.param("ru", ["rule"], ["ID|НОМЕР"], id="ru-rule"),
        pytest.param("fr", ["search"], ["MOT [MOT ...]", "--limit N", "au plus N règles"], id="fr-search"),
        pytest.param("es", ["glossary"], ["NOMBRE [NOMBRE ...]"], id="es-glossary"),
        pytest.param("fr", ["data", "po", "export"], ["--lang LANGUE", "--out DOSSIER", "po/LANGUE"], id="fr-po"),
        pytest.param("ru", ["data", "po", "import"], ["ПАПКА"], id="ru-po-import"),
        pytest.param("es", ["calc"], ["CALCULADORA"], id="es-calc"),
        pytest.param("en", ["calc", "melee"], ["--units FILE", "--mine NAME", "--a-charge none|infantry|cavalry|large"],
                     id="en-melee"),
        pytest.param("en", ["data", "po", "export"], ["--lang LANG", "--out FOLDER", "po/LANG"], id="en-po"),
        pytest.param("ru", ["advise"], ["--enemy-reaction ЗНАЧЕНИЕ", "Возможные значения: best, best-standing, fight,"
                                        " shoot, counter-charge, run-away", "--damage-rule threshold|subtractive"],
                     id="ru-advise-choices"),
        pytest.param("fr", ["calc", "charge"], ["--unit-type VALEUR", "Valeurs possibles : infantry, creature,"
                                                " harasser_on_foot, cavalry, mounted_harasser, large_creature"],
                     id="fr-charge-choices"),
        pytest.param("en", ["plan"], ["--objective VALUE", "Values: expected_wounds,"], id="en-plan-choices"),
    ],
)  # fmt: skip
def test_the_words_for_a_value_are_the_helps_language(capsys, lang, command, shown):
    out = " ".join(_help(capsys, lang, command).split())
    for text in shown:
        assert text in out, (text, out)


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
@pytest.mark.parametrize("command", COMMANDS, ids=lambda command: "-".join(command) or "top")
def test_no_english_word_stands_for_a_value_in_another_language(capsys, lang, command):
    out = _help(capsys, lang, command)
    english = [word for word in ENGLISH_METAVARS if word not in SAME_WORD[lang] and re.search(rf"\b{word}\b", out)]
    assert english == [], out

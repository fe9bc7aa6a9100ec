"""Every command's ``--help`` in every language: an option's label on a line of its own with its help below
(never "Label: Help", with a capital after the colon)."""

from __future__ import annotations

import pytest
from cli_capture import run_cli

from calculators import CALCULATORS
from calculators.advisor import PARAMS as ADVISOR_PARAMS
from calculators.choices import SIDE_NAMES
from kensei_ref.cli.main import main
from kensei_ref.language_context import language_context
from kensei_ref.languages import LANGUAGES


@pytest.fixture(autouse=True)
def eighty_columns(monkeypatch, tmp_path):
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def _help(capsys, lang: str, command: list[str]) -> str:
    status, out, err = run_cli(main, capsys, *command, "--help", "--lang", lang)
    assert status == 0 and not err, err
    return out


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

"""French typography in everything the reference prints in French: every generated page and the terminal's
rules, glossary, search results, calculator results and help (the rules: tests/french_typography.py)."""

from __future__ import annotations

import re

import pytest
from cli_capture import run_cli
from french_typography import problems

from calculators import CALCULATORS
from kensei_ref.cli.lookup import render_rule, render_term
from kensei_ref.cli.main import main
from kensei_ref.language_context import language_context
from kensei_ref.languages import typeset
from kensei_ref.rules.loader import DATA_DIR, load
from kensei_ref.site.calculator_pages import DEFAULT_SCENARIOS
from kensei_ref.site.generate import generated_pages
from kensei_ref.typography import _PROTECTED

FOREIGN_TITLES = re.compile(r"Kensei:\s+(?=primeras|apuntes)")
"""Titles of Spanish sources, quoted with their own punctuation."""


@pytest.fixture(scope="module")
def book():
    return load(DATA_DIR)


@pytest.fixture(autouse=True)
def own_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("LANG", "C.UTF-8")


def _found(text: str) -> list[str]:
    return problems(FOREIGN_TITLES.sub("", text))


def test_every_generated_french_page_follows_french_typography(book):
    """What a reader sees: code, tags and their attributes (the pages' data for their scripts), URLs set
    aside as the typography filter sets them aside."""
    pages = generated_pages(book, "fr", site_url="", directory_urls=True, with_archive=True)
    found = [
        f"{path}: {problem}" for path, text in sorted(pages.items()) for problem in _found(_PROTECTED.sub("", text))
    ]
    assert found == []


def test_every_rule_and_term_in_the_terminal_follows_french_typography(book):
    found = [
        f"{rule.id}: {p}"
        for rule in book.rules
        for p in _found(typeset(render_rule(book, rule, language_context("fr")), "fr"))
    ]
    found += [
        f"{term.id}: {p}"
        for term in book.terms
        for p in _found(typeset(render_term(book, term, language_context("fr")), "fr"))
    ]
    assert found == []


def _options(inputs: dict) -> list[str]:
    argv = []
    for name, value in inputs.items():
        option = "--" + name.replace("_", "-")
        if value is True:
            argv.append(option)
        elif value is not False:
            argv += [option, ",".join(map(str, value)) if isinstance(value, list | tuple) else str(value)]
    return argv


SCENARIOS = {**DEFAULT_SCENARIOS, "damage-roll": {"roll": 7, "armor": 3}, "dice-split": {"combat_dice": 5},
             "morale-trigger": {"starting_fighters": 10}}  # fmt: skip
"""A typical situation for each calculator: its page's own, else one that its required inputs make."""


@pytest.mark.parametrize("name", sorted(CALCULATORS))
def test_every_calculator_in_the_terminal_follows_french_typography(capsys, name):
    status, out, err = run_cli(main, capsys, "--lang", "fr", "calc", name, *_options(SCENARIOS.get(name, {})))
    assert status == 0, err
    status, help_text, _ = run_cli(main, capsys, "--lang", "fr", "calc", name, "--help")
    assert status == 0
    assert _found(out) == [] and _found(help_text) == []


READINGS = ["calc", "shooting", "--wounds", "2,2", "--attack", "6", "--defense", "5", "--armor", "3",
            "--damage-rule", "subtractive", "--defense-rule", "at-most"]  # fmt: skip


READINGS = ["calc", "shooting", "--wounds", "2,2", "--attack", "6", "--defense", "5", "--armor", "3",
            "--damage-rule", "subtractive", "--defense-rule", "at-most"]  # fmt: skip


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["search", "regrouper", "unités", "en", "fuite"], id="search"),
        pytest.param(["--help"], id="help"),
        pytest.param(["calc", "spells", "--levels", "1,3,4"], id="spells"),
        pytest.param(["calc", "planner", "--honors", "6,7,5"], id="planner"),
        pytest.param(READINGS, id="readings"),
        pytest.param(["rule", "nothing-like-this"], id="not-found"),
        pytest.param(["calc", "shooting", "--attack", "x"], id="refused"),
    ],
)
def test_terminal_answers_follow_french_typography(capsys, argv):
    _, out, err = run_cli(main, capsys, "--lang", "fr", *argv)
    assert _found(out) == [] and _found(err) == []


def test_the_spells_and_the_planner_read_as_french_writes_them(capsys):
    _, spells, _ = run_cli(main, capsys, "--lang", "fr", "calc", "spells", "--levels", "1,3,4")
    assert "−3, −5, −6" in spells and "niveau 1 " in spells and "-3" not in spells
    _, planner, _ = run_cli(main, capsys, "--lang", "fr", "calc", "planner", "--honors", "6,7,5")
    assert "n°\u00a01" in planner and "3 → 2" in planner and "#1" not in planner

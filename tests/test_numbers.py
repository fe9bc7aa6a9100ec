"""One number formatter per language (:mod:`kensei_ref.numbers`); its doctests show each format in en, fr, ru."""

from __future__ import annotations

import doctest
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

import kensei_ref
import kensei_ref.numbers
from kensei_ref.languages import LANGUAGES
from kensei_ref.numbers import numbers_for

MINUS = "\u2212"


def test_the_docstrings_examples_hold():
    """The module's examples (each format in en, fr and ru) run as doctests in the ordinary test run."""
    failed, attempted = doctest.testmod(kensei_ref.numbers)
    assert attempted and not failed


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_negative_number_has_a_true_minus_sign(lang):
    numbers = numbers_for(lang)
    shown = [numbers.decimal(-2), numbers.decimal(-1.5, 1), numbers.percent(-0.25), numbers.signed(-3)]
    assert all(text.startswith(MINUS) and "-" not in text for text in shown), shown


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param(1, "+1", id="positive"),
        pytest.param(-1, f"{MINUS}1", id="negative"),
        pytest.param(0, "0", id="zero has no sign"),
        pytest.param(Fraction(-3, 2), f"{MINUS}1.5", id="fraction"),
    ],
)
def test_signed(value, expected):
    assert numbers_for("en").signed(value) == expected


def test_fractions_are_formatted_like_their_floats():
    numbers = numbers_for("fr")
    assert numbers.percent(Fraction(1, 8)) == numbers.percent(0.125) == "12,5\u00a0%"
    assert numbers.decimal(Fraction(9, 10)) == "0,9"


@pytest.mark.parametrize("unit", [pytest.param("mm", id="unknown unit"), pytest.param("", id="no unit")])
def test_length_refuses_other_units(unit):
    with pytest.raises(ValueError, match="unit: must be cm or in"):
        numbers_for("en").length(10, unit)


def test_unknown_language_is_refused():
    with pytest.raises(ValueError, match="language: must be one of"):
        numbers_for("de")


SHARED_SYMBOLS = {
    "grouping": [3, 3],
    "minus": MINUS,
    "plus": "+",
    "percent_prefix": "",
    "percent_digits": 1,
    "figure_digits": 3,
    "unit_space": "\u00a0",
}
"""The symbols the three languages write alike."""


@pytest.mark.parametrize(
    ("lang", "own"),
    [
        ("en", {"decimal": ".", "group": ",", "percent_suffix": "%"}),
        ("fr", {"decimal": ",", "group": "\u202f", "percent_suffix": "\u00a0%"}),
        ("ru", {"decimal": ",", "group": "\u00a0", "percent_suffix": "\u00a0%"}),
    ],
)
def test_symbols_for_the_browser(lang, own):
    symbols = numbers_for(lang).symbols()
    assert symbols == SHARED_SYMBOLS | own
    assert json.loads(json.dumps(symbols)) == symbols


@pytest.mark.parametrize("lang", LANGUAGES)
def test_symbols_describe_what_python_writes(lang):
    """A script that joins these symbols writes the same text as Python."""
    numbers, symbols = numbers_for(lang), numbers_for(lang).symbols()
    assert numbers.decimal(-1234.5, 1) == f"{symbols['minus']}1{symbols['group']}234{symbols['decimal']}5"
    percent = f"{symbols['percent_prefix']}12{symbols['decimal']}5{symbols['percent_suffix']}"
    assert numbers.percent(0.125) == percent
    assert numbers.percent(-0.125) == symbols["minus"] + percent
    assert numbers.signed(2) == f"{symbols['plus']}2"
    assert numbers.quantity(3, "ms") == f"3{symbols['unit_space']}ms"


def test_only_the_numbers_module_formats_with_babel():
    """Every other module asks :func:`kensei_ref.numbers.numbers_for`, so there is one formatter per language."""
    root = Path(kensei_ref.__file__).parent
    others = [
        path.relative_to(root).as_posix()
        for path in root.rglob("*.py")
        if path.name != "numbers.py" and re.search(r"babel\.(numbers|units|support)", path.read_text("utf-8"))
    ]
    assert not others

"""One number formatter per language (:mod:`kensei_ref.numbers`); its doctests show each format in en, fr, ru."""

from __future__ import annotations

import doctest
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kensei_ref
import kensei_ref.numbers
from kensei_ref.languages import LANGUAGES
from kensei_ref.numbers import Numbers, give_number_data, number_data, numbers_for

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


# -- the number data the terminal keeps in its cache ---------------------------------------------


@pytest.fixture(scope="module")
def from_data() -> dict[str, Numbers]:
    """Each language's formatter built from its number data alone, as the terminal's cache gives it."""
    built = {}
    for lang in LANGUAGES:
        assert give_number_data(lang, json.loads(json.dumps(number_data(lang))))  # plain values only
        built[lang] = Numbers(lang)
        assert type(built[lang].locale).__name__ == "_NumberLocale"
    return built


@settings(max_examples=300, deadline=None)
@given(
    lang=st.sampled_from(LANGUAGES),
    value=st.one_of(
        st.integers(-(10**9), 10**9),
        st.floats(-1e7, 1e7, allow_nan=False),
        st.fractions(max_denominator=10**6).filter(lambda f: abs(f) < 10**7),
    ),
    digits=st.integers(0, 4),
)
def test_number_data_alone_writes_what_babels_whole_locale_writes(from_data, lang, value, digits):
    full, alone = numbers_for(lang), from_data[lang]
    assert alone.decimal(value, digits) == full.decimal(value, digits)
    assert alone.percent(value, digits) == full.percent(value, digits)
    assert alone.signed(value, digits) == full.signed(value, digits)
    assert alone.length(value, "cm", digits) == full.length(value, "cm", digits)
    assert alone.symbols() == full.symbols()


@pytest.mark.parametrize(
    "stored",
    [
        None,
        "text",
        {},
        number_data("fr") | {"format": "kensei-ref numbers 1, Babel 0.1"},  # stored by another Babel
        number_data("fr") | {"symbols": {"decimal": 1}},
        number_data("fr") | {"percent": None},
    ],
)
def test_number_data_of_another_form_is_refused(stored):
    kensei_ref.numbers._GIVEN_DATA.pop("fr", None)  # whatever an earlier test gave and no formatter took
    assert not give_number_data("fr", stored)
    assert type(Numbers("fr").locale).__name__ == "Locale"  # built from Babel's own data

"""Numbers in the rule texts read as Babel writes them in each language: the references that show a rule's
values (``{value:…}``, ``{signed:…}``, ``{percent:…}``) are formatted by :mod:`kensei_ref.numbers`, and the
numbers the prose writes by hand follow the same conventions (every offending text named at once)."""

from __future__ import annotations

import doctest
import re

import pytest
from rule_texts import rule_texts

import kensei_ref.rules.references
from kensei_ref.languages import LANGUAGES
from kensei_ref.numbers import numbers_for
from kensei_ref.rules.references import value_text, written_numbers
from kensei_ref.site import pages

MINUS = "\u2212"

PERCENT_AFTER_VALUE = re.compile(r"\{(?:value|signed):[^}]*\}\s*%")
"""A value written as a percent by hand: ``{percent:KEY}`` writes it as the language does."""

WRITTEN_PERCENT = re.compile(r"(?P<number>\d+(?:[.,]\d+)?)(?P<space>[ \u00a0\u202f]?)%")

HYPHEN_NEGATIVE = re.compile(r"(?:^|[\s(\[/])-\d")
"""A negative number written with the hyphen-minus (the pages print the minus sign, U+2212)."""


def test_the_references_doctests_hold():
    failed, attempted = doctest.testmod(kensei_ref.rules.references)
    assert attempted and not failed


@pytest.mark.parametrize("lang", LANGUAGES)
def test_value_references_are_written_by_the_numbers_module(lang):
    numbers = numbers_for(lang)
    assert value_text("value", -3, lang) == numbers.decimal(-3) == f"{MINUS}3"
    assert value_text("signed", 2, lang) == numbers.signed(2) == "+2"
    assert value_text("signed", -1, lang) == f"{MINUS}1"
    assert value_text("percent", 50, lang) == numbers.percent(0.5)


def test_no_value_is_made_a_percent_by_hand(book):
    found = [
        f"{where} ({lang}): {match[0]!r}"
        for where, text in rule_texts(book)
        for lang in LANGUAGES
        for match in PERCENT_AFTER_VALUE.finditer(text[lang])
    ]
    assert not found, "write {percent:KEY}:\n" + "\n".join(found)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_percents_in_prose_are_written_as_the_language_writes_them(book, lang):
    """The number before a percent sign has the language's decimal separator, and the sign is spaced as
    Babel spaces it (the data types an ordinary space; the pages make it a no-break one)."""
    symbols = numbers_for(lang).symbols()
    spaced = str(symbols["percent_suffix"]) != "%"
    other_separator = "," if symbols["decimal"] != "," else "."
    wrong = [
        f"{where}: {match[0]!r}"
        for where, text in rule_texts(book)
        for match in WRITTEN_PERCENT.finditer(text[lang])
        if bool(match["space"]) != spaced or other_separator in match["number"]
    ]
    assert not wrong, f"{lang}: percents not written as {numbers_for(lang).percent(0.583)!r}:\n" + "\n".join(wrong)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_negative_number_has_a_hyphen(book, lang):
    wrong = [
        f"{where}: {match[0]!r}" for where, text in rule_texts(book) for match in HYPHEN_NEGATIVE.finditer(text[lang])
    ]
    assert not wrong, "write the minus sign \u2212 (or a {signed:KEY}):\n" + "\n".join(wrong)


@pytest.mark.parametrize(
    ("lang", "text", "expected"),
    [
        pytest.param("fr", "soit 60 % de chances", "soit 60\u00a0% de chances", id="fr-space-becomes-no-break"),
        pytest.param("ru", "вероятность 94 %.", "вероятность 94\u00a0%.", id="ru-space-becomes-no-break"),
        pytest.param("en", "a 60% chance", "a 60% chance", id="en-no-space"),
        pytest.param("fr", "10 cm % 2", "10 cm % 2", id="not-after-a-number"),
    ],
)
def test_written_numbers(lang, text, expected):
    assert written_numbers(text, lang) == expected


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rule_pages_show_percents_as_the_calculators_do(book, lang):
    """The difficult terrain's movement penalty ({percent:…}) and the charge example's "60 %" (prose) read
    as a calculator writes a 60 % chance."""
    generated = pages.site_pages(book, lang, calculators=set())
    numbers = numbers_for(lang)
    terrain = generated[book.chapter_of("kensei.difficult-terrain").page]
    assert numbers.percent(book.rule("kensei.difficult-terrain").values["movement_penalty_percent"] / 100) in terrain
    assert numbers.percent(0.6) in generated[book.chapter_of("kensei.charge-dice").page]


OTHER_DECIMALS = {
    ".": re.compile(r"(?<![\d,\w])\d+,\d{1,2}(?![\d,])"),  # 58,3 in English (1,000 is a group)
    ",": re.compile(r"(?<![\d.\w])\d+\.\d+(?![\d.])"),  # 58.3 in French or Russian (8.3.2 is a rule's number)
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_decimals_in_prose_have_the_languages_separator(book, lang):
    pattern = OTHER_DECIMALS[str(numbers_for(lang).symbols()["decimal"])]
    wrong = [f"{where}: {match[0]!r}" for where, text in rule_texts(book) for match in pattern.finditer(text[lang])]
    assert not wrong, f"{lang} writes {numbers_for(lang).decimal(58.3)}:\n" + "\n".join(wrong)

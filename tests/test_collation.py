"""Headwords in each language's alphabetical order (the Unicode Collation Algorithm), not by code point."""

from __future__ import annotations

import re

import pytest

from kensei_ref.languages import LANGUAGES, collation_key
from kensei_ref.rules.loader import load
from kensei_ref.site import pages


@pytest.mark.parametrize(
    ("lang", "shuffled", "expected"),
    [
        pytest.param("fr", ["Bushi", "Bâtiment"], ["Bâtiment", "Bushi"], id="accent-after-letters"),
        pytest.param("fr", ["Zone", "Étendard"], ["Étendard", "Zone"], id="accented-capital-before-z"),
        pytest.param(
            "fr",
            ["étourdi", "Eau", "écart", "Étendard", "eau", "Ki"],
            ["eau", "Eau", "écart", "Étendard", "étourdi", "Ki"],
            id="accents-then-case",
        ),
        pytest.param("fr", ["oeuf", "Onmyouji", "œil"], ["œil", "oeuf", "Onmyouji"], id="ligature-as-two-letters"),
        pytest.param(
            "fr", ["côté", "coté", "côte", "cote"], ["cote", "coté", "côte", "côté"], id="accents-left-to-right"
        ),
        pytest.param("ru", ["Жук", "Ёж", "Еда"], ["Еда", "Ёж", "Жук"], id="yo-with-ye"),
        pytest.param(
            "ru", ["яри", "Атака", "Знамя", "бегство"], ["Атака", "бегство", "Знамя", "яри"], id="cyrillic-case"
        ),
        pytest.param("ru", ["Ки", "Броня", "Ёлка", "елка"], ["Броня", "елка", "Ёлка", "Ки"], id="yo-after-ye-at-a-tie"),
        pytest.param("es", ["ñandú", "nube", "oso", "ninguno"], ["ninguno", "nube", "ñandú", "oso"], id="enye-after-n"),
        pytest.param("es", ["año", "anzuelo", "anual"], ["anual", "anzuelo", "año"], id="enye-inside-a-word"),
        pytest.param("es", ["Ñu", "ñu", "nz"], ["nz", "ñu", "Ñu"], id="enye-then-case"),
        pytest.param("es", ["órdenes", "Orden", "oso"], ["Orden", "órdenes", "oso"], id="accents-after-letters"),
        pytest.param(
            "en",
            ["bushi", "Ashigaru", "Zone", "action point"],
            ["action point", "Ashigaru", "bushi", "Zone"],
            id="english-ignores-case",
        ),
    ],
)
def test_collation_orders_headwords_as_dictionaries_do(lang, shuffled, expected):
    assert sorted(shuffled, key=collation_key(lang)) == expected


def test_collation_refuses_an_unknown_language():
    with pytest.raises(ValueError, match="language"):
        collation_key("de")


def _headwords(glossary: str) -> list[str]:
    """The glossary page's headwords in the order the page lists them."""
    return re.findall(r"^\| <span id=\"[^\"]+\"></span>\*\*(.+?)\*\*", glossary, flags=re.MULTILINE)


@pytest.fixture(scope="module")
def book():
    return load()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_glossary_page_lists_its_headwords_in_the_language_order(book, lang):
    headwords = _headwords(pages.glossary_page(book, lang))
    assert len(headwords) == len(book.terms)
    assert headwords == sorted(headwords, key=collation_key(lang))


def test_french_glossary_puts_accented_headwords_among_their_letters(book):
    headwords = [word.casefold() for word in _headwords(pages.glossary_page(book, "fr"))]
    assert headwords.index("bâtiment") < headwords.index("bushi")
    assert headwords.index("étendard") < headwords.index("zone d'attaque")
    assert headwords.index("égalité") < headwords.index("espion") < headwords.index("étourdi")


def test_russian_glossary_is_in_cyrillic_order(book):
    headwords = _headwords(pages.glossary_page(book, "ru"))
    initials = [word[0].casefold() for word in headwords if "а" <= word[0].casefold() <= "я" or word[0] in "Ёё"]
    alphabet = "абвгдеёжзийклмнопрстуфхцчшщъыьэюя"
    positions = [alphabet.index("е" if letter == "ё" else letter) for letter in initials]
    assert positions == sorted(positions)
    assert len(initials) > 100

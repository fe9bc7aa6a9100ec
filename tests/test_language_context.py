"""One language context per language (kensei_ref.language_context): its catalog, numbers, plural forms,
quotation marks and order, bound once and passed down; made before the terminal gives the number
formatter its cached data, it reads neither the catalog nor the formatter until asked."""

from __future__ import annotations

import doctest

import pytest

import kensei_ref.language_context as module
from kensei_ref import numbers
from kensei_ref.language_context import language_context
from kensei_ref.languages import LANGUAGES, collation_key, get_translations
from kensei_ref.numbers import numbers_for


def test_the_modules_examples():
    assert doctest.testmod(module).failed == 0


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_context_is_its_languages_catalog_numbers_and_order(lang):
    language = language_context(lang)
    assert language is language_context(lang)
    assert language.translations is get_translations(lang) and language.numbers is numbers_for(lang)
    assert language.gettext("Home") == get_translations(lang).gettext("Home")
    words = ["Zone", "Étendard", "bâtiment", "Жук", "Ёж"]
    assert sorted(words, key=language.sort_key) == sorted(words, key=collation_key(lang))


def test_each_language_writes_its_own_quotes_labels_and_spaces():
    assert [language_context(lang).quote("x") for lang in LANGUAGES] == ["“x”", "«\u00a0x\u00a0»", "«x»", "«x»"]
    assert language_context("fr").labelled("Coût", "2") == "Coût\u00a0: 2"
    assert language_context("fr").typeset("Coût : 2") == "Coût\u00a0: 2"
    assert language_context("en").labelled("Cost", "2") == "Cost: 2"


def test_a_language_the_reference_does_not_have_is_refused():
    with pytest.raises(ValueError, match="language: must be one of en, fr, ru"):
        language_context("de")


def test_made_before_it_is_used_it_reads_nothing(monkeypatch):
    """The terminal makes the context, then gives the formatter its cached locale data, then formats."""
    read = []
    monkeypatch.setattr(numbers, "numbers_for", lambda lang: read.append(lang))
    monkeypatch.setattr(module, "get_translations", lambda lang: read.append(lang))
    fresh = module.LanguageContext("ru")
    assert read == []
    fresh.numbers  # noqa: B018
    assert read == ["ru"]


def test_it_reads_the_catalog_kept_now_not_one_of_its_own():
    """A catalog read again (compiled anew, or from another folder) is the one every context then uses."""
    language = language_context("fr")
    before = language.translations
    get_translations.cache_clear()
    assert language.translations is get_translations("fr") is not before

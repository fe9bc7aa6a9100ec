"""Interface languages: gettext catalogs for UI strings, Babel for locale-aware numbers.

Rule text is not translated here; it lives in the rule data in all three languages. This module
only serves the strings the project itself shows (labels, headings, messages), kept in
``locales/<lang>/LC_MESSAGES/messages.po`` and compiled to ``.mo`` by ``make translations``.
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path

from babel.numbers import format_decimal as _babel_decimal
from babel.numbers import format_percent as _babel_percent

LANGUAGES: tuple[str, ...] = ("en", "fr", "ru")
"""The site's languages, English first: it is the language the rule data is written from."""

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locales"


def check_language(lang: str) -> str:
    """Return ``lang`` when it is one of :data:`LANGUAGES`.

    Raises:
        ValueError: naming the allowed languages.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"language: must be one of {', '.join(LANGUAGES)}, got {lang!r}")
    return lang


def site_folder(lang: str) -> str:
    """Where a language's pages lie in the built site: ``""`` for English (the root), ``"fr/"``, ``"ru/"``."""
    return "" if check_language(lang) == LANGUAGES[0] else f"{lang}/"


def up_to_site_root(lang: str) -> str:
    """From a language's own root back to the site's root: ``""`` for English, ``"../"`` for the others."""
    return "../" * site_folder(lang).count("/")


@cache
def get_translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalog for ``lang``; English (the source language) falls back to the msgids."""
    check_language(lang)
    return gettext.translation("messages", localedir=str(LOCALE_DIR), languages=[lang], fallback=True)


def format_percent(value: float, lang: str) -> str:
    """A probability as a percentage with one decimal, in the conventions of ``lang`` (12.5%, 12,5 %)."""
    return _babel_percent(value, locale=check_language(lang), format="#,##0.0%")


def format_decimal(value: float, lang: str, digits: int = 2) -> str:
    """A number with at most ``digits`` decimals in the conventions of ``lang``."""
    pattern = "#,##0." + "#" * digits if digits else "#,##0"
    return _babel_decimal(value, locale=check_language(lang), format=pattern)

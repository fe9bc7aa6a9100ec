"""The site's navigation, in the page's language, derived from the chapters of the rule data."""

from __future__ import annotations

from collections.abc import Collection

from calculators import CALCULATORS
from kensei_ref.language_context import language_context
from kensei_ref.languages import N_
from kensei_ref.rules.model import RuleBook
from kensei_ref.site import calculator_pages
from kensei_ref.site.digest import DIGEST_PAGE
from kensei_ref.site.pages import (
    BENCHMARKS_PAGE,
    CLARIFICATIONS_PAGE,
    GAME_NAMES,
    GLOSSARY_PAGE,
    QUICK_REFERENCE_PAGE,
    SOURCES_PAGE,
)
from kensei_ref.site.plan_page import PLAN_PAGE
from kensei_ref.site.unit_pickers import ADVISOR_PAGE, UNITS_PAGE

DATA_FORMAT_PAGE = "data-format.md"
"""Hand-written in each language: the shape of the rules.json export."""
TRANSLATING_PAGE = "translating.md"
"""Hand-written in each language: the translators' workflow (the rule texts as PO files)."""


def nav(book: RuleBook, lang: str, pages: Collection[str]) -> list[dict]:
    """MkDocs ``nav``: home, each game's chapters in order, then the reference pages."""
    _ = language_context(lang).gettext
    items: list[dict] = [{_("Home"): "index.md"}]
    for game in book.games():
        chapters = [c for c in book.chapters if c.game == game]
        items.append(
            {
                GAME_NAMES[game]: [
                    {(f"{c.number}. {c.title[lang]}" if c.number else c.title[lang]): c.page} for c in chapters
                ]
            }
        )
    calculators = [
        {_(CALCULATORS[name].label): calculator_pages.page_path(name)}
        for name in calculator_pages.DEFAULT_SCENARIOS
        if calculator_pages.page_path(name) in pages
    ]
    if calculators:
        mine = [
            {_(title): page}
            for title, page in (
                (N_("My units"), UNITS_PAGE),
                (N_("Orders advisor"), ADVISOR_PAGE),
                (N_("Command phase plan"), PLAN_PAGE),
            )
            if page in pages
        ]
        items.append({_("Calculators"): [{_("All calculators"): calculator_pages.INDEX_PAGE}, *mine, *calculators]})
    if QUICK_REFERENCE_PAGE in pages:
        items.append({_("Quick reference"): QUICK_REFERENCE_PAGE})
    if DIGEST_PAGE in pages:
        items.append({_("Rules digest"): DIGEST_PAGE})
    if "offline.md" in pages:
        items.append({_("Offline use"): "offline.md"})
    items.append({_("Glossary"): GLOSSARY_PAGE})
    items.append({_("Clarifications and conflicts"): CLARIFICATIONS_PAGE})
    items.append({_("Sources"): SOURCES_PAGE})
    items.append({_("Rules as data"): DATA_FORMAT_PAGE})
    items.append({_("Translating the rules"): TRANSLATING_PAGE})
    if BENCHMARKS_PAGE in pages:
        items.append({_("Benchmarks"): BENCHMARKS_PAGE})
    return items

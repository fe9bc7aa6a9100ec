"""The "Your unit" and "Enemy unit" pickers of a calculator page (units.js), and what they share with the My units
page: where that page is, where the device keeps the units file, the pickers' words.

Its own module so that the calculator pages (which show the pickers) and the units pages (which also show
the calculator pages' figures) each import it, and not each other.
"""

from __future__ import annotations

from typing import Any

from calculators import CALCULATORS
from calculators.profiles import FORMAT, VERSION
from calculators.unit_inputs import sides_used
from kensei_ref.languages import N_
from kensei_ref.rules.model import RuleBook
from kensei_ref.site.pages import PageContext

UNITS_PAGE = "units.md"
ADVISOR_PAGE = "advisor.md"
STORAGE_KEY = "kensei-ref:units"
"""Where the device keeps the units file (``localStorage``): the same JSON as an exported file."""

PICKER_UI = {
    "mine": N_("Your unit"),
    "enemy": N_("Enemy unit"),
    "no_units": N_("Save your units on the My units page to pick them here."),
    "units_page": N_("My units"),
}
"""The pickers' words (the My units page shows them too)."""


def picker_data(
    book: RuleBook, lang: str, page: str, calculator: str, directory_urls: bool = True
) -> dict[str, Any] | None:
    """What a calculator page's "Your unit" and "Enemy unit" pickers need (units.js): the units of its
    game, the sides it takes inputs from; ``None`` for a calculator that takes nothing from a unit. The
    My units page is addressed as the page is served (a folder, or a file in the offline copy)."""
    sides = sides_used(calculator)
    if not sides:
        return None
    ctx = PageContext(book, lang, page, directory_urls)
    tr = ctx.language.gettext  # translates labels held in variables (N_ marked them)
    return {
        "game": CALCULATORS[calculator].game,
        "sides": list(sides),
        "format": FORMAT,
        "version": VERSION,
        "storage": STORAGE_KEY,
        "ui": {key: tr(text) for key, text in PICKER_UI.items()},
        "units_page": ctx.url(UNITS_PAGE),
    }

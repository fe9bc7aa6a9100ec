"""A choice's ``none`` in the words of its field: "sin cobertura" for cover but "no cargó" for a charge, in the
calculators' forms, the orders advisor's form and the terminal; the values themselves (``none`` in a link, on
the command line and in JSON) stay as they are."""

from __future__ import annotations

import html
import importlib
import json
import pkgutil
import re
from dataclasses import dataclass

import pytest

import calculators
from calculators.choices import NONE, choice_label
from calculators.params import Param
from calculators.results import Result, Step
from kensei_ref.cli.calc import render
from kensei_ref.language_context import language_context
from kensei_ref.site.calculator_pages import calculator_page
from kensei_ref.site.units_pages import advisor_page

NONE_WORDS = {
    "cover": {"en": "none", "fr": "sans couvert", "ru": "без укрытия", "es": "sin cobertura"},
    "moved": {"en": "none", "fr": "aucun", "ru": "нет", "es": "ninguno"},
    "shooter_in": {"en": "none", "fr": "autre terrain", "ru": "другая местность", "es": "otro terreno"},
    "charge": {"en": "none", "fr": "aucune", "ru": "нет", "es": "no cargó"},
    "lone_charge": {"en": "none", "fr": "aucune", "ru": "нет", "es": "ninguna"},
}
"""``none`` as each field's label asks for it: "Couvert de la cible : sans couvert", "Cargó este turno: no cargó",
"Movimiento de los tiradores: ninguno" (masculine), "Carga de un personaje…: ninguna" (feminine)."""

FORMS = [
    ("shooting", "cover", "cover"),
    ("shooting", "moved", "moved"),
    ("shooting", "shooter_in", "shooter_in"),
    ("melee", "a_cover", "cover"),
    ("melee", "b_charge", "charge"),
    ("advise", "enemy_cover", "cover"),
    ("advise", "cover", "cover"),
    ("advise", "shooter_in", "shooter_in"),
    ("advise", "lone_charge", "lone_charge"),
]
"""(page, field, words): each form's fields that offer ``none``."""

LANGS = ("en", "fr", "ru", "es")


def _every_choice_param() -> list[Param]:
    found: dict[int, Param] = {}
    for module in pkgutil.iter_modules(calculators.__path__):
        for value in vars(importlib.import_module(f"calculators.{module.name}")).values():
            for item in value if isinstance(value, tuple | list) else (value,):
                if isinstance(item, Param) and item.kind == "choice":
                    found[id(item)] = item
    return list(found.values())


def test_every_field_that_offers_none_has_words_of_its_own():
    offering = [param for param in _every_choice_param() if NONE in param.choices]
    assert len(offering) >= len(FORMS)
    without = [param.name for param in offering if not choice_label(param.name, NONE)[0]]
    assert without == []


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("page", "field", "words"), FORMS, ids=[f"{page}-{field}" for page, field, _ in FORMS])
def test_a_forms_none_is_in_its_fields_words(book, lang, page, field, words):
    if page == "advise":
        data = json.loads(html.unescape(re.search(r'data-json="([^"]*)"', advisor_page(book, lang)).group(1)))
        param = next(param for param in data["params"] if param["name"] == field)
        options = [(option["value"], option["text"]) for option in param["options"]]
        choices = param["choices"]
    else:
        markup = calculator_page(book, page, lang, "en")
        select = re.search(rf'<select id="s1-{field}"[^>]*>(.*?)</select>', markup, re.S).group(1)
        options = [(value, html.unescape(text)) for value, text in re.findall(r'value="([^"]*)"[^>]*>([^<]*)<', select)]
        choices = [value for value, _ in options]
    assert dict(options)[NONE] == NONE_WORDS[words][lang]
    assert [value for value, _ in options] == choices and NONE in choices  # the values as they were


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("field", ["cover", "a_cover", "moved", "shooter_in", "b_charge", "lone_charge"])
def test_the_terminal_writes_a_steps_none_in_its_fields_words(lang, field):
    """A step that repeats a choice's value under the field's name reads it as the form does."""
    words = NONE_WORDS[field.removeprefix("a_").removeprefix("b_")][lang]
    result = Echo(steps=(Step("kensei.cover", field, "Cover", NONE, "text"),))
    line = render(result, "Shooting", language_context(lang)).splitlines()[-1]
    assert line.endswith(f"  {words:>10}  [kensei.cover]"), line


@dataclass(frozen=True)
class Echo(Result):
    """A result whose one step repeats a choice's value."""

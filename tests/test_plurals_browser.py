"""Counts in words that agree with them, on the page, in Debian's Chromium: calculator.js and units.js choose
each message's form with ``Intl.PluralRules`` among the catalog's forms the build exports, so that the page
says what the terminal says (1 отряд, 2 отряда, 5 отрядов, 21 отряд). tests/test_plurals.py checks the
catalogs and the terminal."""

from __future__ import annotations

import base64
import json
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).parent / "calculators"))
from unit_profiles import SAMURAI, units_file

from calculators import CALCULATORS, CalculatorInputError
from kensei_ref.languages import get_translations
from kensei_ref.site.units_pages import UI

ENGINE_TIMEOUT = 120_000
"""Milliseconds allowed for a cold start of the engine on a busy machine."""
COUNTS = (1, 2, 5, 21)
IMPORTED_RU = {
    1: "Из файла импортирован 1 отряд",
    2: "Из файла импортировано 2 отряда",
    5: "Из файла импортировано 5 отрядов",
    21: "Из файла импортирован 21 отряд",
}
"""Each of Russian's forms, and 21, which takes the form of 1 (verb and noun both agree)."""


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors


@pytest.fixture
def calculator_page(warm_pages):
    """A calculator page at phone width, whose engine restores the run's saved one."""
    page = warm_pages.configured(viewport={"width": 390, "height": 844}).new_page()
    yield page
    page.close()
    assert not page.errors


def _units(count: int) -> dict:
    return units_file(*({**SAMURAI, "name": f"Самураи {number}"} for number in range(1, count + 1)))


def test_units_imported_from_a_file_are_counted_in_each_russian_form(page, server, tmp_path):
    page.goto(f"{server}/ru/units/")
    status = page.locator(".kr-units__status")
    for count in COUNTS:
        file = tmp_path / f"units-{count}.json"
        file.write_text(json.dumps(_units(count)), encoding="utf-8")
        page.locator(".kr-units__import input").set_input_files(str(file))
        expect(status).to_have_text(f"{IMPORTED_RU[count]}; уже сохранённые отряды остаются.", timeout=ENGINE_TIMEOUT)


@pytest.mark.parametrize(
    ("lang", "count", "shown"),
    [
        pytest.param("ru", 1, "В этой ссылке 1 отряд. Сохранить на этом устройстве?", id="ru-1"),
        pytest.param("ru", 2, "В этой ссылке 2 отряда. Сохранить их на этом устройстве?", id="ru-2"),
        pytest.param("ru", 5, "В этой ссылке 5 отрядов. Сохранить их на этом устройстве?", id="ru-5"),
        pytest.param("ru", 21, "В этой ссылке 21 отряд. Сохранить на этом устройстве?", id="ru-21"),
        pytest.param("en", 1, "This link holds 1 unit. Save it on this device?", id="en-1"),
        pytest.param("fr", 2, "Ce lien contient 2 unités. Les enregistrer sur cet appareil\u202f?", id="fr-2"),
        pytest.param("es", 1, "Este enlace contiene 1 unidad. ¿Guardarla en este dispositivo?", id="es-1"),
        pytest.param("es", 2, "Este enlace contiene 2 unidades. ¿Guardarlas en este dispositivo?", id="es-2"),
    ],
)
def test_a_shared_link_counts_its_units_in_the_pages_language(page, server, lang, count, shown):
    encoded = base64.urlsafe_b64encode(json.dumps(_units(count)).encode()).decode().rstrip("=")
    page.goto(f"{server}/{'' if lang == 'en' else lang + '/'}units/#units={encoded}")
    expect(page.locator(".kr-units__status")).to_have_text(shown)
    assert shown == get_translations(lang).ngettext(*UI["shared"], count) % {"count": count}


REFUSED = [
    # (calculator, the page's link, the field refused, the Russian words of the count)
    ("melee", "b_models=1&b_wounds=1&b_defensive=1", "b_defensive", "стоит 3 боевых кубика,"),
    ("melee", "b_models=1&b_wounds=1&b_defensive=2", "b_defensive", "стоит 6 боевых кубиков,"),
    ("melee", "b_models=1&b_wounds=1&b_defensive=7", "b_defensive", "стоит 21 боевой кубик,"),
    ("planner", "points=0&taisho_ability=1", "taisho_ability", "резервирует 2 очка командования,"),
    ("planner", "points=0&strategic_orders=2", "strategic_orders", "резервирует 6 очков командования,"),
    ("planner", "points=0&strategic_orders=7", "strategic_orders", "резервирует 21 очко командования,"),
]


@pytest.mark.parametrize(
    ("calculator", "query", "field", "words"),
    [pytest.param(*case, id=f"{case[0]}-{case[3].split()[1]}") for case in REFUSED],
)
def test_a_refusal_beside_its_field_takes_the_form_its_count_asks_for(
    calculator_page, server, calculator, query, field, words
):
    page = calculator_page
    page.goto(f"{server}/ru/calculators/{calculator}/?{query}")
    error = page.locator(f"#s1-{field}-error")
    expect(error).to_contain_text(words, timeout=ENGINE_TIMEOUT)
    text = error.text_content() or ""
    assert "{" not in text


def test_the_page_and_the_terminal_word_a_refusal_alike(calculator_page, server):
    """The same refusal, as the terminal prints it in Russian and as the page shows it beside the field."""
    page = calculator_page
    page.goto(f"{server}/ru/calculators/melee/?b_models=1&b_wounds=1&b_defensive=7")
    error = page.locator("#s1-b_defensive-error")
    inputs = {
        "a_models": 5, "a_wounds": 5, "a_attack": 6, "a_defense": 5, "a_armor": 3, "a_initiative": 4,
        "b_models": 1, "b_wounds": 1, "b_attack": 6, "b_defense": 5, "b_armor": 3, "b_initiative": 4, "b_defensive": 7,
    }  # fmt: skip
    with pytest.raises(CalculatorInputError) as caught:
        CALCULATORS["melee"].run(inputs)
    terminal = caught.value.describe(str, get_translations("ru"))
    assert terminal == "стоит 21 боевой кубик, а у отряда их только 1"
    expect(error).to_contain_text(terminal, timeout=ENGINE_TIMEOUT)

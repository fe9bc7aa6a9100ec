"""The home page at the table, on a phone: the search field and the table-side pages as large targets
on the first screen, the units saved on the device and the player's last calculations (one tap back
to their inputs and figures), words for touch or for a pointer, in three languages. What the device
holds is untrusted: it is written as text, and only addresses of the site's own pages are offered."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from same_numbers import assert_same_numbers

from calculators import CALCULATORS
from kensei_ref.languages import LANGUAGES, site_folder
from kensei_ref.site import RECENT_KEY
from kensei_ref.site.calculator_pages import ENGINE_STATE, RESULT_STATE
from kensei_ref.site.unit_pickers import STORAGE_KEY

sys.path.insert(0, str(Path(__file__).parent / "calculators"))
from unit_profiles import ARCHERS, SAMURAI, units_file

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
PREFIX = {lang: site_folder(lang) for lang in LANGUAGES}
ENGINE_TIMEOUT = 120_000
SETTLED = f"""() => document.querySelector(".kr-calc")?.getAttribute("{ENGINE_STATE}") === "ready"
  && document.querySelector('.kr-result[data-scenario="1"]').getAttribute("{RESULT_STATE}") === "fresh" """


@pytest.fixture
def phone(browser):
    context = browser.new_context(**PHONE, service_workers="block")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    yield page
    context.close()


def _hold(page, server: str, key: str, value: object) -> None:
    """Sets what the device keeps under ``key`` (from a page of the site's origin)."""
    page.evaluate("([key, value]) => window.localStorage.setItem(key, value)", [key, json.dumps(value)])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_table_side_pages_are_large_targets_on_the_first_screen(phone, server, lang):
    phone.goto(f"{server}/{PREFIX[lang]}")
    tiles = phone.locator("a.kr-home__tile")
    hrefs = tiles.evaluate_all("(links) => links.map((link) => link.href)")
    root = f"{server}/{PREFIX[lang]}"
    assert hrefs[:4] == [f"{root}advisor/", f"{root}units/", f"{root}plan/", f"{root}calculators/shooting/"], hrefs
    for tile in tiles.all()[:5]:
        box = tile.bounding_box()
        assert box["height"] >= 48 and box["y"] + box["height"] <= 844, box  # a thumb's target, on screen
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    # the search field of the page opens the site's search
    phone.locator("label.kr-home__search").tap()
    phone.wait_for_function("() => document.getElementById('__search').checked")
    # nothing kept on the device yet: no empty lists
    assert phone.locator(".kr-home__device:visible").count() == 0
    # a touch screen is told to tap, not to hover
    assert phone.locator(".kr-on-touch").first.is_visible() and not phone.locator(".kr-on-pointer").first.is_visible()
    assert phone.errors == []


def test_a_pointer_is_told_to_hover(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, service_workers="block")
    page = context.new_page()
    page.goto(f"{server}/")
    assert page.locator(".kr-on-pointer").first.is_visible() and not page.locator(".kr-on-touch").first.is_visible()
    context.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_saved_units_and_the_last_calculation_are_one_tap_away(phone, server, lang):
    root = f"{server}/{PREFIX[lang]}"
    phone.goto(root)
    _hold(phone, server, STORAGE_KEY, units_file(ARCHERS, SAMURAI))
    # a calculation of the player's own: models and cover changed on the shooting calculator
    phone.goto(f"{root}calculators/shooting/?models=5&wounds_each=2&attack=6&defense=5&armor=3&cover=heavy")
    phone.wait_for_function(SETTLED, timeout=ENGINE_TIMEOUT)
    phone.wait_for_function(f"() => (window.localStorage.getItem('{RECENT_KEY}:{lang}') || '').includes('cover=heavy')")
    phone.goto(root)
    units = phone.locator('.kr-home__device[data-kind="units"] .kr-home__list a')
    assert units.all_inner_texts() == [ARCHERS["name"], SAMURAI["name"]]
    recent = phone.locator('.kr-home__device[data-kind="recent"] .kr-home__list a')
    assert recent.count() == 1
    recent.first.tap()
    phone.wait_for_url("**/calculators/shooting/?**cover=heavy**")
    phone.wait_for_function(SETTLED, timeout=ENGINE_TIMEOUT)
    shown = json.loads(phone.locator('section.kr-result[data-scenario="1"]').get_attribute("data-result"))
    inputs = {"models": 5, "wounds_each": 2, "attack": 6, "defense": 5, "armor": 3, "cover": "heavy"}
    assert_same_numbers(shown, CALCULATORS["shooting"].run(inputs))
    assert phone.errors == []


def test_what_the_device_holds_is_written_as_text_and_only_site_pages_are_offered(phone, server):
    phone.goto(f"{server}/")
    _hold(phone, server, STORAGE_KEY, {"units": [{"name": "<img src=x onerror=window.__pwned=1>"}]})
    entries = [
        {"path": "javascript:window.__pwned=2//", "query": "", "title": "a script", "figures": ""},
        {"path": "//elsewhere.example/", "query": "x=1", "title": "another site", "figures": ""},
        {"path": "calculators/melee/", "query": "a_models=3", "title": "<b>Melee</b>", "figures": "<i>1</i>"},
        "not an entry",
    ]
    _hold(phone, server, f"{RECENT_KEY}:en", entries)
    phone.reload()
    units = phone.locator('.kr-home__device[data-kind="units"] .kr-home__list a')
    assert units.all_inner_texts() == ["<img src=x onerror=window.__pwned=1>"]
    recent = phone.locator('.kr-home__device[data-kind="recent"] .kr-home__list a')
    assert recent.all_inner_texts() == ["<b>Melee</b>"]
    assert recent.first.get_attribute("href") == f"{server}/calculators/melee/?a_models=3"
    assert phone.evaluate("window.__pwned") is None
    # a store that is not JSON at all leaves the lists hidden
    phone.evaluate(f"() => window.localStorage.setItem('{RECENT_KEY}:en', '{{not json')")
    phone.reload()
    assert phone.locator('.kr-home__device[data-kind="recent"]').is_hidden()
    assert phone.errors == []

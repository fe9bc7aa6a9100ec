"""What a calculator page shows is for the inputs on screen, and in view: links (a search result's,
an old shared one) arrive with complete inputs, figures for other inputs are marked until the engine
answers (the engine held back here by ``page.route``), and at 1280x800 the headline figure stays in
the viewport after an input near the bottom of the form changes.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from same_numbers import assert_same_numbers

from calculators import CALCULATORS
from kensei_ref.languages import get_translations
from kensei_ref.site.calculator_pages import DEFAULT_SCENARIOS, ENGINE_STATE, RESULT_STATE, UI

ENGINE_TIMEOUT = 90_000
ENGINE_FILES = "**/assets/engine/**"
"""The worker, Pyodide and the calculators' zip: what a test holds back to keep the engine from starting."""

SETTLED = f"""() => document.querySelector(".kr-calc")?.getAttribute("{ENGINE_STATE}") === "ready"
  && document.querySelector('.kr-result[data-scenario="1"]').getAttribute("{RESULT_STATE}") !== "computing" """

FORM = """() => Object.fromEntries([...document.querySelector('form[data-scenario="1"]').elements]
  .filter((e) => e.name).map((e) => [e.name, e.type === "checkbox" ? e.checked : e.value]))"""

EMPTY_REQUIRED = """() => {
  const data = JSON.parse(document.querySelector(".kr-calc__data").dataset.json);
  const form = document.querySelector('form[data-scenario="1"]');
  const empty = (p) => p.required && form.elements.namedItem(p.name).value.trim() === "";
  return data.params.filter(empty).map((p) => p.name);
}"""

FIELD_ERRORS = """() => [...document.querySelectorAll('form[data-scenario="1"] .kr-field__error')]
  .map((e) => e.textContent.trim()).filter(Boolean)"""


def settle(page) -> None:
    page.wait_for_function(SETTLED, timeout=ENGINE_TIMEOUT)


def result_of(page) -> tuple[str, Any]:
    section = page.locator('section.kr-result[data-scenario="1"]')
    raw = section.get_attribute("data-result")
    return section.get_attribute("data-state"), json.loads(raw) if raw else None


def _prefix(lang: str) -> str:
    return "" if lang == "en" else f"{lang}/"


@pytest.fixture
def page(warm_context):
    """A page of the worker's warm context (conftest.py): its engine restores the saved snapshot."""
    page = warm_context.new_page()
    page.set_viewport_size({"width": 1280, "height": 800})
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    yield page
    page.close()


def _hold_engine(page) -> dict:
    """Holds every engine file's request (unanswered) until the test releases them: the engine is
    loading, as on a slow network."""
    held: dict = {"routes": [], "released": False}

    def hold(route) -> None:
        if held["released"]:
            route.continue_()
        else:
            held["routes"].append(route)

    page.route(ENGINE_FILES, hold)
    return held


def _release(held: dict) -> None:
    held["released"] = True
    for route in held["routes"]:
        route.continue_()


# ---- Links arrive with complete inputs -----------------------------------------------------------


@pytest.mark.parametrize("name", list(DEFAULT_SCENARIOS))
def test_search_result_link_opens_with_the_default_inputs(page, server, name):
    """Material's search appends ``?h=<the words searched>``: no input of the calculator."""
    page.route(ENGINE_FILES, lambda route: route.abort())  # the form alone is checked here
    page.goto(f"{server}/calculators/{name}/?h=dice+wounds")
    page.wait_for_function(f'() => document.querySelector(".kr-calc").getAttribute("{ENGINE_STATE}") !== "loading"')
    assert page.evaluate(EMPTY_REQUIRED) == []
    assert page.evaluate(FIELD_ERRORS) == []
    state, result = result_of(page)
    assert state == "fresh", "the build's figures are for the inputs shown"
    assert_same_numbers(result, CALCULATORS[name].run(DEFAULT_SCENARIOS[name]))


def test_search_result_link_shows_the_engine_figures(page, server):
    page.goto(f"{server}/calculators/shooting/?h=archers+cover")
    settle(page)
    assert page.evaluate(EMPTY_REQUIRED) == [] and page.evaluate(FIELD_ERRORS) == []
    state, result = result_of(page)
    assert state == "fresh"
    assert_same_numbers(result, CALCULATORS["shooting"].run(DEFAULT_SCENARIOS["shooting"]))
    assert not page.errors


def test_a_link_lacking_required_inputs_takes_the_page_defaults(page, server):
    page.route(ENGINE_FILES, lambda route: route.abort())
    page.goto(f"{server}/calculators/melee/?a_models=8&b_models=6&h=charge&utm_source=x")
    form = page.evaluate(FORM)
    assert form["a_models"] == "8" and form["b_models"] == "6"
    assert page.evaluate(EMPTY_REQUIRED) == []
    for key, value in DEFAULT_SCENARIOS["melee"].items():
        if key not in ("a_models", "b_models"):
            assert form[key] == str(value), key


OLD_LINKS = [
    ("shooting", "wounds=1,1,1,1,1,1&attack=6&defense=5&armor=3&cover=light",
     {"wounds": [1] * 6, "attack": 6, "defense": 5, "armor": 3, "cover": "light"}),
    ("shooting", "dice=9&attack=5&defense=4&armor=2&range=long&moved=march&precision=1",
     {"dice": 9, "attack": 5, "defense": 4, "armor": 2, "range": "long", "moved": "march", "precision": True}),
    # an optional input the link lacks keeps the calculator's default (1 attempt), as it always did
    ("regroup", "honor=5", {"honor": 5}),
    # models given without their Wounds each are models of one Wound; the page's Attack, Defense, Armor
    ("shooting", "models=6&cover=light",
     {"models": 6, "wounds_each": 1, "attack": 6, "defense": 5, "armor": 3, "cover": "light"}),
]  # fmt: skip


@pytest.mark.parametrize(("name", "query", "inputs"), OLD_LINKS)
def test_old_shared_link_shows_the_same_figures(page, server, name, query, inputs):
    page.goto(f"{server}/calculators/{name}/?{query}")
    settle(page)
    state, result = result_of(page)
    assert state == "fresh", page.evaluate(FIELD_ERRORS)
    assert_same_numbers(result, CALCULATORS[name].run(inputs))
    form = page.evaluate(FORM)
    for key, value in inputs.items():
        expected = (
            value if isinstance(value, bool) else ",".join(map(str, value)) if isinstance(value, list) else str(value)
        )
        assert form[key] == expected, key
    assert not page.errors


# ---- Figures for other inputs are marked --------------------------------------------------------

MARKED = """() => {
  const section = document.querySelector('.kr-result[data-scenario="1"]');
  const figures = section.querySelector(".kr-figures");
  return { state: section.dataset.state, note: section.dataset.note || null,
           before: getComputedStyle(section, "::before").content,
           opacity: Number(getComputedStyle(figures).opacity),
           bar: document.querySelector(".kr-calc__summary").dataset.state,
           barText: document.querySelector(".kr-calc__summary").textContent,
           status: document.querySelector(".kr-calc__status").textContent };
}"""


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_figures_for_other_inputs_are_marked_until_the_engine_answers(page, server, lang):
    tr = get_translations(lang).gettext
    held = _hold_engine(page)
    query = "wounds=1,1,1,1,1,1&attack=6&defense=5&armor=3&cover=light"
    inputs = {"wounds": [1] * 6, "attack": 6, "defense": 5, "armor": 3, "cover": "light"}
    page.goto(f"{server}/{_prefix(lang)}calculators/shooting/?{query}")
    # the marks wait 0.15 s (no flicker on a quick recompute), then fade in; the engine is held meanwhile
    with contextlib.suppress(PlaywrightTimeout):  # the assertions below say what is missing
        page.wait_for_function(f"() => ({MARKED})().opacity < 0.6", timeout=10_000)
    marked = page.evaluate(MARKED)
    assert marked["state"] == "computing", marked
    assert marked["note"] == tr(UI["computing"]) and tr(UI["computing"]) in marked["before"], marked
    assert marked["opacity"] < 0.6, "the default figures are not greyed"
    assert marked["bar"] == "computing" and marked["barText"].startswith(tr(UI["computing"])), marked
    assert marked["status"] == tr(UI["loading_other"]), marked
    assert tr(UI["loading"]) not in marked["status"]

    _release(held)
    settle(page)
    page.wait_for_timeout(200)
    fresh = page.evaluate(MARKED)
    assert fresh["state"] == "fresh" and fresh["note"] is None and fresh["bar"] == "fresh", fresh
    assert fresh["opacity"] == 1
    assert tr(UI["computing"]) not in fresh["barText"]
    assert_same_numbers(result_of(page)[1], CALCULATORS["shooting"].run(inputs))
    assert not page.errors


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_links_inputs_are_in_the_form_before_the_pages_own_scripts_run(page, server, lang):
    """On a slow phone the page's scripts come seconds after its form: the link's inputs are written
    while the page is parsed (link-inputs.js), and the build's figures are marked as not theirs. Here
    the page's calculator script never comes at all."""
    tr = get_translations(lang).gettext
    page.route("**/assets/js/calculator.js", lambda route: route.abort())
    page.route(ENGINE_FILES, lambda route: route.abort())
    page.goto(f"{server}/{_prefix(lang)}calculators/shooting/?dice=9&attack=5&defense=4&armor=2&cover=light")
    form = page.evaluate(FORM)
    assert (form["dice"], form["attack"], form["defense"], form["armor"], form["cover"]) == (
        "9",
        "5",
        "4",
        "2",
        "light",
    )
    assert form["models"] == "" and form["wounds_each"] == ""  # the one way of giving the shooters the link chose
    section = page.locator('section.kr-result[data-scenario="1"]')
    assert section.get_attribute("data-state") == "computing"
    assert section.get_attribute("data-note") == tr(UI["computing"])
    assert page.locator(".kr-calc__status").inner_text() == tr(UI["loading_other"])


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_engines_start_says_how_far_it_is(page, server, lang):
    """While the engine's files are held (a slow network) the page says it is downloading; once they
    come, the line goes and the figures are the engine's."""
    tr = get_translations(lang).gettext
    held = _hold_engine(page)
    page.goto(f"{server}/{_prefix(lang)}calculators/regroup/?honor=4")
    progress = page.locator(".kr-calc__progress")
    page.wait_for_function("() => document.querySelector('.kr-calc__progress')?.textContent !== ''")
    assert progress.inner_text() == tr(UI["stage_download"])
    _release(held)
    settle(page)
    assert progress.text_content() == ""
    assert_same_numbers(result_of(page)[1], CALCULATORS["regroup"].run({"honor": 4}))


def test_the_result_bar_stays_until_the_figures_are_all_on_screen(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, service_workers="block")
    page = context.new_page()
    page.goto(f"{server}/calculators/shooting/")
    # measured once the page has settled: the engine's start writes its progress line above the figures
    page.wait_for_function("() => document.querySelector('.kr-calc')?.dataset.engineState === 'ready'", timeout=120_000)
    bar = page.locator(".kr-calc__summary")
    figures = page.locator('.kr-result[data-scenario="1"] .kr-figures')
    top = figures.evaluate("(e) => e.getBoundingClientRect().top + window.scrollY")
    page.evaluate("(y) => window.scrollTo(0, y - 844 + 30)", top)  # the figures' first line on screen only
    page.wait_for_timeout(300)
    assert bar.is_visible()
    # brought into view again at each check: a late layout shift on a busy machine must not leave them half off
    page.wait_for_function(
        """() => {
          document.querySelector('.kr-result[data-scenario="1"] .kr-figures').scrollIntoView({ block: "center" });
          return document.querySelector('.kr-calc__summary').hidden;
        }"""
    )
    context.close()


def test_a_link_of_the_built_scenario_keeps_its_figures_fresh(page, server):
    """The script that wrote the link's inputs early leaves the built figures standing when they are
    the link's own (calculator.js finds them equal to the form as built)."""
    held = _hold_engine(page)
    scenario = DEFAULT_SCENARIOS["regroup"]
    page.goto(f"{server}/calculators/regroup/?" + "&".join(f"{key}={value}" for key, value in scenario.items()))
    page.wait_for_function("() => window.__krCalc !== undefined")
    assert page.evaluate(MARKED)["state"] == "fresh"
    _release(held)


def test_an_input_changed_before_the_engine_is_ready_is_marked(page, server):
    held = _hold_engine(page)
    page.goto(f"{server}/calculators/regroup/")
    assert page.evaluate(MARKED)["state"] == "fresh", "the build's figures are for the form as built"
    page.locator("#s1-honor").fill("4")
    page.wait_for_timeout(300)
    marked = page.evaluate(MARKED)
    assert marked["state"] == "computing" and marked["note"] == UI["computing"], marked
    page.locator("#s1-honor").fill(str(DEFAULT_SCENARIOS["regroup"]["honor"]))  # back to the figures' inputs
    assert page.evaluate(MARKED)["state"] == "fresh"
    page.locator("#s1-honor").fill("4")
    _release(held)
    settle(page)
    assert page.evaluate(MARKED)["state"] == "fresh"
    assert_same_numbers(result_of(page)[1], CALCULATORS["regroup"].run({**DEFAULT_SCENARIOS["regroup"], "honor": 4}))


# ---- The result in view --------------------------------------------------------------------------

CHANGE_LAST = """() => {
  // the form's last input: the one a player reaches last, at the bottom of the form
  const form = document.querySelector('form[data-scenario="1"]');
  const inputs = [...form.elements].filter((e) => e.name && e.offsetParent !== null);
  return inputs[inputs.length - 1].id;
}"""


@pytest.mark.parametrize("name", ["shooting", "melee", "regroup"])
def test_the_headline_figure_stays_in_view_at_1280x800(page, server, name):
    page.goto(f"{server}/calculators/{name}/")
    settle(page)
    field = page.locator(f"#{page.evaluate(CHANGE_LAST)}")
    field.scroll_into_view_if_needed()
    kind = field.evaluate("(e) => e.tagName === 'SELECT' ? 'select' : e.type")
    if kind == "checkbox":
        field.click()
    elif kind == "select":
        options = field.evaluate("(e) => [...e.options].map((o) => o.value).filter((v) => v && v !== e.value)")
        field.select_option(options[0])
    else:
        field.fill(str(int(field.input_value() or 0) + 1))
    settle(page)
    assert result_of(page)[0] == "fresh", page.evaluate(FIELD_ERRORS)
    assert field.evaluate(
        "(e) => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }"
    )
    box = page.locator('.kr-result[data-scenario="1"] .kr-figure').first.bounding_box()
    assert box is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= 800, f"{name}: the headline figure is at {box}"
    assert box["x"] >= 0 and box["x"] + box["width"] <= 1280, box
    assert not page.errors

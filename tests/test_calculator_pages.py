"""The calculator pages in Debian's Chromium: the numbers Pyodide shows are CPython's, links round-trip,
bad inputs are explained in the page's language, the pages pass axe and fit a phone.

Pyodide takes seconds to start, so each page is opened once and then driven through its form. The
numbers of every calculator are compared in one tab, each calculator opened from a link to its address
in place, as a reader goes from one to the next: one engine start for all. The other pages are opened
ahead of the test that uses them (a :class:`_Pages` pool) so that one engine starts while another page
is being tested.
"""

from __future__ import annotations

import functools
import json
import random
from itertools import pairwise
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlparse

import pytest
from calculator_tabs import SET_FORM, CalculatorTabs
from french_typography import problems as french_problems
from same_numbers import assert_same_numbers

from calculators import CALCULATORS, CalculatorInputError
from kensei_ref.language_context import language_context
from kensei_ref.languages import LANGUAGES, TRANSLATED
from kensei_ref.site.calculator_pages import (
    DEFAULT_SCENARIOS,
    ENGINE_READY_EVENT,
    ENGINE_STATE,
    RESULT_STATE,
    TOGETHER,
    UI,
)

NAMES = list(DEFAULT_SCENARIOS)
LANGS = LANGUAGES
SCENARIOS_PER_PAGE = 24
"""Random scenarios compared per calculator: the first opened from its URL, the others written into its form."""
ENGINE_TIMEOUT = 90_000
"""Milliseconds allowed for Pyodide to start (several pages may be starting at once on two cores)."""

SETTLED = f"""(scenarios) => document.querySelector(".kr-calc")?.getAttribute("{ENGINE_STATE}") === "ready"
  && scenarios.every((scenario) => document.querySelector(`.kr-result[data-scenario="${{scenario}}"]`)
    .getAttribute("{RESULT_STATE}") !== "computing")"""
"""True once the engine is ready and has answered the latest request of every scenario given (a page
opened in place has no calculator until it is swapped in)."""

RECORD_READY = f"""document.addEventListener("{ENGINE_READY_EVENT}",
  (event) => {{ window.__engineReady = event.detail; }});"""
"""Run before the page's scripts: keeps the detail of the engine-ready event."""

READ_FORM = """(scenario) => {
  const form = document.querySelector(`form[data-scenario="${scenario}"]`);
  return Object.fromEntries([...form.elements].filter((e) => e.name)
    .map((e) => [e.name, e.type === "checkbox" ? e.checked : e.value]));
}"""

FIELD_ERRORS = """(scenario) => Object.fromEntries(
  [...document.querySelectorAll(`form[data-scenario="${scenario}"] .kr-field__error`)]
    .filter((e) => e.textContent.trim()).map((e) => [e.id, e.textContent.trim()]))"""


EACH_SCENARIO = f"""async ([scenario, scenarios, timeout]) => {{
  // Each scenario written into the form in turn (as SET_FORM), then, once the engine has answered it
  // (as SETTLED), what the page shows: one call for all, instead of five round trips each.
  const deadline = performance.now() + timeout;
  const shown = [];
  for (const values of scenarios) {{
    const sent = ({SET_FORM})([scenario, values]);
    while (!({SETTLED})([scenario])) {{
      if (performance.now() > deadline) return shown;
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }}
    const result = document.querySelector(`section.kr-result[data-scenario="${{scenario}}"]`);
    const errors = ({FIELD_ERRORS})(scenario);
    shown.push({{ sent, state: result.dataset.state, result: result.dataset.result, url: location.href, errors }});
  }}
  return shown;
}}"""
"""Writes each of ``scenarios`` into the form of ``scenario`` and gives, for each, whether a request was
sent, the result's state and JSON, the page's URL and the errors shown; stops early at ``timeout`` ms."""


def _prefix(lang: str) -> str:
    return "" if lang == "en" else f"{lang}/"


def _params(name: str) -> list[dict[str, Any]]:
    return CALCULATORS[name].describe()["params"]


# ---- Random scenarios ----------------------------------------------------------------------------


def _random_value(rng: random.Random, param: dict[str, Any]) -> Any:
    kind = param["kind"]
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "choice":
        return rng.choice(param["choices"])
    low, high = param["minimum"], param["maximum"]
    if kind == "int":
        return rng.randint(low, high)
    length = rng.randint(param["min_length"] or 0, param["max_length"] or 10)
    return [rng.randint(low, high) for _ in range(length)]


def _random_inputs(rng: random.Random, params: list[dict[str, Any]]) -> dict[str, Any]:
    """Valid-looking inputs from the metadata, as the form sends them: every boolean (a checkbox is
    always read), every choice that has no empty option, optional fields sometimes left empty."""
    inputs = {}
    for param in params:
        has_empty_option = param["kind"] == "choice" and param["default"] is None and not param["required"]
        optional = not param["required"] and (param["kind"] in ("int", "int_list") or has_empty_option)
        if optional and rng.random() < 0.3:
            continue
        value = _random_value(rng, param)
        if param["kind"] == "int_list" and not value and not param["required"]:
            continue  # an empty list field is an omitted one
        inputs[param["name"]] = value
    return inputs


@functools.cache
def random_scenarios(name: str) -> tuple[tuple[dict[str, Any], dict[str, Any]], ...]:
    """``SCENARIOS_PER_PAGE`` pairs (inputs, CPython's result), seeded, skipping what CPython refuses."""
    rng = random.Random(f"calculator-pages/{name}")
    params = _params(name)
    scenarios = []
    for _ in range(100_000):
        inputs = _random_inputs(rng, params)
        try:
            scenarios.append((inputs, CALCULATORS[name].run(inputs)))
        except CalculatorInputError:
            continue
        if len(scenarios) == SCENARIOS_PER_PAGE:
            return tuple(scenarios)
    raise AssertionError(f"{name}: too few valid random scenarios ({len(scenarios)})")


def to_query(inputs: dict[str, Any], prefix: str = "") -> dict[str, str]:
    """The URL parameters of one scenario, as the page writes them (booleans as 1, lists as 2,2,1)."""
    query = {}
    for key, value in inputs.items():
        if value is False or value is None or value == []:
            continue
        text = "1" if value is True else ",".join(map(str, value)) if isinstance(value, list) else str(value)
        query[prefix + key] = text
    return query


# ---- Pages ---------------------------------------------------------------------------------------


class _Pages:
    """Pages opened ahead of use in one browser context (its HTTP cache keeps Pyodide's files)."""

    def __init__(self, context, base: str) -> None:
        self.context, self.base = context, base
        self.open: dict[str, Any] = {}

    def _open(self, path: str):
        page = self.context.new_page()  # keeps its errors in page.errors
        page.goto(f"{self.base}/{path}")
        return page

    def take(self, path: str, ahead: tuple[str, ...] = ()):
        """The page at ``path`` (opened now unless opened ahead); starts opening the ``ahead`` paths."""
        page = self.open.pop(path, None) or self._open(path)
        for other in ahead:
            if other not in self.open:
                self.open[other] = self._open(other)
        return page

    def close(self) -> None:
        for page in self.open.values():
            page.close()


@pytest.fixture(scope="module")
def context(warm_pages):
    # the run's warm context: no service worker (nothing here is about offline use, and nothing saves the
    # site in the background), and an engine that restores its saved memory instead of starting anew
    return warm_pages.configured(viewport={"width": 1280, "height": 900}, init_script=RECORD_READY)


@pytest.fixture(scope="module")
def pages(context, server):
    pool = _Pages(context, server)
    yield pool
    pool.close()


@pytest.fixture
def page(context):
    page = context.new_page()  # keeps its errors in page.errors
    yield page
    page.close()


def settle(page, scenarios: tuple[str, ...] = ("1",)) -> None:
    page.wait_for_function(SETTLED, arg=list(scenarios), timeout=ENGINE_TIMEOUT)


def result_of(page, scenario: str = "1") -> tuple[str, Any]:
    section = page.locator(f'section.kr-result[data-scenario="{scenario}"]')
    raw = section.get_attribute("data-result")
    return section.get_attribute("data-state"), json.loads(raw) if raw else None


def assert_fresh(page, scenario: str, inputs: dict[str, Any]) -> Any:
    state, result = result_of(page, scenario)
    assert state == "fresh", f"data-state={state} for {inputs}; errors shown: {page.evaluate(FIELD_ERRORS, scenario)}"
    assert result is not None
    return result


# ---- 1. Pyodide's numbers are CPython's ----------------------------------------------------------


@pytest.fixture(scope="module")
def tab(context, server):
    """One tab that goes through every calculator: the first opened from its address, the next ones in
    place, each through a link to its address with its first scenario's inputs (calculator_tabs.py)."""
    opened = CalculatorTabs(context, server, ENGINE_TIMEOUT)
    yield opened
    opened.close()


@pytest.mark.parametrize("name", NAMES)
def test_browser_numbers_equal_cpython(tab, name):
    scenarios = random_scenarios(name)
    inputs, expected = scenarios[0]
    page = tab.showing("en", name, urlencode(to_query(inputs), safe=","))  # filled in from the address
    assert_same_numbers(assert_fresh(page, "1", inputs), expected)
    ready = page.evaluate("window.__engineReady")
    assert ready["calculator"] == name and ready["readyAt"] > 0, ready
    shown = page.evaluate(EACH_SCENARIO, ["1", [inputs for inputs, _ in scenarios[1:]], ENGINE_TIMEOUT])
    assert len(shown) == len(scenarios) - 1, f"the engine did not answer {scenarios[len(shown) + 1][0]}"
    for ((previous, _), (inputs, expected)), answer in zip(pairwise(scenarios), shown, strict=True):
        # the same inputs twice are asked once (calculator.js): the answer shown is theirs
        assert answer["sent"] or inputs == previous, "the change sent no request to the engine"
        assert answer["state"] == "fresh", f"data-state={answer['state']} for {inputs}; errors: {answer['errors']}"
        assert_same_numbers(json.loads(answer["result"]), expected, f"result for {inputs}")
        assert dict(parse_qsl(urlparse(answer["url"]).query)) == to_query(inputs), "the URL does not hold the inputs"
    assert page.evaluate("window.__krCalc.lastComputeMs") >= 0
    assert not page.errors


# ---- 2. A shared link reproduces both scenarios -------------------------------------------------

FIRST = {"wounds": "3,2,2,1,1", "attack": "5", "defense": "4", "armor": "2", "range": "long", "cover": "light",
         "moved": "march"}  # fmt: skip
SECOND = {"attack": "4", "moved": "none", "shooter_in": "deep-forest"}  # a second shot: no move (action points)


def _type_into(page, scenario: str, values: dict[str, str]) -> None:
    for name, value in values.items():
        field = page.locator(f"#s{scenario}-{name}")
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)


def test_shared_link_round_trips(pages, page, server):
    first = pages.take("calculators/shooting/")
    try:
        settle(first)
        for other_way in ("dice", "models", "wounds_each"):  # FIRST gives the shooters by their Wounds
            first.locator(f"#s1-{other_way}").fill("")
        _type_into(first, "1", FIRST)
        first.locator("#s1-precision").check()
        first.locator(".kr-calc__compare").click()
        assert first.locator('.kr-calc__scenario[data-scenario="2"]').is_visible()
        _type_into(first, "2", SECOND)
        first.locator("#s2-precision").uncheck()
        first.locator("#s2-second_shot").check()
        settle(first, ("1", "2"))
        url = first.url
        assert "compare=1" in url and "s2.attack=4" in url, url
        forms = {s: first.evaluate(READ_FORM, s) for s in ("1", "2")}
        results = {s: result_of(first, s) for s in ("1", "2")}
        difference = first.locator(".kr-calc__difference").inner_text()
        assert not first.errors
    finally:
        first.close()

    page.goto(url)
    settle(page, ("1", "2"))
    assert page.locator('.kr-calc__scenario[data-scenario="2"]').is_visible()
    for scenario in ("1", "2"):
        assert page.evaluate(READ_FORM, scenario) == forms[scenario], f"scenario {scenario}'s form"
        assert result_of(page, scenario) == results[scenario], f"scenario {scenario}'s result"
        assert results[scenario][0] == "fresh"
    assert page.locator(".kr-calc__difference").is_visible()
    assert page.locator(".kr-calc__difference").inner_text() == difference
    # and the numbers are the ones CPython gives for what the forms say
    typed_first = {
        "wounds": [3, 2, 2, 1, 1],
        "attack": 5,
        "defense": 4,
        "armor": 2,
        "range": "long",
        "cover": "light",
        "moved": "march",
        "precision": True,
    }
    typed_second = {
        **typed_first,
        "attack": 4,
        "moved": "none",
        "shooter_in": "deep-forest",
        "precision": False,
        "second_shot": True,
    }
    assert_same_numbers(results["1"][1], CALCULATORS["shooting"].run(typed_first))
    assert_same_numbers(results["2"][1], CALCULATORS["shooting"].run(typed_second))
    assert page.url == url
    assert not page.errors


# ---- 3. A worked example opens in its calculator ------------------------------------------------

EXAMPLE_RULE = "kensei.shooting-dice"
EXAMPLE_LINK = (
    f'xpath=//h2[@id="{EXAMPLE_RULE}"]/following-sibling::*'
    f'[preceding-sibling::h2[1][@id="{EXAMPLE_RULE}"]]//a[contains(@class, "kr-open-calculator")]'
)
"""The "open in calculator" links of the rule's own section (up to the next rule's heading)."""


def _example_inputs(book) -> dict[str, Any]:
    example = next(e for e in book.rule(EXAMPLE_RULE).examples if e.calculator == "shooting")
    return dict(example.inputs)


def test_worked_example_opens_in_the_calculator(page, server, book):
    page.goto(f"{server}/{book.chapter_of(EXAMPLE_RULE).page.removesuffix('.md')}/")
    link = page.locator(EXAMPLE_LINK)
    assert link.count() >= 1, f"no a.kr-open-calculator in the worked example of {EXAMPLE_RULE}"
    assert "calculators/shooting/?" in link.first.get_attribute("href")
    link.first.click()
    page.wait_for_url("**/calculators/shooting/?**")
    settle(page)
    state, result = result_of(page)
    assert state == "fresh"
    assert result["dice"] == 7
    inputs = _example_inputs(book)
    assert page.locator("#s1-wounds").input_value() == ",".join(map(str, inputs["wounds"]))
    assert_same_numbers(result, CALCULATORS["shooting"].run(inputs))


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_calculator_opened_from_an_example_says_where_it_comes_from(page, server, book, lang):
    """The rules' own example (the four archers) opens the calculator with a line naming it as the texts'
    example and its source; the line goes when the player changes an input, and a shared link has none."""
    root = "" if lang == "en" else f"{lang}/"
    page.goto(f"{server}/{root}{book.chapter_of(EXAMPLE_RULE).page.removesuffix('.md')}/")
    page.locator(EXAMPLE_LINK).first.click()
    page.wait_for_url("**/calculators/shooting/?**")
    settle(page)
    notice = page.locator(".kr-calc__example:visible")
    assert notice.count() == 1
    text = " ".join(notice.inner_text().split())
    assert book.example_labels["rules"][lang] in text and "Firing" in text, text
    assert "example=" not in page.url  # the address shared from here holds the inputs only
    page.fill("#s1-attack", "5")
    assert page.locator(".kr-calc__example:visible").count() == 0


@pytest.mark.parametrize("lang", TRANSLATED)
def test_worked_example_link_stays_in_the_language(page, server, book, lang):
    page.goto(f"{server}/{lang}/{book.chapter_of(EXAMPLE_RULE).page.removesuffix('.md')}/")
    link = page.locator(EXAMPLE_LINK)
    assert link.count() >= 1, f"no a.kr-open-calculator in the worked example of {EXAMPLE_RULE} ({lang})"
    href = link.first.evaluate("a => a.href")
    assert href.startswith(f"{server}/{lang}/calculators/shooting/?"), href
    assert "wounds=2,2,2,1" in href.replace("%2C", ","), href


# ---- 4. Bad inputs are explained at their field, in the page's language -------------------------

INT_BOUNDS = {"minimum": 0, "maximum": 20}
ERROR_CASES = [
    # (what, field, value typed, English message, whether the message names the bounds)
    ("empty required field", "attack", "", UI["required"], False),
    ("out of bounds", "attack", "99", UI["int"] % INT_BOUNDS, True),
    ("not a whole number", "defense", "2.5", UI["int"] % INT_BOUNDS, True),
    ("malformed list", "wounds", "2,,x", UI["int_list"] % INT_BOUNDS, True),
]


ALL_RESULTS = "() => [...document.querySelectorAll('[data-result]')].map((e) => e.dataset.result).join(' ')"


def _assert_error_shown(page, lang: str, field: str, english: str | tuple[str, ...], result_before: Any) -> str:
    error = page.locator(f"#s1-{field}-error")
    text = error.inner_text().strip()
    english = (english,) if isinstance(english, str) else english
    assert text, f"no error shown at {field}"
    if lang == "en":
        assert text in english, text
    else:
        assert text not in english, f"the {lang} page shows the English message {text!r}"
    assert page.locator(f"#s1-{field}").get_attribute("aria-invalid") == "true"
    state, result = result_of(page)
    assert state == "stale", f"data-state={state} after a bad {field}"
    assert result == result_before, "the last valid result was not kept"
    assert page.locator('section.kr-result[data-scenario="1"] .kr-figure').count() > 0
    assert page.locator(f"#s1-{field}-error").is_visible()
    assert "NaN" not in page.locator("body").inner_text()
    assert "NaN" not in page.evaluate(ALL_RESULTS)
    return text


def _restore(page, field: str, value: str) -> None:
    page.locator(f"#s1-{field}").fill(value)
    settle(page)
    assert result_of(page)[0] == "fresh"
    assert page.locator(f"#s1-{field}-error").inner_text() == ""
    assert page.locator(f"#s1-{field}").get_attribute("aria-invalid") is None


@pytest.mark.parametrize("lang", LANGS)
def test_bad_inputs_show_inline_errors(page, server, lang):
    page.goto(f"{server}/{_prefix(lang)}calculators/shooting/")
    settle(page)
    assert page.locator("html").get_attribute("lang") == lang
    _, before = result_of(page)
    defaults = {name: page.locator(f"#s1-{name}").input_value() for name in ("attack", "defense", "wounds")}
    for what, field, value, english, bounded in ERROR_CASES:
        page.locator(f"#s1-{field}").fill(value)
        settle(page)
        text = _assert_error_shown(page, lang, field, english, before)
        if bounded:
            assert "20" in text, f"{what}: the bounds are missing from {text!r}"
        _restore(page, field, defaults[field])

    # "abc" typed into a number field: Chromium keeps no letter, so the field is empty (or not a number)
    page.locator("#s1-attack").click()
    page.keyboard.press("ControlOrMeta+A")
    page.keyboard.type("abc")
    settle(page)
    _assert_error_shown(page, lang, "attack", (UI["required"], UI["int"] % INT_BOUNDS), before)
    _restore(page, "attack", defaults["attack"])

    # refused by the rules: shooting takes its dice or its models' Wounds, not both
    refused = {"dice": 5, "wounds": [2, 2, 2, 1], "attack": 6, "defense": 5, "armor": 3}
    with pytest.raises(CalculatorInputError) as refusal:
        CALCULATORS["shooting"].run(refused)
    page.locator("#s1-dice").fill("5")
    settle(page)
    prefix = UI["rules"].split("%(")[0]
    text = page.locator(f"#s1-{refusal.value.field}-error").inner_text().strip()
    assert text, f"no error at {refusal.value.field}: {page.evaluate(FIELD_ERRORS, '1')}"
    assert "{0}" not in text and "{1}" not in text, text
    if lang == "en":
        assert text.startswith(prefix), text
    else:
        assert not text.startswith(prefix), f"the {lang} page shows the English message {text!r}"
    assert page.locator(f"#s1-{refusal.value.field}").get_attribute("aria-invalid") == "true"
    assert result_of(page) == ("stale", before)
    assert "NaN" not in page.locator("body").inner_text()
    _restore(page, "dice", "")
    assert not page.errors


def test_rule_refused_link_shows_the_error_at_its_field(page, server):
    inputs = {"unit_type": "cavalry", "very_high_obstacles": 1}
    with pytest.raises(CalculatorInputError) as refusal:
        CALCULATORS["movement"].run(inputs)
    assert refusal.value.field == "very_high_obstacles"
    page.goto(f"{server}/calculators/movement/?{urlencode(inputs)}")
    settle(page)
    error = page.locator("#s1-very_high_obstacles-error")
    assert error.is_visible()
    assert error.inner_text().startswith(UI["rules"].split("%(")[0])
    assert page.locator("#s1-very_high_obstacles").get_attribute("aria-invalid") == "true"
    state, result = result_of(page)
    assert state == "stale"
    assert_same_numbers(result, CALCULATORS["movement"].run(DEFAULT_SCENARIOS["movement"]))
    assert "NaN" not in page.locator("body").inner_text()


def test_typing_past_the_maximum_keeps_the_result_stale(page, server):
    """Typing "99" sends "9" (valid) to the engine, then "99" (invalid): the late answer for "9" must not
    mark the result fresh while the field shows an error."""
    page.goto(f"{server}/calculators/shooting/")
    settle(page)
    page.evaluate("""() => {
      const input = document.querySelector("#s1-attack");
      for (const text of ["9", "99"]) {
        input.value = text;
        input.dispatchEvent(new Event("input", { bubbles: true }));
      }
    }""")
    settle(page)
    assert page.locator("#s1-attack-error").inner_text() == UI["int"] % INT_BOUNDS
    state, result = result_of(page)
    assert state == "stale", (
        f"data-state={state} beside an invalid Attack; data-result is for effective Attack {result['effective_attack']}"
    )


def _page_text(lang: str, message: str, **values: str) -> str:
    """An interface message as the page in ``lang`` shows it, its values filled in."""
    return language_context(lang).gettext(message) % values


def _quoted_label(lang: str, name: str, calculator: str = "shooting") -> str:
    """A field's label as a message of the page in ``lang`` names it: between the language's quotation marks."""
    language = language_context(lang)
    label = next(param["label"] for param in _params(calculator) if param["name"] == name)
    return language.quote(language.gettext(label))


def _assert_typeset(lang: str, text: str) -> None:
    if lang == "fr":
        assert not french_problems(text), french_problems(text)
    assert "«" not in text or lang != "en", f"English quotes with guillemets: {text!r}"


PAIRED = [("models", "wounds_each"), ("wounds_each", "models")]
"""Shooting's inputs taken together (calculator_pages.TOGETHER): each emptied beside the other."""


def test_the_paired_inputs_are_refused_alone_by_the_engine():
    """The form refuses at once what the engine would refuse: each input of a pair given without the other."""
    for calculator, groups in TOGETHER.items():
        base = DEFAULT_SCENARIOS[calculator]
        for group in groups:
            given = {name: base.get(name, 1) for name in group}
            CALCULATORS[calculator].run({**base, **given})
            for name in group:
                alone = {key: value for key, value in {**base, **given}.items() if key != name}
                with pytest.raises(CalculatorInputError) as refusal:
                    CALCULATORS[calculator].run(alone)
                assert refusal.value.field == name


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_an_emptied_paired_field_is_needed_at_once(page, server, lang):
    """Models and Wounds each, emptied while the other holds a number: the field says at once, while it
    still has the focus and before the engine answers, that it is needed with the other, and keeps saying
    it (past the moment the page keeps the player's last calculation, which read the form again)."""
    page.goto(f"{server}/{_prefix(lang)}calculators/shooting/")
    settle(page)
    _, before = result_of(page)
    for field, other in PAIRED:
        kept = page.locator(f"#s1-{field}").input_value()
        page.locator(f"#s1-{field}").click()
        page.keyboard.press("ControlOrMeta+A")
        page.keyboard.press("Backspace")
        error = page.locator(f"#s1-{field}-error")
        # read at once: no settle, no blur
        assert page.evaluate("document.activeElement.id") == f"s1-{field}"
        expected = _page_text(lang, UI["needed_with"], field=_quoted_label(lang, other))
        assert error.inner_text().strip() == expected
        assert error.is_visible()
        assert page.locator(f"#s1-{field}").get_attribute("aria-invalid") == "true"
        assert page.locator(f"#s1-{other}").get_attribute("aria-invalid") is None
        _assert_typeset(lang, expected)
        assert result_of(page)[0] == "stale"
        page.wait_for_timeout(1500)  # the engine answers nothing for it; the page's timers pass
        assert error.inner_text().strip() == expected, "the error went while the field was still empty"
        assert result_of(page) == ("stale", before)
        page.locator(f"#s1-{field}").blur()
        assert error.inner_text().strip() == expected, "the error changed when the field lost the focus"
        _restore(page, field, kept)
    assert not page.errors


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_link_with_letters_for_a_number_says_so_at_its_field(page, server, lang):
    """``?models=abc``: the number field cannot hold letters; it says what it takes, as letters typed
    there do, and not that the rules refuse an empty box."""
    page.goto(f"{server}/{_prefix(lang)}calculators/shooting/?models=abc")
    settle(page)
    error = page.locator("#s1-models-error")
    expected = _page_text(lang, UI["int"], minimum="1", maximum="100")
    assert error.inner_text().strip() == expected
    assert error.is_visible()
    assert page.locator("#s1-models").get_attribute("aria-invalid") == "true"
    assert result_of(page)[0] == "stale"
    assert page.evaluate(FIELD_ERRORS, "1") == {"s1-models-error": expected}
    _restore(page, "models", "4")
    assert not page.errors


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_link_with_an_unknown_choice_shows_the_default_and_says_so(page, server, lang):
    """``?range=bogus``: the select shows the default (never a blank), the figures are for it, as this link
    showed them before, and the field says that the link's value is none of its choices."""
    page.goto(f"{server}/{_prefix(lang)}calculators/shooting/?range=bogus&models=4")
    settle(page)
    select = page.locator("#s1-range")
    assert select.evaluate("(s) => s.selectedIndex") >= 0
    assert select.input_value() == "normal"
    note = page.locator("#s1-range-error")
    expected = _page_text(lang, UI["link_choice"], value=language_context(lang).quote("bogus"))
    assert note.inner_text().strip() == expected
    assert note.is_visible()
    _assert_typeset(lang, expected)
    assert select.get_attribute("aria-invalid") is None, "the value shown is valid: a note, not an error"
    inputs = {**DEFAULT_SCENARIOS["shooting"], "models": 4, "wounds_each": 1, "range": "normal"}
    assert_same_numbers(assert_fresh(page, "1", inputs), CALCULATORS["shooting"].run(inputs))
    assert "bogus" not in page.url
    assert dict(parse_qsl(urlparse(page.url).query))["range"] == "normal"
    select.select_option("short")
    settle(page)
    assert note.inner_text().strip() == ""
    assert result_of(page)[0] == "fresh"
    assert not page.errors


def test_a_link_with_an_unknown_choice_never_shows_a_blank_select_before_the_scripts(static_pages, server):
    """The link's inputs are written as the parser meets them (link-inputs.js, inline), before any script
    file loads: the select shows the default there too."""
    page = static_pages.new_page()
    try:
        page.goto(f"{server}/fr/calculators/shooting/?range=bogus&models=4")
        assert page.locator("#s1-range").evaluate("(s) => s.selectedIndex") >= 0
        assert page.locator("#s1-range").input_value() == "normal"
        assert page.locator("#s1-models").input_value() == "4"
    finally:
        page.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_rule_refusal_names_fields_with_the_language_quotes(page, server, lang):
    page.goto(f"{server}/{_prefix(lang)}calculators/shooting/")
    settle(page)
    page.locator("#s1-dice").fill("5")
    settle(page)
    text = page.locator("#s1-dice-error").inner_text().strip()
    assert _quoted_label(lang, "models") in text, text
    _assert_typeset(lang, text)


# ---- 5. Accessibility ----------------------------------------------------------------------------


def _axe_node(node: dict) -> str:
    target = " ".join(map(str, node["target"]))
    data = next((check.get("data") for check in node.get("any", []) if isinstance(check.get("data"), dict)), None)
    if data and data.get("fgColor"):  # color-contrast: the colours to change
        target += f" ({data['fgColor']} on {data.get('bgColor')}: {data.get('contrastRatio')}:1)"
    elif data and data.get("contrastRatio"):  # link-in-text-block: the link against the text around it
        target += f" (link against its text: {data['contrastRatio']}:1, no underline)"
    return target


def _axe_summary(violations: list[dict]) -> list[str]:
    lines = []
    for violation in violations:
        targets = [_axe_node(node) for node in violation["nodes"]]
        shown = "\n    ".join(targets[:12]) + (f"\n    (+{len(targets) - 12} more)" if len(targets) > 12 else "")
        lines.append(f"  {violation['impact']} {violation['id']}:\n    {shown}")
    return lines


def _assert_no_serious_axe_violation(page, where: str) -> None:
    from axe_playwright_python.sync_playwright import Axe

    violations = [v for v in Axe().run(page).response["violations"] if v["impact"] in ("serious", "critical")]
    if violations:
        pytest.fail(f"axe on {where}:\n" + "\n".join(_axe_summary(violations)), pytrace=False)


AXE_AS_BUILT = [("en", name) for name in NAMES] + [("fr", "shooting"), ("ru", "melee")]
"""Every calculator's page in English (each has its own fields and results: every kind of field, the
folded occasional inputs, figures, distribution tables, steps), and in French and Russian the two
with the most of them; the other pages are the same template with other words. axe takes one to two
seconds a page, so the 27 pages would cost half a minute for little more."""


@pytest.fixture(scope="module")
def static_pages(browser):
    """Pages as the build wrote them: none of their script files load (Material's and the calculator's),
    so no engine starts. (A context with JavaScript off would not do: axe needs timers to run.)"""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.route("**/*.js", lambda route: route.abort())
    yield context
    context.close()


@pytest.mark.parametrize(("lang", "name"), AXE_AS_BUILT)
def test_calculator_page_as_built_has_no_serious_axe_violation(static_pages, server, lang, name):
    page = static_pages.new_page()
    try:
        page.goto(f"{server}/{_prefix(lang)}calculators/{name}/")
        assert page.locator(".kr-result .kr-figure").count() > 0, "no default result in the built page"
        _assert_no_serious_axe_violation(page, f"{lang}/{name} as built")
    finally:
        page.close()


def test_calculator_page_as_rendered_has_no_serious_axe_violation(pages):
    """What only JavaScript shows, on one page: shooting has every kind of field (number, list, choice,
    checkbox) and of result (figures, a distribution table, steps); the engine's result replaces the
    built one, a second scenario and the difference appear, the steps are open, and one field shows an
    error. The markup is the same script's for every calculator and language (those are checked as
    built above)."""
    page = pages.take("calculators/shooting/")
    try:
        settle(page)
        page.locator(".kr-calc__compare").click()  # both scenarios and their difference on screen
        settle(page, ("1", "2"))
        assert page.locator(".kr-calc__difference").is_visible()
        page.locator('section.kr-result[data-scenario="1"] details.kr-steps summary').click()
        page.locator("#s2-attack").fill("99")  # an inline error and a stale result
        settle(page, ("1", "2"))
        assert page.locator("#s2-attack-error").inner_text().strip()
        _assert_no_serious_axe_violation(page, "en/shooting as rendered")
        assert not page.errors
    finally:
        page.close()


# ---- 6. Phone width ------------------------------------------------------------------------------

TARGET_HEIGHTS = """() => [...document.querySelectorAll(
  ".kr-calc input, .kr-calc select, .kr-calc button, .kr-calc summary")]
  .filter((e) => e.getClientRects().length > 0)
  .map((e) => {
    // a checkbox is tapped through the label around it
    const target = e.type === "checkbox" || e.type === "radio" ? (e.closest("label") || e) : e;
    return [e.id || e.className, target.getBoundingClientRect().height];
  })"""


@pytest.fixture
def phone(browser):
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=3,
        service_workers="block",
    )
    page = context.new_page()
    yield page
    context.close()


def test_shooting_fits_a_phone(phone, server):
    phone.goto(f"{server}/calculators/shooting/")
    settle(phone)
    for situation in ("one scenario", "two scenarios"):
        widths = phone.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert widths[0] <= widths[1] + 1, f"{situation}: sideways scroll (scrollWidth, clientWidth) {widths}"
        heights = phone.evaluate(TARGET_HEIGHTS)
        assert len(heights) >= 10
        small = [(name, round(height, 1)) for name, height in heights if height < 44]
        assert not small, f"{situation}: controls under 44 px tall: {small}"
        if situation == "one scenario":
            phone.locator(".kr-calc__compare").click()
            settle(phone, ("1", "2"))

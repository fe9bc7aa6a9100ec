"""The browser writes the numbers it recomputes as the build does: ``assets/js/numbers.js``, given the
symbols a page carries (:meth:`kensei_ref.numbers.Numbers.symbols`), gives the same text as Babel
through :mod:`kensei_ref.numbers` for the same numbers, in every language, in Debian's Chromium."""

from __future__ import annotations

import re
from fractions import Fraction
from html.parser import HTMLParser

import pytest
from calculator_tabs import CalculatorTabs

from calculators import CALCULATORS
from calculators.presentation import present
from kensei_ref.language_context import language_context
from kensei_ref.languages import LANGUAGES, get_translations
from kensei_ref.numbers import numbers_for
from kensei_ref.site import HERE
from kensei_ref.site.calculator_pages import DEFAULT_SCENARIOS, UI, result_view
from kensei_ref.site.pages import environment

NUMBERS_JS = HERE / "assets" / "js" / "numbers.js"

DECIMALS = [
    0,
    -0.0,
    1,
    -1,
    2.5,
    -2.5,
    0.8996,
    1234.5,
    -1234.5,
    100000,
    1e6,
    0.125,
    0.135,
    2.675,
    1.005,
    -0.001,
    12.345,
    float(Fraction(2, 3)),
    float(Fraction(-7, 6)),
    1e-7,
    123456789.125,
]
"""Halves that round to even (0.125, 2.675 as its shortest text), groups, signs, tiny and large values."""

PROBABILITIES = [
    0,
    1,
    0.6,
    0.125,
    0.0625,
    0.0675,
    0.1235,
    0.0325,
    0.99951,
    0.00049,
    0.0005,
    1e-9,
    -0.05,
    *(float(Fraction(k, 36)) for k in range(37)),
    *(float(Fraction(k, 1000)) for k in range(0, 1001, 7)),
]
"""Dice chances: tenths, thirty-sixths, ties that Babel rounds half to even from the shortest text."""

MODIFIERS = [0, 1, -1, 2, -3, 0.5, -1.5, 0.001, -0.001, 10]

JS_FORMATS = """([symbols, decimals, probabilities, modifiers]) => {
  const numbers = window.krNumbers(symbols);
  return {
    decimal: decimals.map((v) => numbers.decimal(v)),
    decimal0: decimals.map((v) => numbers.decimal(v, 0)),
    figure: decimals.map((v) => numbers.decimal(v, symbols.figure_digits)),
    percent: probabilities.map((v) => numbers.percent(v)),
    percent0: probabilities.map((v) => numbers.percent(v, 0)),
    signed: modifiers.map((v) => numbers.signed(v)),
    quantity: decimals.map((v) => numbers.quantity(v, "cm")),
  };
}"""


def _python(lang: str) -> dict[str, list[str]]:
    numbers = numbers_for(lang)
    return {
        "decimal": [numbers.decimal(v) for v in DECIMALS],
        "decimal0": [numbers.decimal(v, 0) for v in DECIMALS],
        "figure": [numbers.figure(v, "expected") for v in DECIMALS],
        "percent": [numbers.percent(v) for v in PROBABILITIES],
        "percent0": [numbers.percent(v, 0) for v in PROBABILITIES],
        "signed": [numbers.figure(v, "modifier") for v in MODIFIERS],
        "quantity": [numbers.quantity(v, "cm") for v in DECIMALS],
    }


@pytest.fixture(scope="module")
def numbers_page(browser):
    page = browser.new_page()
    page.set_content("<!doctype html><meta charset=utf-8><title>numbers</title>")
    page.add_script_tag(content=NUMBERS_JS.read_text(encoding="utf-8"))
    yield page
    page.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_browser_writes_numbers_as_python_does(numbers_page, lang):
    shown = numbers_page.evaluate(JS_FORMATS, [numbers_for(lang).symbols(), DECIMALS, PROBABILITIES, MODIFIERS])
    expected = _python(lang)
    different = [
        f"{kind}({value!r}): browser {got!r}, Python {want!r}"
        for kind, values in expected.items()
        for value, got, want in zip(
            {"percent": PROBABILITIES, "percent0": PROBABILITIES, "signed": MODIFIERS}.get(kind, DECIMALS),
            shown[kind],
            values,
            strict=True,
        )
        if got != want
    ]
    assert not different, "\n".join(different)


def test_the_pages_own_intl_would_not_do(numbers_page):
    """Why the page does not hand numbers to Intl.NumberFormat in its own language: Chromium's French
    percent and minus are not Babel's, so figures written by the build would change when recomputed."""
    intl = numbers_page.evaluate("""() => new Intl.NumberFormat("fr", {style: "percent"}).format(-0.6)""")
    assert intl != numbers_for("fr").percent(-0.6)


# ---- On a calculator page: what the script writes is what the build writes ----------------------

ENGINE_TIMEOUT = 90_000

RECOMPUTED = {
    "shooting": {"models": 9, "attack": 5, "defense": 4, "armor": 2, "range": "long", "moved": "march"},
    "charge": {"dice": "2d10", "distance": 13},
    "movement": {"unit_type": "cavalry", "penalty_cm": 3, "running": True},
    "morale-states": {"morale": 6, "start": "wavering", "turns": 4},
}
"""Inputs other than the page's default: the figures shown are written by the page's script. Percents
with and without a decimal, expected counts with three, signed modifiers, lengths in centimetres."""

SHOWN_TEXT = """() => document.querySelector('.kr-result[data-scenario="1"]')
  .textContent.replace(/[ \\t\\n\\r]+/g, " ").trim()"""


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def _text_of(markup: str) -> str:
    parser = _Text()
    parser.feed(markup)  # character references become characters, as in the page
    return re.sub(r"[ \t\n\r]+", " ", "".join(parser.parts)).strip(" ")  # no-break spaces stay: they are compared


def _built_text(lang: str, name: str, inputs: dict) -> str:
    """The result's text as the build writes it, for ``inputs`` (the page's template and result view)."""
    tr = get_translations(lang).gettext
    ui = {key: tr(message) for key, message in UI.items()}
    view = result_view(present(name, inputs), language_context(lang), {})
    return _text_of(str(environment(lang).get_template("_calc_result.html.j2").module.body(view, ui)))


@pytest.fixture(scope="module")
def tabs(warm_context, server):
    """One tab per language, taken from calculator to calculator in place (calculator_tabs.py)."""
    opened = CalculatorTabs(warm_context, server, ENGINE_TIMEOUT)
    yield opened
    opened.close()


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", list(RECOMPUTED))
def test_a_recomputed_result_reads_as_the_build_writes_it(tabs, lang, name):
    inputs = DEFAULT_SCENARIOS[name] | RECOMPUTED[name]
    page = tabs.computing(lang, name, inputs)
    assert page.evaluate(SHOWN_TEXT) == _built_text(lang, name, inputs)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_negative_bound_in_a_fields_error_has_the_minus_sign(tabs, lang):
    """The regroup calculator's bonus runs from −10: its error says so as the language writes −10."""
    bonus = next(p for p in CALCULATORS["regroup"].describe()["params"] if p["name"] == "bonus")
    numbers = numbers_for(lang)
    expected = get_translations(lang).gettext(UI["int"]) % {
        "minimum": numbers.decimal(bonus["minimum"], 0),
        "maximum": numbers.decimal(bonus["maximum"], 0),
    }
    page = tabs.showing(lang, "regroup")
    page.locator("#s1-bonus").fill(str(bonus["minimum"] - 10))
    page.wait_for_function("() => document.querySelector('#s1-bonus-error').textContent.trim() !== ''")
    assert page.locator("#s1-bonus-error").inner_text().strip() == expected
    assert "\u2212" in expected and "-" not in expected
    page.locator("#s1-bonus").fill(str(bonus["minimum"]))  # the tab goes on valid
    page.wait_for_function("() => document.querySelector('#s1-bonus-error').textContent.trim() === ''")


def test_a_calculator_page_makes_no_intl_formatter_on_the_way_to_its_figures(browser, server):
    """numbers.js writes a finite number from its digits: Intl's first formatter costs a slow phone about
    60 ms, so none is made while a calculator page loads, reads its form and shows the engine's answer
    (a choice's missing bound, written for an error message nobody saw, once made one on every page)."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block")
    page = context.new_page()
    page.add_init_script(
        """(() => {
             const Real = Intl.NumberFormat;
             window.__krFormatters = 0;
             Intl.NumberFormat = function (...args) { window.__krFormatters += 1; return new Real(...args); };
           })();"""
    )
    page.goto(f"{server}/calculators/shooting/?models=6&wounds_each=1&attack=6&defense=5&armor=3&cover=light")
    page.wait_for_function(
        """() => document.querySelector(".kr-calc")?.dataset.engineState === "ready"
             && document.querySelector('.kr-result[data-scenario="1"]').dataset.state === "fresh" """,
        timeout=120_000,
    )
    page.evaluate("() => document.querySelector('.kr-calc__charts').scrollIntoView()")  # drawn when near
    page.locator(".kr-calc__charts figure").first.wait_for()
    assert page.evaluate("window.__krFormatters") == 0
    context.close()

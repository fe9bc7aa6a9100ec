"""The calculator forms on a narrow screen: occasional inputs fold under "Modifiers and options",
which opens by itself when one of them is set (from a shared link) or holds an error, and is open
on a wide screen. (The numbers the forms give are checked in test_calculator_pages.py.)"""

from __future__ import annotations

import pytest

from kensei_ref.site.calculator_pages import OCCASIONAL

FOLDED = """() => [...document.querySelectorAll('form[data-scenario="1"] details.kr-calc__more')]
  .map((details) => [details.open, [...details.querySelectorAll('[data-param]')].map((f) => f.dataset.param)])"""


@pytest.fixture
def phone(browser):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, service_workers="block"
    )
    page = context.new_page()
    yield page
    context.close()


@pytest.mark.parametrize("name", sorted(OCCASIONAL))
def test_occasional_inputs_fold_on_a_phone(phone, server, name):
    phone.goto(f"{server}/calculators/{name}/")
    folded = phone.evaluate(FOLDED)
    assert folded and not any(is_open for is_open, _ in folded)
    assert {param for _, params in folded for param in params} == OCCASIONAL[name]
    assert (
        phone.locator(
            'form[data-scenario="1"] [data-param] input:visible, form[data-scenario="1"] [data-param] select:visible'
        ).count()
        >= 4
    )


def test_a_link_with_an_occasional_input_opens_its_fold(phone, server):
    phone.goto(f"{server}/ru/calculators/melee/?a_defensive=1&b_models=3")
    folded = dict((tuple(params), is_open) for is_open, params in phone.evaluate(FOLDED))
    assert [is_open for params, is_open in folded.items() if "a_defensive" in params] == [True]
    assert [is_open for params, is_open in folded.items() if "b_defensive" in params] == [False]
    assert phone.locator("#s1-a_defensive").is_visible()


def test_an_error_in_a_folded_input_is_shown(phone, server):
    phone.goto(f"{server}/fr/calculators/shooting/")
    assert not phone.locator("#s1-precision").is_visible()
    phone.evaluate("""() => { const input = document.querySelector('#s1-dice');
      input.value = '999'; input.dispatchEvent(new Event('input', { bubbles: true })); }""")
    phone.wait_for_function("() => document.querySelector('#s1-dice-error').textContent !== ''")
    assert phone.locator("#s1-dice").is_visible() and phone.locator("#s1-dice-error").is_visible()


def test_folds_are_open_on_a_wide_screen(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    page = context.new_page()
    page.goto(f"{server}/calculators/melee/")
    assert all(is_open for is_open, _ in page.evaluate(FOLDED))
    context.close()

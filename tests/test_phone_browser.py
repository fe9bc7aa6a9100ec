"""The site on a phone: glossary terms a tap explains, a glossary whose definitions are on screen, a whole title."""

from __future__ import annotations

import pytest

from kensei_ref.languages import LANGUAGES

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
NO_SERVICE_WORKER = {"service_workers": "block"}
"""Nothing here is about offline use: no service worker saves the site in the background."""


@pytest.fixture
def phone(browser):
    context = browser.new_context(**PHONE, **NO_SERVICE_WORKER)
    page = context.new_page()
    yield page
    context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_tap_shows_the_definition_and_a_second_tap_opens_the_glossary(phone, server, book, lang):
    prefix = "" if lang == "en" else f"{lang}/"
    phone.goto(f"{server}/{prefix}kensei/terrain/")
    term = phone.locator("article a.kr-term").first
    term.scroll_into_view_if_needed()
    term_id = term.get_attribute("href").rsplit("#", 1)[1]
    term.tap()
    popover = phone.locator("#kr-term-popover")
    popover.wait_for(state="visible")
    assert phone.url.endswith(f"{prefix}kensei/terrain/"), "the first tap must not leave the page"
    text = popover.locator(".kr-term-popover__text").inner_text()
    definition = book.term(term_id).definition[lang]
    assert text and text.split()[0] in definition, (text, definition)
    # the definition is as large as the page's text, and fits the screen
    size = float(popover.evaluate("el => getComputedStyle(el).fontSize").removesuffix("px"))
    body = float(phone.locator("article p").first.evaluate("el => getComputedStyle(el).fontSize").removesuffix("px"))
    assert size >= body - 0.5, (size, body)
    box = popover.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    assert term.get_attribute("aria-describedby") == "kr-term-popover"
    term.tap()
    phone.wait_for_url(f"**/{prefix}glossary/#{term_id}")


def test_escape_and_a_tap_elsewhere_close_it(phone, server):
    phone.goto(f"{server}/kensei/terrain/")
    term = phone.locator("article a.kr-term").first
    term.scroll_into_view_if_needed()
    term.tap()
    popover = phone.locator("#kr-term-popover")
    popover.wait_for(state="visible")
    phone.keyboard.press("Escape")
    popover.wait_for(state="hidden")
    term.tap()
    popover.wait_for(state="visible")
    phone.locator("article h1").tap()
    popover.wait_for(state="hidden")


def test_a_mouse_click_still_follows_the_link(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, **NO_SERVICE_WORKER)
    page = context.new_page()
    try:
        page.goto(f"{server}/kensei/terrain/")
        term = page.locator("article a.kr-term").first
        term_id = term.get_attribute("href").rsplit("#", 1)[1]
        term.click()
        page.wait_for_url(f"**/glossary/#{term_id}")
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_glossary_shows_definitions_on_a_phone(phone, server, lang):
    """The reader's language and the definition come first: on a 390 px screen the definition
    starts on screen, and only the table (not the page) scrolls sideways to the other languages."""
    prefix = "" if lang == "en" else f"{lang}/"
    phone.goto(f"{server}/{prefix}glossary/")
    first_row = phone.locator("article table tbody tr").first
    definition = first_row.locator("td").nth(1)
    box = definition.bounding_box()
    assert box["x"] + 100 < 390, box
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_header_title_is_whole_on_a_phone(phone, server, lang):
    prefix = "" if lang == "en" else f"{lang}/"
    phone.goto(f"{server}/{prefix}")
    title = phone.locator(".md-header__title .md-header__topic").first.locator(".md-ellipsis")
    assert title.evaluate("el => el.scrollWidth <= el.clientWidth"), title.inner_text()


def test_a_term_near_the_screens_bottom_shows_its_definition_above_it(phone, server):
    """Scrolling closes the definition, so a term near the bottom of the screen opens it above itself,
    whole on the screen, not below the screen's edge."""
    phone.goto(f"{server}/fr/kensei/ranged-attacks/")
    terms = phone.locator("article a.kr-term")
    tops = terms.evaluate_all("(links) => links.map((link) => link.getBoundingClientRect().top + window.scrollY)")
    term = terms.nth(next(index for index, top in enumerate(tops) if top > 844))  # one the page scrolls to
    # the term's line 30 px from the screen's bottom
    phone.evaluate("(top) => window.scrollBy(0, top)", term.evaluate("el => el.getBoundingClientRect().top") - 844 + 30)
    assert 844 - 40 < term.evaluate("el => el.getBoundingClientRect().top") < 844
    term.tap()
    popover = phone.locator("#kr-term-popover")
    popover.wait_for(state="visible")
    box, under = popover.bounding_box(), term.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 844, box
    assert box["y"] + box["height"] <= under["y"], (box, under)

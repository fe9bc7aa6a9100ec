"""The site in Debian's Chromium: rule pages in each language, the language switch, glossary tooltips."""

from __future__ import annotations

import pytest

from kensei_ref.languages import LANGUAGES

RULE = "kensei.regroup"


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    page = context.new_page()
    yield page
    context.close()


def _chapter_url(book, base: str, lang: str) -> str:
    prefix = "" if lang == "en" else f"{lang}/"
    return f"{base}/{prefix}{book.chapter_of(RULE).page.removesuffix('.md')}/#{RULE}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rule_opens_in_each_language(page, server, book, lang):
    page.goto(_chapter_url(book, server, lang))
    heading = page.locator(f'[id="{RULE}"]')
    assert heading.is_visible()
    assert book.rule(RULE).title[lang] in heading.inner_text()
    assert page.locator("html").get_attribute("lang") == lang


@pytest.mark.parametrize(("start", "target"), list(zip(LANGUAGES, (*LANGUAGES[1:], LANGUAGES[0]), strict=True)))
def test_language_switch_lands_on_the_same_rule(page, server, book, start, target):
    page.goto(_chapter_url(book, server, start))
    page.locator(".md-header__option .md-select").hover()
    page.locator(f'a.kr-language[hreflang="{target}"]').click()
    page.wait_for_load_state("load")
    assert page.url == _chapter_url(book, server, target)
    assert page.locator("html").get_attribute("lang") == target
    assert book.rule(RULE).title[target] in page.locator(f'[id="{RULE}"]').inner_text()


def test_glossary_tooltip_appears_on_hover(page, server, book):
    page.goto(_chapter_url(book, server, "en"))
    term = page.locator(f'[id="{RULE}"] ~ p a[href*="glossary/#"]').first
    term.scroll_into_view_if_needed()
    term.hover()
    tooltip = page.locator(".md-tooltip2--active, .md-tooltip--active").first
    tooltip.wait_for(state="visible", timeout=5000)
    term_id = term.get_attribute("href").split("#")[1]
    definition = book.term(term_id).definition["en"].split()[0]
    assert definition in tooltip.inner_text()

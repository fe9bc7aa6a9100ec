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


SCHEME = """() => ({
  scheme: document.body.getAttribute("data-md-color-scheme"),
  meta: [...document.querySelectorAll("meta[name='color-scheme']")].map((meta) => meta.content),
  shown: [...document.querySelectorAll("form[data-kr-palette] label")].filter((label) => !label.hidden)
    .map((label) => label.getAttribute("for")),
  html: document.documentElement.className,
})"""
"""The page's colours as the reader sees them: the body's scheme, the head's colour-scheme meta (one),
the toggle's one visible button, and the root's classes."""


@pytest.mark.parametrize(("system", "scheme", "other"), [("light", "default", "slate"), ("dark", "slate", "default")])
def test_the_light_dark_toggle_follows_the_system_then_the_readers_choice(browser, server, book, system, scheme, other):
    """First the system's colours; a tap on the toggle switches them, and the choice stays when a page
    opens in place, after a reload and in a new page; Enter on the toggle switches back."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme=system, service_workers="block")
    page = context.new_page()
    try:
        page.goto(_chapter_url(book, server, "en"))
        first = page.evaluate(SCHEME)
        assert first["scheme"] == scheme
        assert first["meta"] == ["dark" if scheme == "slate" else "light"]
        assert len(first["shown"]) == 1
        assert "js" in first["html"].split() and "no-js" not in first["html"].split()

        page.locator(f'form[data-kr-palette] label[for="{first["shown"][0]}"]').click()
        switched = page.evaluate(SCHEME)
        assert switched["scheme"] == other
        assert switched["meta"] == ["light" if scheme == "slate" else "dark"]
        assert switched["shown"] != first["shown"]

        page.evaluate("() => { window.__samePage = true; }")
        page.locator('article a[href*="glossary/#"]').first.click()
        page.wait_for_url("**/glossary/**")
        assert page.evaluate("() => window.__samePage") is True  # opened in place (instant navigation)
        assert page.evaluate(SCHEME)["scheme"] == other
        assert page.evaluate(SCHEME)["shown"] == switched["shown"]
        page.reload()
        assert page.evaluate(SCHEME)["scheme"] == other
        assert page.evaluate(SCHEME)["meta"] == switched["meta"]

        page.locator(f'form[data-kr-palette] input[id="{switched["shown"][0]}"]').focus()
        page.keyboard.press("Enter")
        assert page.evaluate(SCHEME)["scheme"] == scheme
    finally:
        context.close()

"""Accessibility with axe on the pages a player reads at the table, at phone and desktop widths:
no serious or critical violation (the calculator pages have their own axe test)."""

from __future__ import annotations

import re

import pytest

PAGES = [
    "",
    "kensei/terrain/",
    "glossary/",
    "quick-reference/",
    "digest/",
    "calculators/",
    "offline/",
    "clarifications/",
]


def _serious(page) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    violations = Axe().run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
        for v in violations
        if v["impact"] in ("serious", "critical")
    ]


@pytest.fixture(scope="module")
def reader(browser):
    """One context for every language and width, as one reader's browser. No service worker saves the
    site in the background while axe reads (that took most of this test's time on two cores): the
    header's offline indicator as it is once a language is saved is checked by axe in
    test_offline_browser.py."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, service_workers="block")
    yield context
    context.close()


@pytest.mark.parametrize(("lang", "width"), [("en", 390), ("ru", 390), ("es", 390), ("en", 1280)])
def test_reading_pages_have_no_serious_violation(reader, server, lang, width):
    page = reader.new_page()
    page.set_viewport_size({"width": width, "height": 800})
    prefix = "" if lang == "en" else f"{lang}/"
    found = {}
    try:
        for path in PAGES:
            page.goto(f"{server}/{prefix}{path}")
            page.wait_for_load_state("load")
            problems = _serious(page)
            if problems:
                found[path or "/"] = problems
    finally:
        page.close()
    assert not found, found


SEARCH_READY = """() => {
  const meta = document.querySelector(".md-search-result__meta");
  return !!meta && meta.textContent.trim() !== "" && meta.textContent.trim() !== "Initializing search";
}"""


def test_search_results_have_no_serious_violation(browser, server):
    """The result count and the results themselves, as a reader sees them after typing. Nothing saves
    the site in the background here (as in test_search_browser): on a loaded two-core machine the
    results never came within 90 s while the service worker was fetching a language's files."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, service_workers="block")
    page = context.new_page()
    try:
        page.goto(f"{server}/kensei/terrain/")
        # a query typed before Material's search worker has its index is lost on a loaded machine: wait
        # until the result line no longer says the search is starting
        page.wait_for_function(SEARCH_READY, timeout=90_000)
        page.keyboard.press("s")  # Material's search shortcut
        page.keyboard.type("cover")  # as a reader types: Material searches on each key released, not on `fill`
        page.locator(".md-search-result__meta").filter(has_text=re.compile(r"\d")).first.wait_for(timeout=90_000)
        page.locator(".md-search-result__item").first.wait_for(timeout=90_000)
        assert not _serious(page)
    finally:
        context.close()

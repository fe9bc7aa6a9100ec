"""No page of the site throws: every page of the three languages, each language's 404 page at an address
no page has, and the addresses a reader (or a stranger's link) may bring: a search highlight of 100,000
letters. Each page is opened in the run's warm context (the engine restores its saved copy; no service
worker); an uncaught error or a breach of the Content-Security-Policy (its Trusted Types among them: a
``securitypolicyviolation`` event) anywhere fails the test with the page's address."""

from __future__ import annotations

from urllib.parse import unquote

import pytest

from kensei_ref.languages import LANGUAGES, site_folder

SETTLE_MS = 300
"""Milliseconds a page is left to run its scripts after its load event (an error thrown by a script
run later, at the search index's arrival or the engine's answer, is in them)."""
LONGEST_QUERY = 200
"""The longest search query a result's address carries (assets/js/search-highlight.js)."""


VIOLATIONS = """window.__krViolations = [];
document.addEventListener("securitypolicyviolation", (event) => window.__krViolations.push(
  `${event.effectiveDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber} ${event.sample}`));"""
"""Run before each page's own scripts: the policy's violations, kept for _open."""


def _new_page(warm_pages):
    return warm_pages.configured(viewport={"width": 1280, "height": 800}, init_script=VIOLATIONS).new_page()


def _pages(site) -> list[str]:
    """Every page's address from the site's root: ``glossary/``, ``fr/kensei/orders/`` (not the 404 pages)."""
    return sorted(
        "" if path.parent == site else path.parent.relative_to(site).as_posix() + "/"
        for path in site.rglob("index.html")
    )


def _open(page, address: str) -> list[str]:
    page.errors.clear()
    page.goto(address, wait_until="load")
    page.wait_for_timeout(SETTLE_MS)
    return list(page.errors) + [f"policy: {v}" for v in page.evaluate("() => window.__krViolations || []")]


def test_no_page_of_the_site_throws(warm_pages, server, built_site):
    site, _ = built_site
    page = _new_page(warm_pages)
    failures = {path: errors for path in _pages(site) if (errors := _open(page, f"{server}/{path}"))}
    page.close()
    assert not failures, failures


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_missing_page_shows_its_languages_404_page_without_error(warm_pages, server, built_site, lang):
    """As a server answers an address no page has (deploy/kensei-ref.conf: ``error_page 404``), in a
    folder below the language's root, where a relative address from the page would lead nowhere."""
    site, _ = built_site
    missing = f"{server}/{site_folder(lang)}no/such/page/"
    body = (site / site_folder(lang) / "404.html").read_text("utf-8")
    page = _new_page(warm_pages)
    page.route(missing, lambda route: route.fulfill(status=404, content_type="text/html", body=body))
    assert _open(page, missing) == []
    assert page.evaluate("() => window.krRoots.language.href") == f"{server}/{site_folder(lang)}"
    page.close()


def test_a_search_highlight_of_100000_letters_is_dropped_without_error(warm_pages, server, built_site):
    """An address longer than the test's server takes is answered by the test itself with the page."""
    site, _ = built_site
    address = f"{server}/glossary/?h=" + "a" * 100_000
    body = (site / "glossary" / "index.html").read_text("utf-8")
    page = _new_page(warm_pages)
    page.route(f"{server}/glossary/?h=*", lambda route: route.fulfill(content_type="text/html", body=body))
    assert _open(page, address) == []
    assert page.url == f"{server}/glossary/"
    page.close()


def test_a_search_highlight_within_the_bound_is_kept_and_shown(warm_pages, server):
    page = _new_page(warm_pages)
    query = "cover " + "x" * (LONGEST_QUERY - len("cover "))
    assert _open(page, f"{server}/glossary/?h={query}") == []
    page.wait_for_selector("article mark", timeout=30_000)
    assert unquote(page.url).endswith("?h=" + query)
    assert page.locator(".md-search__input").get_attribute("maxlength") == str(LONGEST_QUERY)
    page.close()

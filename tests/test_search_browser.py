"""The site's search in Chromium: the query set finds its rules in the top three, per language."""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest
import yaml

pytestmark = pytest.mark.browser

QUERIES = yaml.safe_load((Path(__file__).resolve().parent / "search_queries.yaml").read_text(encoding="utf-8"))
RULE_PREFIXES = ("#kensei.", "#ronin.")
TARGET_HIT_RATE = 0.90
"""A guard against regressions: lunr's any-word ranking still misses some multi-word queries that the
terminal's search answers, so the browser is below the 95% the terminal reaches (see the test output)."""


WATCH_RESULTS = """() => {
  window.__lastResults = 0;
  window.__lastInput = 0;
  document.querySelector('input.md-search__input')
    .addEventListener('input', () => { window.__lastInput = performance.now(); });
  new MutationObserver(() => { window.__lastResults = performance.now(); })
    .observe(document.querySelector('.md-search-result'), {childList: true, subtree: true, characterData: true});
}"""
SETTLE_MS = 400


def _top_rules(page, query: str) -> tuple[list[str], float]:
    """Type ``query`` in the search box as a player does: the first three rule anchors of the results,
    and the time from the last key to the last change of the results."""
    box = page.locator("input.md-search__input")
    box.press("Control+a")
    box.press("Backspace")
    page.wait_for_function("() => document.querySelectorAll('.md-search-result__list li').length === 0")
    box.press_sequentially(query)
    box.press("End")  # a key event: letters outside the keyboard layout are inserted without one
    page.wait_for_function(f"() => window.__lastResults > window.__lastInput"
                           f" && performance.now() - window.__lastResults > {SETTLE_MS}", polling=50)
    elapsed = page.evaluate("() => window.__lastResults - window.__lastInput") / 1000
    hrefs = page.locator(".md-search-result__list a").evaluate_all("els => els.map(e => e.getAttribute('href'))")
    anchors: list[str] = []
    for href in hrefs:
        anchor = "#" + href.split("#", 1)[1] if "#" in href else ""
        if anchor.startswith(RULE_PREFIXES) and anchor[1:] not in anchors:
            anchors.append(anchor[1:])
    return anchors[:3], elapsed


@pytest.mark.parametrize("lang", ["en", "fr", "ru"])
def test_search_finds_rules_in_the_top_three(browser, server, lang, record_property):
    page = browser.new_page()
    page.goto(f"{server}/{'' if lang == 'en' else lang + '/'}")
    page.locator("input.md-search__input").click()
    # The search is ready when a typed letter gives results; clearing the box then shows the placeholder.
    page.locator("input.md-search__input").press_sequentially("ki")
    page.wait_for_function("() => document.querySelectorAll('.md-search-result__list li').length > 0")
    page.locator("input.md-search__input").press("Control+a")
    page.locator("input.md-search__input").press("Backspace")
    page.wait_for_function("() => document.querySelectorAll('.md-search-result__list li').length === 0")
    page.evaluate(WATCH_RESULTS)
    cases = [q for q in QUERIES if q["lang"] == lang]
    misses, times = [], []
    for case in cases:
        top, elapsed = _top_rules(page, case["query"])
        times.append(elapsed)
        if not set(case["expect"]) <= set(top):
            misses.append(f"{case['query']!r}: expected {case['expect']}, got {top}")
    page.close()
    rate = 1 - len(misses) / len(cases)
    record_property(f"search_{lang}_hit_rate", rate)
    record_property(f"search_{lang}_median_ms", 1000 * statistics.median(times))
    print(f"\n{lang}: {len(cases) - len(misses)}/{len(cases)} in the top three "
          f"({rate:.1%}); median {1000 * statistics.median(times):.0f} ms; misses: {misses}")
    assert len(cases) >= 20
    assert rate >= TARGET_HIT_RATE, "\n".join(misses)

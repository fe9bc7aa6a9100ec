"""The site's search in Chromium: the query set finds its rules in the top three, per language."""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import pytest
import yaml

pytestmark = pytest.mark.browser

QUERIES = yaml.safe_load((Path(__file__).resolve().parent / "search_queries.yaml").read_text(encoding="utf-8"))
RULE_PREFIXES = ("#kensei.", "#ronin.")
TARGET_HIT_RATE = 0.95


def _top_rules(page, query: str) -> tuple[list[str], float]:
    """Type ``query`` in the search box; the first three rule anchors of the results, and the time taken."""
    box = page.locator("input.md-search__input")
    box.fill("")
    page.wait_for_function("() => !document.querySelector('.md-search-result__list li')")
    start = time.perf_counter()
    box.fill(query)
    page.wait_for_function(
        "() => { const m = document.querySelector('.md-search-result__meta');"
        " return m && /\\d/.test(m.textContent) || document.querySelector('.md-search-result__list li'); }"
    )
    elapsed = time.perf_counter() - start
    hrefs = page.locator(".md-search-result__list a").evaluate_all("els => els.map(e => e.getAttribute('href'))")
    anchors = []
    for href in hrefs:
        anchor = "#" + href.split("#", 1)[1] if "#" in href else ""
        if anchor.startswith(RULE_PREFIXES) and anchor[1:] not in anchors:
            anchors.append(anchor[1:])
    return anchors[:3], elapsed


@pytest.mark.parametrize("lang", ["en", "fr", "ru"])
def test_search_finds_rules_in_the_top_three(browser, server, lang, record_property):
    page = browser.new_page()
    page.goto(f"{server}/{'' if lang == 'en' else lang + '/'}")
    page.locator("label.md-search__icon, .md-search__input").first.click()
    page.locator("input.md-search__input").focus()
    page.wait_for_function("() => { const m = document.querySelector('.md-search-result__meta');"
                           " return m && !/Initializ|Инициализ|Initialis/.test(m.textContent); }")
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

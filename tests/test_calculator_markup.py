"""The contracts between the calculator pages' Python and their script, in Debian's Chromium: the
engine says it is ready with the documented event, and a result the browser recomputes has the markup
the build wrote for the same inputs (both come from templates/_calc_result.html.j2), on a page opened
from its address and on one opened in place from another calculator."""

from __future__ import annotations

import re

import pytest
from calculator_tabs import CalculatorTabs, settled

from kensei_ref.languages import TRANSLATED
from kensei_ref.site.calculator_pages import DEFAULT_SCENARIOS, ENGINE_READY_EVENT, RESULT_STATE

ENGINE_TIMEOUT = 90_000
"""Milliseconds allowed for Pyodide to start (several pages may be starting at once on two cores)."""

PAGES = [("en", name) for name in DEFAULT_SCENARIOS] + [
    (lang, name) for lang in TRANSLATED for name in ("shooting", "melee", "movement")
]
"""Every calculator in English; in French and Russian those whose results have a negative number, a
length or a distribution table (what the languages write differently)."""

RECORD_READY = f"""document.addEventListener("{ENGINE_READY_EVENT}",
  (event) => {{ window.__engineReadyEvents = [...(window.__engineReadyEvents || []), event.detail]; }});"""
"""Run before the page's scripts: keeps the detail of every engine-ready event the page fires."""

SECTION = 'section.kr-result[data-scenario="1"]'
RECOMPUTE = f"""() => {{
  const section = document.querySelector('{SECTION}');
  section.replaceChildren();  // what shows next can only be the script's
  window.__krCalc.asked = {{}};  // the page asks once per inputs: forget them, so these are asked again
  window.__krCalc.shownViews = {{}};  // and it writes a view once: forget it, so the answer is written again
  document.querySelector('form[data-scenario="1"]').dispatchEvent(new Event("input", {{ bubbles: true }}));
  return section.getAttribute("{RESULT_STATE}");
}}"""


def normalised(html: str) -> str:
    """The markup with its whitespace normalised (runs of it as one space, none between tags)."""
    return re.sub(r"\s+", " ", re.sub(r">\s+<", "><", html)).strip()


@pytest.fixture(scope="module")
def context(warm_pages):
    return warm_pages.configured(viewport={"width": 1280, "height": 900}, init_script=RECORD_READY)


MARKUP = """(section) => {
  const copy = section.cloneNode(true);
  for (const link of copy.querySelectorAll("[href]")) link.setAttribute("href", link.href);
  return copy.innerHTML;
}"""
"""A result's markup, its links written as the addresses they open: in the page they are absolute once
its scripts have run, in the built file relative, as the template writes them."""

AS_BUILT = f"""async (url) => {{
  const built = new DOMParser().parseFromString(await (await fetch(url)).text(), "text/html");
  return ({MARKUP})(built.querySelector('{SECTION}'));
}}"""
"""The result's markup in the page as the build wrote it (fetched and parsed as the browser parses a
page), before any script could touch it."""


@pytest.fixture(scope="module")
def tabs(context, server):
    opened = CalculatorTabs(context, server, ENGINE_TIMEOUT)
    yield opened
    opened.close()


@pytest.mark.parametrize(("lang", "name"), PAGES)
def test_the_browser_writes_the_builds_result_markup(tabs, lang, name):
    page = tabs.showing(lang, name)
    built = page.evaluate(AS_BUILT, tabs.url(lang, name))
    assert page.evaluate(RECOMPUTE) == "computing", "the same inputs sent no request to the engine"
    page.wait_for_function(settled(name), timeout=ENGINE_TIMEOUT)
    assert page.locator(SECTION).get_attribute(RESULT_STATE) == "fresh"
    rendered = page.locator(SECTION).evaluate(MARKUP)
    assert "<template" not in rendered and "{" not in rendered, rendered[:500]
    assert normalised(rendered) == normalised(built)
    assert not page.errors


@pytest.mark.parametrize("lang", ["en"])
def test_the_engine_says_once_that_it_is_ready(tabs, lang):
    """Once per calculator the tab showed: its first start, then each calculator opened in place."""
    page = tabs.showing(lang, tabs.visited.get(lang, [PAGES[0][1]])[-1])
    events = page.evaluate("window.__engineReadyEvents")
    assert [detail["calculator"] for detail in events] == tabs.visited[lang], events
    first, *later = events
    assert first["reused"] is False and 0 < first["startMs"] <= first["readyAt"]
    assert all(detail["reused"] is True for detail in later), later

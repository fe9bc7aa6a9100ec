"""The contracts between the calculator pages' Python and their script, in Debian's Chromium: the
engine says it is ready with the documented event, and a result the browser recomputes has the markup
the build wrote for the same inputs (both come from templates/_calc_result.html.j2)."""

from __future__ import annotations

import re

import pytest

from kensei_ref.site.calculator_pages import DEFAULT_SCENARIOS, ENGINE_READY_EVENT, ENGINE_STATE, RESULT_STATE

ENGINE_TIMEOUT = 90_000
"""Milliseconds allowed for Pyodide to start (several pages may be starting at once on two cores)."""

PAGES = [("en", name) for name in DEFAULT_SCENARIOS] + [
    (lang, name) for lang in ("fr", "ru") for name in ("shooting", "melee", "movement")
]
"""Every calculator in English; in French and Russian those whose results have a negative number, a
length or a distribution table (what the languages write differently)."""

RECORD_READY = f"""document.addEventListener("{ENGINE_READY_EVENT}",
  (event) => {{ window.__engineReadyEvents = [...(window.__engineReadyEvents || []), event.detail]; }});"""
"""Run before the page's scripts: keeps the detail of every engine-ready event the page fires."""

SECTION = 'section.kr-result[data-scenario="1"]'
SETTLED = f"""() => document.querySelector(".kr-calc")?.getAttribute("{ENGINE_STATE}") === "ready"
  && document.querySelector('{SECTION}').getAttribute("{RESULT_STATE}") === "fresh" """
RECOMPUTE = f"""() => {{
  const section = document.querySelector('{SECTION}');
  section.replaceChildren();  // what shows next can only be the script's
  window.__krCalc.asked = {{}};  // the page asks once per inputs: forget them, so these are asked again
  document.querySelector('form[data-scenario="1"]').dispatchEvent(new Event("input", {{ bubbles: true }}));
  return section.getAttribute("{RESULT_STATE}");
}}"""


def _prefix(lang: str) -> str:
    return "" if lang == "en" else f"{lang}/"


def normalised(html: str) -> str:
    """The markup with its whitespace normalised (runs of it as one space, none between tags)."""
    return re.sub(r"\s+", " ", re.sub(r">\s+<", "><", html)).strip()


@pytest.fixture(scope="module")
def context(warm_pages):
    return warm_pages.configured(viewport={"width": 1280, "height": 900}, init_script=RECORD_READY)


class _Opened:
    """Pages opened two ahead of the test that reads them (their engines start while another page is
    tested), each with its result's markup as built, read before the engine could replace it."""

    AHEAD = 2

    def __init__(self, context, server: str) -> None:
        self.context, self.server = context, server
        self.pages: dict[tuple[str, str], tuple] = {}

    def _open(self, lang: str, name: str) -> None:
        page = self.context.new_page()  # keeps its errors in page.errors
        # the engine's files wait until the built markup is read: a restored engine is quick
        held: list = []
        released = False

        def hold(route) -> None:
            if released:
                route.continue_()
            else:
                held.append(route)

        page.route("**/assets/engine/**", hold)
        page.goto(f"{self.server}/{_prefix(lang)}calculators/{name}/", wait_until="domcontentloaded")
        state = page.locator(".kr-calc").get_attribute(ENGINE_STATE)
        assert state == "loading", f"{lang}/{name}: the engine is {state} before the page was read"
        self.pages[lang, name] = (page, page.locator(SECTION).evaluate("e => e.innerHTML"))
        released = True
        for route in held:
            route.continue_()

    def take(self, lang: str, name: str) -> tuple:
        """The page and its markup as built; starts opening the next pages of :data:`PAGES`."""
        index = PAGES.index((lang, name))
        for key in PAGES[index : index + 1 + self.AHEAD]:
            if key not in self.pages:
                self._open(*key)
        return self.pages[lang, name]

    def close(self) -> None:
        for page, _ in self.pages.values():
            page.close()


@pytest.fixture(scope="module")
def opened(context, server):
    pool = _Opened(context, server)
    yield pool
    pool.close()


@pytest.mark.parametrize(("lang", "name"), PAGES)
def test_the_browser_writes_the_builds_result_markup(opened, lang, name):
    page, built = opened.take(lang, name)
    page.wait_for_function(SETTLED, timeout=ENGINE_TIMEOUT)
    assert page.evaluate(RECOMPUTE) == "computing", "the same inputs sent no request to the engine"
    page.wait_for_function(SETTLED, timeout=ENGINE_TIMEOUT)
    rendered = page.locator(SECTION).evaluate("e => e.innerHTML")
    assert "<template" not in rendered and "{" not in rendered, rendered[:500]
    assert normalised(rendered) == normalised(built)
    assert not page.errors


@pytest.mark.parametrize(("lang", "name"), PAGES[:1])
def test_the_engine_says_once_that_it_is_ready(opened, lang, name):
    page, _ = opened.take(lang, name)
    page.wait_for_function(SETTLED, timeout=ENGINE_TIMEOUT)
    events = page.evaluate("window.__engineReadyEvents")
    assert len(events) == 1, events
    (detail,) = events
    assert detail["calculator"] == name
    assert 0 < detail["startMs"] <= detail["readyAt"]

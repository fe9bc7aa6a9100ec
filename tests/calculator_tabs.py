"""Calculator pages as a reader goes through them: one tab per language, opened at a first calculator
and taken to the next ones in place by a link to their address (navigation.js hands the site's links to
Material's instant navigation), so that the tab's engine starts once and answers every calculator.

For tests that check what a calculator page shows rather than how a page starts: each engine start
costs Chromium about three seconds of processor time on two cores, a calculator opened in place almost
none (``test_engine_navigation_browser.py`` checks that such a calculator answers with the same engine).
"""

from __future__ import annotations

from typing import Any

from kensei_ref.languages import site_folder
from kensei_ref.site.calculator_pages import ENGINE_STATE, RESULT_STATE

OPEN_IN_PLACE = """(address) => {
  const link = Object.assign(document.createElement("a"), { href: address });
  document.body.append(link);
  link.click();
  link.remove();
}"""
"""Follows a link to ``address`` as a reader's tap does: the site's navigation opens it in place."""

SET_FORM = """([scenario, values]) => {
  const form = document.querySelector(`form[data-scenario="${scenario}"]`);
  const params = JSON.parse(document.querySelector(".kr-calc__data").dataset.json).params;
  for (const param of params) {
    const input = form.elements.namedItem(param.name);
    const value = values[param.name];
    if (param.kind === "bool") input.checked = value === true;
    else input.value = value == null ? "" : Array.isArray(value) ? value.join(",") : String(value);
  }
  form.dispatchEvent(new Event("input", { bubbles: true }));
  return document.querySelector(`.kr-result[data-scenario="${scenario}"]`).dataset.state === "computing";
}"""
"""Writes every field of one scenario at once (a field ``values`` leaves out is emptied, a checkbox
unticked) and sends one input event: true when that asked the engine (one request)."""


def settled(name: str) -> str:
    """True once calculator ``name`` is on the page, its engine ready and its first result answered
    (``fresh``, or ``stale`` beside an input the engine refused)."""
    return f"""() => document.querySelector('.kr-calc[data-calculator="{name}"]')?.getAttribute("{ENGINE_STATE}")
      === "ready" && document.querySelector('.kr-result[data-scenario="1"]').getAttribute("{RESULT_STATE}")
      !== "computing" """


class CalculatorTabs:
    """One tab per language in ``context``. ``visited`` lists each tab's calculators in the order they
    were shown (one engine-ready event each)."""

    def __init__(self, context: Any, server: str, timeout_ms: int) -> None:
        self.context, self.server, self.timeout_ms = context, server, timeout_ms
        self.tabs: dict[str, Any] = {}
        self.visited: dict[str, list[str]] = {}

    def url(self, lang: str, name: str) -> str:
        return f"{self.server}/{site_folder(lang)}calculators/{name}/"

    def showing(self, lang: str, name: str, query: str = "") -> Any:
        """The language's tab showing calculator ``name`` (with the inputs of ``query``, a shared link's),
        its engine ready and its result answered: the tab's first calculator is opened from its address,
        the next ones in place, through a link to their address. A page's errors (``page.errors``, when
        it records them) are the ones raised since it was asked for this calculator."""
        address = self.url(lang, name) + (f"?{query}" if query else "")
        page = self.tabs.get(lang)
        # navigation.js leaves a link to the page shown to the browser (a full load, a new engine)
        assert page is None or not query or self.visited[lang][-1] != name, f"{name} is shown already"
        if page is None:
            page = self.tabs[lang] = self.context.new_page()
            page.goto(address)
            self.visited[lang] = [name]
        elif self.visited[lang][-1] != name:
            getattr(page, "errors", []).clear()
            page.evaluate(OPEN_IN_PLACE, address)
            page.wait_for_url(f"**/calculators/{name}/**")
            self.visited[lang].append(name)
        page.wait_for_function(settled(name), timeout=self.timeout_ms)
        return page

    def computing(self, lang: str, name: str, values: dict[str, Any]) -> Any:
        """The tab showing calculator ``name`` with ``values`` written into its form, once the engine has
        answered them."""
        page = self.showing(lang, name)
        assert page.evaluate(SET_FORM, ["1", values]), f"{name}: {values} asked nothing of the engine"
        page.wait_for_function(settled(name), timeout=self.timeout_ms)
        return page

    def close(self) -> None:
        for page in self.tabs.values():
            page.close()

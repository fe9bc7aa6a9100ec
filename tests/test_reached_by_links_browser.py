"""Every kind of page works however a reader reaches it: on a phone, from the home page, by tapping the
site's own links only (the menu, a glossary term, a search result), each page opened in place by
instant navigation, in three languages.

A page opened in place keeps the first page's scripts, its ``__config`` and its head, while the address
changes: anything resolved against the address shown (the engine's folder, once) points into the wrong
folder. So each page is checked for what only works when its scripts found the right addresses: a
calculator's figures equal to CPython's, the advisor's table of two saved units, the saved units
listed, the digest's QR codes, the offline panel, the language links leading to the same page.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from page_errors import recording_errors
from same_numbers import assert_same_numbers

from calculators import CALCULATORS
from kensei_ref.languages import LANGUAGES, get_translations, site_folder
from kensei_ref.site.calculator_pages import DEFAULT_SCENARIOS, ENGINE_STATE, RESULT_STATE
from kensei_ref.site.unit_pickers import STORAGE_KEY

sys.path.insert(0, str(Path(__file__).parent / "calculators"))
from unit_profiles import ARCHERS, SAMURAI, units_file

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
PREFIX = {lang: site_folder(lang) for lang in LANGUAGES}
ENGINE_TIMEOUT = 120_000
"""Milliseconds allowed for a cold start of the engine on a busy machine."""
TAB_MARK = "window.__krSameTab"
"""Set on the first page: still there on every later page only if each was opened in place."""
MATERIAL_CLOSE_MS = 125
"""Material closes the drawer and the search this long after each change of address or target (its
bundle: ``merge(location$, target$).pipe(delay(125))``, the address changing at the tap). A page served
from this machine can arrive sooner than that, and a tap on ☰ made at once is then undone, as it would be
on a phone: so each arrival waits for that close before the next tap."""


@pytest.fixture
def phone(browser):
    """A phone whose device holds two saved units; no service worker saves the site meanwhile."""
    context = browser.new_context(**PHONE, service_workers="block")
    stored = json.dumps(units_file(ARCHERS, SAMURAI))
    context.add_init_script(
        f"if (!window.localStorage.getItem({json.dumps(STORAGE_KEY)})) "
        f"window.localStorage.setItem({json.dumps(STORAGE_KEY)}, {json.dumps(stored)});"
    )
    page = recording_errors(context.new_page())
    page.engine_workers = []
    page.on("worker", lambda worker: page.engine_workers.append(worker.url) if "calc-worker" in worker.url else None)
    yield page
    context.close()


def _leaving(page) -> None:
    """Marks the content shown, so that :func:`_arrived` knows when the next page's has replaced it."""
    page.evaluate("() => document.querySelector('.md-content article').setAttribute('data-kr-left', '')")


def _arrived(page, server: str, path: str) -> None:
    """The address is the page's, its content has replaced the last one's, and it came in place (the
    same tab's scripts: the mark set on the first page is still there)."""
    page.wait_for_url(f"{server}/{path}**")
    page.wait_for_function("() => !document.querySelector('article[data-kr-left]')")
    assert page.evaluate(TAB_MARK) is True, f"{path} was loaded anew, not opened in place"
    # a timer set now, twice Material's delay, fires after the close Material set at the tap
    page.evaluate(f"() => new Promise((done) => setTimeout(done, {2 * MATERIAL_CLOSE_MS}))")


def _open(page, toggle: str) -> None:
    """Taps the header button of one of Material's toggles (the drawer, the search) and waits for it open."""
    page.locator(f'label.md-header__button[for="{toggle}"]').tap()
    page.wait_for_function(f"() => document.getElementById({json.dumps(toggle)}).checked")


def _tap_menu(page, server: str, path: str) -> None:
    """The drawer (☰); back out of the sections the drawer opened on (the current page's), deepest
    first, by each panel's title; then into each section that holds the link; then the link."""
    _open(page, "__drawer")
    drawer = page.locator("nav.md-nav--primary")
    link = drawer.locator(f'a.md-nav__link[href="{server}/{path}"]').first
    wanted = link.evaluate(
        "(a) => [...document.querySelectorAll('nav.md-nav--primary li.md-nav__item--nested')]"
        " .filter((li) => li.contains(a)).map((li) => li.querySelector(':scope > input.md-nav__toggle').id)"
    )
    opened = drawer.evaluate(
        "(nav) => [...nav.querySelectorAll('input.md-nav__toggle:checked')].map((input) => input.id)"
    )
    for toggle in reversed([toggle for toggle in opened if toggle not in wanted]):
        drawer.locator(f'label.md-nav__title[for="{toggle}"]').first.tap()
    for toggle in wanted:
        if toggle not in opened:
            drawer.locator(f'label.md-nav__link[for="{toggle}"]').first.tap()
    _leaving(page)
    link.tap()
    _arrived(page, server, path)


def _check_language_links(page, server: str, lang: str, path: str) -> None:
    """The switcher leads to this very page in each other language (language.js, after each page)."""
    for other, prefix in PREFIX.items():
        if other == lang:
            continue
        href = page.locator(f'a.kr-language[hreflang="{other}"]').first.get_attribute("href")
        assert href and href.split("#")[0] == f"{server}/{prefix}{path}", (other, href)


def _calculator_answers(page, name: str) -> None:
    page.wait_for_function(
        f"""() => {{
          const root = document.querySelector('.kr-calc[data-calculator="{name}"]');
          return !!root && root.getAttribute("{ENGINE_STATE}") === "ready"
            && root.querySelector('.kr-result[data-scenario="1"]').getAttribute("{RESULT_STATE}") === "fresh";
        }}""",
        timeout=ENGINE_TIMEOUT,
    )
    raw = page.locator('section.kr-result[data-scenario="1"]').get_attribute("data-result")
    assert_same_numbers(json.loads(raw), CALCULATORS[name].run(DEFAULT_SCENARIOS[name]))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_kind_of_page_works_when_reached_by_the_sites_own_links(phone, server, book, lang):
    page, prefix = phone, PREFIX[lang]
    gettext = get_translations(lang).gettext
    page.goto(f"{server}/{prefix}")
    page.evaluate(f"{TAB_MARK} = true")

    # home -> a rule chapter, from the menu
    _tap_menu(page, server, f"{prefix}kensei/orders/")
    assert page.locator("article h2[id^='kensei.']").count() > 0
    _check_language_links(page, server, lang, "kensei/orders/")

    # rule -> glossary, by a game term: the first tap explains it, the second opens the glossary
    term = page.locator("article a.kr-term").first
    term.scroll_into_view_if_needed()
    term_id = term.get_attribute("href").rsplit("#", 1)[1]
    term.tap()
    page.locator("#kr-term-popover").wait_for(state="visible")
    _leaving(page)
    term.tap()
    _arrived(page, server, f"{prefix}glossary/")
    assert page.locator(f"article [id='{term_id}']").count() == 1
    _check_language_links(page, server, lang, "glossary/")

    # glossary -> a rule, as a search result
    title = book.rule("kensei.regroup").title[lang]
    _open(page, "__search")
    page.locator("input.md-search__input").fill(title)
    result = page.locator(".md-search-result__link[href*='/kensei/orders/?'][href$='#kensei.regroup']").first
    result.wait_for(state="visible", timeout=30_000)
    _leaving(page)
    result.tap()
    _arrived(page, server, f"{prefix}kensei/orders/")
    assert page.url.endswith("#kensei.regroup"), page.url
    assert page.locator("article h2[id='kensei.regroup']").count() == 1

    # search result -> a calculator, from the menu: its figures are the engine's, equal to CPython's
    _tap_menu(page, server, f"{prefix}calculators/shooting/")
    _calculator_answers(page, "shooting")

    # calculator -> My units: the two saved units are listed
    _tap_menu(page, server, f"{prefix}units/")
    names = page.locator(".kr-units__list .kr-units__name")
    names.first.wait_for()
    assert names.all_inner_texts() == [ARCHERS["name"], SAMURAI["name"]]

    # My units -> the orders advisor: the table of the first two saved units, from the tab's engine
    _tap_menu(page, server, f"{prefix}advisor/")
    page.wait_for_function("() => document.querySelector('.kr-advisor')?.dataset.state === 'fresh'", timeout=30_000)
    assert page.locator(".kr-advisor__table tbody tr").count() > 0
    assert gettext("The calculators' engine could not start in this browser.") not in page.inner_text("article")

    # advisor -> digest: a QR code beside each odds table, leading to this site
    _tap_menu(page, server, f"{prefix}digest/")
    page.locator(".kr-digest__block").first.scroll_into_view_if_needed()  # codes are drawn as they come near
    page.wait_for_function("() => document.querySelectorAll('.kr-digest__block--qr').length > 0")
    first_url = page.locator(".kr-digest__block--qr .kr-digest__url").first.inner_text()
    assert first_url.startswith(f"{server}/{prefix}calculators/"), first_url

    # digest -> offline: the panel says what is saved
    _tap_menu(page, server, f"{prefix}offline/")
    page.wait_for_function("() => document.getElementById('kr-offline-panel')?.dataset.filled === 'true'")

    # offline -> home
    _tap_menu(page, server, prefix)
    _check_language_links(page, server, lang, "")

    # one engine for the tab, in the site's own folder, and no script error on the way
    assert page.engine_workers == [f"{server}/assets/engine/calc-worker.js"], page.engine_workers
    assert page.errors == [], page.errors

"""Offline use in Debian's Chromium: after one visit the site is read, searched and computed with the
server gone and the browser offline; "download everything" adds the other languages; a new build
replaces the cache as a whole, reusing unchanged files; a file whose bytes are not the build's is
never cached.

Each test serves its own copy of the built site from a :class:`SiteServer` it can stop: Playwright's
offline mode does not cover a service worker's own requests, so "offline" here also means that the
server is gone and nothing can be fetched at all.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect
from site_server import SiteServer

from kensei_ref.build import offline
from kensei_ref.languages import LANGUAGES
from kensei_ref.numbers import numbers_for
from kensei_ref.site.calculator_pages import ENGINE_STATE
from kensei_ref.site.offline_page import UI

SAVE_TIMEOUT = 120_000
"""Milliseconds allowed to save a language and the 13 MB engine from loopback on a busy machine."""

READY = "() => document.querySelector('.kr-offline-indicator')?.dataset.state === 'ready'"
CACHES = "async () => (await caches.keys()).filter((name) => name.startsWith('kensei-ref-'))"
CONTROLLED = "() => !!navigator.serviceWorker.controller"
ENGINE_READY = f"() => document.querySelector('.kr-calc')?.getAttribute('{ENGINE_STATE}') === 'ready'"
RECOMPUTED = """(before) => {
  const result = document.querySelector('.kr-result');
  return result.dataset.result && result.dataset.result !== before && result.dataset.state !== 'computing';
}"""


@pytest.fixture
def site_copy(built_site, tmp_path) -> Path:
    site, _ = built_site
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    return copy


@pytest.fixture
def served(site_copy):
    server = SiteServer(site_copy).start()
    yield server
    server.stop()


@pytest.fixture
def context(browser):
    context = browser.new_context()
    yield context
    context.close()


def _visit_once(context, server: SiteServer, path: str = "/kensei/combat/"):
    page = context.new_page()
    page.goto(server.url + path)
    page.wait_for_function(READY, timeout=SAVE_TIMEOUT)
    page.wait_for_function(CONTROLLED)
    return page


def _until(page, script: str, arg=None, timeout_ms: int = 30_000) -> None:
    """Wait until ``script``, which answers with a promise, resolves to true (wait_for_function would
    take the promise itself for true)."""
    for _ in range(timeout_ms // 250):
        if page.evaluate(script, arg):
            return
        page.wait_for_timeout(250)
    pytest.fail(f"not true after {timeout_ms} ms: {script}")


def _go_offline(context, server: SiteServer) -> None:
    server.stop()
    context.set_offline(True)


def _search(page, words: str, expected: str) -> None:
    """Type ``words`` in the search box; wait until a result links to a page whose address has ``expected``."""
    box = page.locator("input.md-search__input")
    box.click()
    box.press_sequentially(words)
    box.press("End")  # a key event: letters outside the keyboard layout are inserted without one
    page.wait_for_function(
        "(expected) => [...document.querySelectorAll('.md-search-result__list a')]"
        ".some((a) => a.getAttribute('href').includes(expected))",
        arg=expected,
        timeout=30_000,
    )


def test_one_visit_then_offline_reads_searches_and_computes(context, served, site_copy):
    page = _visit_once(context, served)
    status = page.evaluate(CACHES)
    assert status == [f"kensei-ref-{offline.read_service_worker(site_copy)['version']}"]
    _go_offline(context, served)

    # Another rule page, never opened before, comes from the cache.
    page.goto(served.url + "/kensei/terrain/")
    assert page.locator("h1").first.inner_text().strip()
    # the indicator learns it is offline from the browser's events: wait for it rather than read it once
    expect(page.locator(".kr-offline-indicator")).to_have_attribute("data-state", "offline")

    # Search: the index, the search worker and lunr's languages are saved too.
    _search(page, "charge", "charging")

    # A calculator: Pyodide starts from the cache and recomputes after a change.
    page.goto(served.url + "/calculators/shooting/")
    page.wait_for_function(ENGINE_READY, timeout=90_000)
    before = page.locator(".kr-result").first.get_attribute("data-result")
    page.locator("form[data-scenario] input[name='attack']").first.fill("3")
    page.wait_for_function(RECOMPUTED, arg=before, timeout=30_000)

    # A language that was not saved says so, in its own words, instead of a browser error page.
    response = page.goto(served.url + "/ru/kensei/terrain/")
    assert response.status == 503
    assert page.locator("h1").inner_text() == _translated("ru", "Not saved for offline use")
    # in the site's look: its header bar in the theme colour, a link a finger can hit
    from kensei_ref.site.offline_page import THEME_COLOUR

    red, green, blue = (int(THEME_COLOUR[i : i + 2], 16) for i in (1, 3, 5))
    bar = page.locator("header").evaluate("el => getComputedStyle(el).backgroundColor")
    assert bar == f"rgb({red}, {green}, {blue})"
    assert page.locator("main a").bounding_box()["height"] >= 44


def _translated(lang: str, message: str) -> str:
    from kensei_ref.languages import get_translations

    return get_translations(lang).gettext(message)


LAYOUT_SHIFTS = """(() => {
  window.__shifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__shifts.push(entry.value);
  }).observe({ type: "layout-shift", buffered: true });
})();"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_offline_panel_fills_in_without_moving_the_page(browser, served, lang):
    """The page is built with the panel's outline (each group's name, room for its size and state), so
    that the worker's status, filled in, moves what follows it by little: a phone's layout shift stays
    under 0.05 (the panel once grew from one paragraph to the whole list, 0.07)."""
    context = browser.new_context(  # Lighthouse's phone, whose slower processor paints the page first
        viewport={"width": 412, "height": 823}, device_scale_factor=1.75, is_mobile=True, has_touch=True
    )
    try:
        page = context.new_page()
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 4})
        page.add_init_script(LAYOUT_SHIFTS)
        prefix = "" if lang == "en" else f"{lang}/"
        page.goto(f"{served.url}/{prefix}offline/")
        built = page.locator("#kr-offline-panel li[data-group]").count()
        page.wait_for_function("() => document.getElementById('kr-offline-panel').dataset.filled === 'true'",
                               timeout=SAVE_TIMEOUT)  # fmt: skip
        page.wait_for_timeout(300)
        shifts = page.evaluate("window.__shifts")
        assert sum(shifts) < 0.05, shifts
        assert page.locator("#kr-offline-panel li[data-group]").count() == built == len(LANGUAGES) + 1
    finally:
        context.close()


def test_download_everything_saves_every_language(context, served, site_copy):
    page = _visit_once(context, served, "/fr/offline/")
    panel = page.locator("#kr-offline-panel")
    page.wait_for_function("() => document.querySelector('.kr-offline-panel__save')")
    items = panel.locator("li[data-group]")
    assert items.count() == len(LANGUAGES) + 1  # each language's pages, and the engine
    saved = panel.locator("li[data-saved='true']").evaluate_all("els => els.map(e => e.dataset.group)")
    assert saved == ["fr", "engine"]
    archive = page.locator("#kr-offline-archive")
    size = offline.read_service_worker(site_copy)["archive"]["bytes"]
    assert archive.get_attribute("href").endswith("/downloads/kensei-ref-offline.zip")
    assert served.url + "/downloads/kensei-ref-offline.zip" == archive.evaluate("a => a.href")
    assert numbers_for("fr").decimal(size / 1e6, 1) in archive.inner_text()  # French decimals

    page.locator(".kr-offline-panel__save").click()
    page.wait_for_function(
        f"() => document.querySelectorAll('#kr-offline-panel li[data-saved=\"true\"]').length === {len(LANGUAGES) + 1}",
        timeout=SAVE_TIMEOUT,
    )
    states = items.evaluate_all("els => els.map(e => e.textContent.split(/\\s:\\s|: /).pop())")
    assert states == [_translated("fr", UI["saved"])] * (len(LANGUAGES) + 1)
    _go_offline(context, served)
    for path in ("/kensei/orders/", "/ru/glossary/", "/fr/calculators/regroup/"):
        response = page.goto(served.url + path)
        assert response.status == 200, path
    page.goto(served.url + "/ru/")
    _search(page, "болотах", "shallow-water")  # Russian, inflected: the Russian index and stemmer are saved


def test_a_failed_save_names_the_page_it_could_not_have(context, served, site_copy):
    """The English home page, whose path in the build's list is empty, changed after the list was made:
    saving English fails, and the message names its address."""
    page = _visit_once(context, served, "/fr/offline/")
    home = site_copy / "index.html"
    home.write_bytes(home.read_bytes().replace(b"</h1>", b" (changed)</h1>", 1))
    page.wait_for_function("() => document.querySelector('.kr-offline-panel__save')")
    page.locator(".kr-offline-panel__save").click()  # every language, English among them
    message = page.locator(".kr-offline-panel__message")
    message.wait_for(timeout=SAVE_TIMEOUT)
    text = message.inner_text()
    assert text.startswith(_translated("fr", UI["failed"])), text
    assert f"({served.url}/: not the bytes of build " in text, text


def test_a_new_build_replaces_the_cache(context, served, site_copy):
    page = _visit_once(context, served)
    old = offline.read_service_worker(site_copy)["version"]
    assert page.evaluate(CACHES) == [f"kensei-ref-{old}"]

    # A new build: one page changes, and the service worker is written again as the build writes it.
    changed = site_copy / "kensei" / "terrain" / "index.html"
    changed.write_text(changed.read_text("utf-8").replace("</h1>", " (build 2)</h1>", 1), encoding="utf-8")
    new = offline.write_service_worker(site_copy, archive=offline.read_service_worker(site_copy)["archive"])["version"]
    assert new != old
    served.requests.clear()
    other = context.new_page()  # a second tab, still on the old build
    other.goto(served.url + "/kensei/orders/")
    other.wait_for_function(CONTROLLED)
    other.evaluate("() => { window.__oldBuild = true; }")

    page.reload()
    with page.expect_navigation(timeout=60_000):  # "Reload" loads the page again, from the new build
        page.locator(".kr-update button").click(timeout=60_000)
    page.wait_for_load_state()
    page.wait_for_function(f"async () => (await caches.keys()).includes('kensei-ref-{new}')")
    # The other tab is not reloaded: it keeps its build, whose cache stays until that tab is closed.
    assert other.evaluate("() => window.__oldBuild") is True
    other.close()
    page.reload()  # the new worker forgets the pages that are gone, and deletes their build's cache
    page.wait_for_function(READY, timeout=SAVE_TIMEOUT)
    _until(page, f"async () => (await ({CACHES})()).join() === 'kensei-ref-{new}'")
    # Unchanged files came from the old cache: the engine was not downloaded again.
    assert not [path for path in served.requests if "/assets/engine/" in path], served.requests
    assert "/kensei/terrain/" in served.requests

    _go_offline(context, served)
    page.goto(served.url + "/kensei/terrain/")
    assert "(build 2)" in page.locator("h1").first.inner_text()
    page.goto(served.url + "/kensei/orders/")
    assert page.locator("h1").first.inner_text().strip()


def test_bytes_of_another_build_are_never_cached(context, served, site_copy):
    page = _visit_once(context, served)
    old = offline.read_service_worker(site_copy)["version"]
    # A deployment caught half-way: the new service worker lists a page whose new bytes are not there yet.
    changed = site_copy / "kensei" / "terrain" / "index.html"
    original = changed.read_bytes()
    changed.write_text(original.decode().replace("</h1>", " (build 2)</h1>", 1), encoding="utf-8")
    offline.write_service_worker(site_copy, archive=offline.read_service_worker(site_copy)["archive"])
    changed.write_bytes(original)
    served.requests.clear()

    page.reload()
    page.evaluate("async () => { await (await navigator.serviceWorker.getRegistration()).update(); }")
    for _ in range(600):  # the new worker's install asks for the changed page
        if "/kensei/terrain/" in served.requests:
            break
        page.wait_for_timeout(100)
    page.wait_for_function(
        "async () => { const reg = await navigator.serviceWorker.getRegistration();"
        " return reg && !reg.installing && !reg.waiting; }",
        timeout=60_000,
    )
    # The new worker was fetched and tried the page, found other bytes, and was dropped.
    assert "/sw.js" in served.requests and "/kensei/terrain/" in served.requests, served.requests
    # A navigation's own update check may try the new worker once more after the first failure; each
    # try drops what it stored, so once no worker is installing, the old cache alone is what stays (a
    # cache of the new build never). Read while no try runs: a try caught half-way has its cache still.
    only_old = (
        "async (old) => { const reg = await navigator.serviceWorker.getRegistration();"
        " if (!reg || reg.installing || reg.waiting) return false;"
        " const names = await (%s)(); return names.length === 1 && names[0] === old; }"
    )
    try:
        page.wait_for_function(only_old % CACHES, arg=f"kensei-ref-{old}", timeout=30_000)
    except PlaywrightTimeout:
        pytest.fail(f"caches once no worker installs: {page.evaluate(CACHES)}, not only kensei-ref-{old}")
    assert not page.locator(".kr-update").count()


def _publish(site_copy: Path, changes: dict[str, tuple[str, str]], *, list_them: bool = True) -> str | None:
    """Changes files of the served copy (path: (old, new) text); with ``list_them``, as a new build
    does (its list and service worker written again: the new version), else as a file tampered with on
    the server (the list unchanged)."""
    for path, (old, new) in changes.items():
        file = site_copy / path
        text = file.read_text("utf-8")
        assert old in text, path
        file.write_text(text.replace(old, new, 1), encoding="utf-8")
    if not list_them:
        return None
    return offline.write_service_worker(site_copy, archive=offline.read_service_worker(site_copy)["archive"])["version"]


NEW_SCRIPT = "window.__krBuild2 = true;\n"
NOT_SHOWN = offline.FALLBACK["refused_title"]
TAKEN_OVER = """async (wanted) => { const reg = await navigator.serviceWorker.getRegistration();
  const names = (await caches.keys()).filter((name) => name.startsWith("kensei-ref-"));
  return !reg.installing && !reg.waiting && names.length === 1 && names[0] === wanted; }"""
"""The new build's worker is the only one, and its cache the only one (its activation deletes the old)."""


def test_a_new_build_under_a_reader_never_mixes_two_builds_on_one_page(context, served, site_copy):
    """The sweep's case: English saved; then a build that changes French pages and a script is published,
    and the reader opens the French glossary, which the old worker has not saved. The old worker never
    serves the new page under its list (nor the new script): it shows that the page was not shown, and
    hands over to the new build, after which the page comes whole from it."""
    page = _visit_once(context, served)
    new = _publish(
        site_copy,
        {
            "fr/glossary/index.html": ("</h1>", " (build 2)</h1>"),
            "fr/assets/js/tables.js": ('"use strict";', '"use strict";' + NEW_SCRIPT),
        },
    )
    page.goto(served.url + "/fr/glossary/")
    if "(build 2)" not in page.locator("h1").first.inner_text():  # unless the new build took over first
        assert page.locator("h1").first.inner_text() == _translated("fr", NOT_SHOWN)
        for _ in range(SAVE_TIMEOUT // 250):  # evaluated, not waited for: its answer is a promise
            if page.evaluate(TAKEN_OVER, f"kensei-ref-{new}"):
                break
            page.wait_for_timeout(250)
        page.goto(served.url + "/fr/glossary/")
    assert "(build 2)" in page.locator("h1").first.inner_text()
    page.wait_for_function("() => window.__krBuild2 === true")
    assert new in page.evaluate(CACHES)[0]


def test_a_file_tampered_with_on_the_server_is_never_served(context, served, site_copy):
    page = _visit_once(context, served)
    _publish(
        site_copy,
        {
            "fr/glossary/index.html": ("</h1>", " (tampered)</h1>"),
            "fr/assets/js/tables.js": ('"use strict";', '"use strict";' + NEW_SCRIPT),
        },
        list_them=False,
    )
    page.goto(served.url + "/fr/glossary/")
    assert page.locator("h1").first.inner_text() == _translated("fr", NOT_SHOWN)
    assert page.locator("a", has_text=_translated("fr", offline.FALLBACK["reload"])).count() == 1
    # the page as built, with the script tampered with: the page shows, the script never runs
    (site_copy / "fr/glossary/index.html").write_bytes(
        (site_copy / "fr/glossary/index.html").read_bytes().replace(b" (tampered)</h1>", b"</h1>")
    )
    page.goto(served.url + "/fr/glossary/")
    assert "(tampered)" not in page.locator("h1").first.inner_text()
    page.wait_for_load_state("load")
    assert page.evaluate("() => window.__krBuild2") is None
    assert page.evaluate("async () => (await fetch('../assets/js/tables.js')).status") == 503


UPDATE_FOUND = "async () => { await (await navigator.serviceWorker.getRegistration()).update(); }"
TEXT_OF = "async (path) => (await fetch(path)).text()"


WHERE_THE_PAGE_IS = """async () => ({
  heading: document.querySelector("h1")?.textContent, offered: !!document.querySelector(".kr-update"),
  controller: navigator.serviceWorker.controller?.state, caches: (await caches.keys()),
  waiting: (await navigator.serviceWorker.getRegistration())?.waiting?.state ?? null,
})"""
"""What a page that did not reach the new build shows, for the failure's message."""


def _wait_for_the_new_build(page) -> None:
    """The page reloaded whole from the new build once its reader pressed "Reload"; if not, the failure
    says where the page is (its heading, the offer, its worker, the caches)."""
    try:
        page.wait_for_function("() => window.__krBuild2 === true", timeout=60_000)
    except PlaywrightTimeout:
        pytest.fail(f"the new build did not load: {page.evaluate(WHERE_THE_PAGE_IS)}")


def test_a_new_build_waits_for_the_reader_in_every_tab(context, served, site_copy):
    """Two tabs of one build, the reader typing in the second; a new build is published. Neither tab
    reloads by itself: both offer the new version. The first accepts it and is loaded whole from the
    new build; the second keeps what was typed and goes on with its own build's files (from the old
    cache, though the server has the new ones) until its reader accepts too."""
    page = _visit_once(context, served)
    old = offline.read_service_worker(site_copy)["version"]
    typing = context.new_page()
    typing.goto(served.url + "/calculators/shooting/")
    typing.wait_for_function(CONTROLLED)
    field = typing.locator("form[data-scenario] input[name='attack']").first
    field.fill("3")
    typing.evaluate("() => { window.__typing = true; }")
    new = _publish(
        site_copy,
        {
            "kensei/combat/index.html": ("</h1>", " (build 2)</h1>"),
            "assets/js/tables.js": ('"use strict";', '"use strict";' + NEW_SCRIPT),
        },
    )
    page.evaluate(UPDATE_FOUND)
    for tab in (page, typing):
        expect(tab.locator(".kr-update")).to_be_visible(timeout=SAVE_TIMEOUT)
    assert "(build 2)" not in page.locator("h1").first.inner_text()
    # a page opened meanwhile is the old build's still, and the old worker keeps the waiting one's cache
    page.reload()
    expect(page.locator(".kr-update")).to_be_visible(timeout=30_000)
    assert "(build 2)" not in page.locator("h1").first.inner_text()
    assert page.evaluate(CACHES) == [f"kensei-ref-{old}", f"kensei-ref-{new}"]

    page.locator(".kr-update button").click()
    _wait_for_the_new_build(page)
    assert "(build 2)" in page.locator("h1").first.inner_text()
    assert page.evaluate(CACHES) == [f"kensei-ref-{old}", f"kensei-ref-{new}"]

    # The tab being typed in: not reloaded, its text there, the offer still shown, its build's files.
    assert typing.evaluate("() => window.__typing") is True
    assert field.input_value() == "3"
    expect(typing.locator(".kr-update")).to_be_visible()
    assert "(build 2)" not in typing.evaluate(TEXT_OF, "/kensei/combat/")
    assert NEW_SCRIPT not in typing.evaluate(TEXT_OF, "/assets/js/tables.js")
    assert typing.evaluate("() => window.__krBuild2") is None

    typing.locator(".kr-update button").click()
    typing.wait_for_function("() => window.__krBuild2 === true", timeout=60_000)
    assert typing.evaluate("() => window.__typing") is None
    assert "(build 2)" in typing.evaluate(TEXT_OF, "/kensei/combat/")
    # no page of the old build is open any more: its cache is deleted
    _until(typing, f"async () => (await ({CACHES})()).join() === 'kensei-ref-{new}'")


WAITING = "async () => !!(await navigator.serviceWorker.getRegistration()).waiting"


def test_the_readers_reload_does_not_wait_for_another_tabs_download(context, served, site_copy):
    """The browser swaps the old worker for the new one only once the old one has answered every
    request of every tab. Another tab downloads a page on a slow network (held by the server) through
    the old worker: the reader's "Reload" still loads the page whole from the new build, within
    seconds, and does not offer it again; the new worker takes over once the download ends."""
    page = _visit_once(context, served)
    old = offline.read_service_worker(site_copy)["version"]
    other = context.new_page()
    other.goto(served.url + "/kensei/orders/")
    other.wait_for_function(CONTROLLED)
    new = _publish(
        site_copy,
        {
            "kensei/combat/index.html": ("</h1>", " (build 2)</h1>"),
            "assets/js/tables.js": ('"use strict";', '"use strict";' + NEW_SCRIPT),
        },
    )
    page.evaluate(UPDATE_FOUND)
    expect(page.locator(".kr-update")).to_be_visible(timeout=SAVE_TIMEOUT)
    slow = served.hold("/fr/glossary/")  # a page of a language not saved: the old worker asks the server
    other.evaluate(
        "() => { window.__download = fetch('/fr/glossary/')"
        ".then(async (response) => { await response.arrayBuffer(); return response.status; }); }"
    )
    for _ in range(100):
        if "/fr/glossary/" in served.requests:
            break
        page.wait_for_timeout(100)

    page.locator(".kr-update button").click()
    _wait_for_the_new_build(page)
    assert "(build 2)" in page.locator("h1").first.inner_text()
    assert page.evaluate(WAITING), "the new worker took over: the download did not hold the old one"
    assert not page.locator(".kr-update").count()  # the page is the new build: nothing to offer
    assert page.evaluate(CACHES) == [f"kensei-ref-{old}", f"kensei-ref-{new}"]

    slow.set()
    assert other.evaluate("() => window.__download") == 200
    _until(page, f"async () => !(await ({WAITING})())")  # the old worker is free: the new one takes over
    page.wait_for_function("() => navigator.serviceWorker.controller?.state === 'activated'")
    expect(other.locator(".kr-update")).to_be_visible()  # the other tab keeps its build and offers the new
    assert not page.locator(".kr-update").count()  # taken over by its own build: still nothing to offer


@pytest.mark.parametrize("path", ["/offline/", "/ru/offline/", "/fr/digest/"])
def test_offline_and_digest_pages_have_no_serious_axe_violation(context, served, path):
    from axe_playwright_python.sync_playwright import Axe

    page = _visit_once(context, served, path)
    if "offline" in path:
        page.wait_for_selector(".kr-offline-panel__save")
    violations = [v for v in Axe().run(page).response["violations"] if v["impact"] in ("serious", "critical")]
    assert not violations, [(v["id"], [n["target"] for n in v["nodes"]][:5]) for v in violations]

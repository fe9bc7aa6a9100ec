"""The calculators' engine starts once per tab: pages of the site open in place (navigation.js hands
Material's instant navigation the site's own links), so a second calculator answers with the engine
the first one started; a page without a calculator starts it while idle once it is saved on the
device, and never downloads it for that.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest
from page_errors import recording_errors
from same_numbers import assert_same_numbers

from calculators import CALCULATORS
from kensei_ref.languages import LANGUAGES, site_folder
from kensei_ref.site.calculator_pages import DEFAULT_SCENARIOS, ENGINE_READY_EVENT, ENGINE_STATE, RESULT_STATE

ENGINE_TIMEOUT = 90_000
WORKER = "assets/engine/calc-worker.js"
SAVED = "() => document.querySelector('.kr-offline-indicator')?.dataset.state === 'ready'"


def settled(name: str) -> str:
    return f"""() => {{
      const root = document.querySelector('.kr-calc[data-calculator="{name}"]');
      return !!root && root.getAttribute("{ENGINE_STATE}") === "ready"
        && root.querySelector('.kr-result[data-scenario="1"]').getAttribute("{RESULT_STATE}") === "fresh";
    }}"""


def shown_result(page):
    raw = page.locator('section.kr-result[data-scenario="1"]').get_attribute("data-result")
    return json.loads(raw)


@pytest.fixture
def context(browser, request):
    """A fresh context (every engine start in it is cold). The service worker only where the test is
    about what it saves on the device (``@pytest.mark.service_worker``); elsewhere it would save the
    language and the engine in the background while the test measures starts."""
    workers = "allow" if request.node.get_closest_marker("service_worker") else "block"
    context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers=workers)
    yield context
    context.close()


@pytest.fixture
def page(context):
    page = recording_errors(context.new_page())
    page.engine_workers = []
    page.on("worker", lambda worker: page.engine_workers.append(worker.url) if WORKER in worker.url else None)
    yield page
    page.close()


def _record_ready_events(page) -> None:
    page.evaluate(f"""() => {{
      window.__readyEvents = [];
      document.addEventListener("{ENGINE_READY_EVENT}", (event) => window.__readyEvents.push(event.detail));
    }}""")


def test_a_second_calculator_answers_without_a_second_start(page, server):
    page.goto(f"{server}/calculators/")
    _record_ready_events(page)
    page.click("article a[href$='calculators/shooting/']")
    page.wait_for_function(settled("shooting"), timeout=ENGINE_TIMEOUT)
    first = page.evaluate("window.__readyEvents[0]")
    assert first["reused"] is False and first["startMs"] > 0
    assert set(first["timings"]) >= {"pyodide", "archive", "import", "files"}

    # the site's own navigation (the drawer's link on a phone) to another calculator
    page.evaluate("""() => [...document.querySelectorAll("a[href$='calculators/melee/']")][0].click()""")
    page.wait_for_function(settled("melee"), timeout=10_000)
    assert page.url.split("?")[0].endswith("/calculators/melee/")
    assert page.evaluate("window.__krEngine.starts") == 1
    assert len(page.engine_workers) == 1, page.engine_workers
    events = page.evaluate("window.__readyEvents")
    assert [event["calculator"] for event in events] == ["shooting", "melee"]
    assert events[1]["reused"] is True
    assert_same_numbers(shown_result(page), CALCULATORS["melee"].run(DEFAULT_SCENARIOS["melee"]))

    # an input changed on the second page is answered by the same engine
    page.fill('form[data-scenario="1"] input[name="a_models"]', "4")
    page.wait_for_function(settled("melee"))
    expected = CALCULATORS["melee"].run({**DEFAULT_SCENARIOS["melee"], "a_models": 4})
    assert_same_numbers(shown_result(page), expected)

    # back to the first calculator: in place again, with the inputs of its address
    page.go_back()
    page.wait_for_function(settled("shooting"), timeout=10_000)
    assert page.evaluate("window.__krEngine.starts") == 1
    assert_same_numbers(shown_result(page), CALCULATORS["shooting"].run(DEFAULT_SCENARIOS["shooting"]))
    assert not page.errors


def test_the_engines_answer_to_the_built_inputs_leaves_the_built_figures_in_place(page, server):
    """The engine's first answer, for the inputs the page was built with, is the build's view: the result
    and its charts are not written again (a slow phone's main thread spent about 130 ms on it); an
    answer to other inputs replaces them."""
    page.add_init_script(
        """document.addEventListener("DOMContentLoaded", () => {
             const section = document.querySelector('.kr-result[data-scenario="1"]');
             if (section) section.firstElementChild.dataset.krBuilt = "";
           });"""
    )
    page.goto(f"{server}/calculators/shooting/")
    page.wait_for_function(settled("shooting"), timeout=ENGINE_TIMEOUT)
    page.evaluate("() => document.querySelector('.kr-calc__charts').scrollIntoView()")  # drawn when near
    page.locator(".kr-calc__charts figure").first.wait_for()
    page.evaluate("""() => { document.querySelector(".kr-calc__charts figure").dataset.krDrawn = ""; }""")
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 200)))")
    assert page.locator('.kr-result[data-scenario="1"] > [data-kr-built]').count() == 1
    assert page.locator(".kr-calc__charts figure[data-kr-drawn]").count() == 1
    assert page.evaluate("window.__krCalc.views['1'] !== undefined"), "the engine answered"
    assert_same_numbers(shown_result(page), CALCULATORS["shooting"].run(DEFAULT_SCENARIOS["shooting"]))

    page.fill('form[data-scenario="1"] input[name="attack"]', "5")
    page.wait_for_function(settled("shooting"))
    assert page.locator('.kr-result[data-scenario="1"] [data-kr-built]').count() == 0
    page.evaluate("() => document.querySelector('.kr-calc__charts').scrollIntoView()")
    page.wait_for_function("() => !document.querySelector('.kr-calc__charts figure[data-kr-drawn]')")
    assert_same_numbers(shown_result(page), CALCULATORS["shooting"].run({**DEFAULT_SCENARIOS["shooting"], "attack": 5}))
    assert not page.errors


def test_a_first_page_says_it_started_its_engine_however_late_its_scripts_come(warm_pages, server):
    """Opened by a link that gives its inputs, the engine starts as the parser meets the calculator
    (engine-start.js), before the page's scripts: when they come after it is ready (a slow link, a busy
    phone), the page still started it itself."""
    page = warm_pages.new_page()  # the run's warm context: an engine restored from its saved snapshot
    held: list = []
    page.route("**/assets/javascripts/bundle.*.min.js", lambda route: held.append(route))  # and the scripts after it
    try:
        page.goto(f"{server}/calculators/regroup/?honor=7", wait_until="commit")
        page.wait_for_function(
            "() => !!window.__krEarly && window.__krEarly.messages.some((event) => event.data.ready)",
            timeout=ENGINE_TIMEOUT,
        )
        _record_ready_events(page)
        for route in held:
            route.continue_()
        page.wait_for_function(settled("regroup"), timeout=ENGINE_TIMEOUT)
        [event] = page.evaluate("window.__readyEvents")
        assert event["reused"] is False, event
        assert page.evaluate("window.__krEngine.starts") == 1
        assert not page.errors
    finally:
        page.close()


@pytest.mark.parametrize("started_by", ["idle", "touch"])
def test_a_page_opened_without_a_links_inputs_starts_its_engine_once_loaded(warm_pages, server, started_by):
    """Its figures are the build's, for the inputs it shows: the engine, whose compile would slow the
    page's own scripts, starts once the page has loaded and is idle, or at the player's first touch of
    the calculator if sooner; its answers follow as ever."""
    page = warm_pages.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    workers: list[float] = []
    page.on("request", lambda request: workers.append(time.monotonic()) if request.url.endswith(WORKER) else None)
    if started_by == "touch":  # a browser never idle: only the touch can start it
        page.add_init_script("window.requestIdleCallback = () => 0;")
    try:
        page.goto(f"{server}/calculators/regroup/", wait_until="domcontentloaded")
        page.wait_for_function("() => document.querySelector('.kr-calc')?.dataset.mounted === '1'")
        assert page.evaluate("window.__krEarly === undefined")
        if started_by == "touch":
            page.wait_for_load_state("load")
            page.wait_for_timeout(500)
            assert page.evaluate("window.__krEngine.starts") == 0 and not workers
            page.locator('form[data-scenario="1"] input[name="honor"]').focus()
            assert page.evaluate("window.__krEngine.starts") == 1, "the first touch starts it"
        page.wait_for_function(settled("regroup"), timeout=ENGINE_TIMEOUT)
        assert page.evaluate("window.__krEngine.starts") == 1
        page.locator('form[data-scenario="1"] input[name="honor"]').fill("8")
        page.wait_for_function(settled("regroup"))
        assert_same_numbers(shown_result(page), CALCULATORS["regroup"].run({"honor": 8}))
        assert len(workers) == 1
        assert not page.errors
    finally:
        page.close()


def test_pages_opened_in_place_keep_the_language_links_and_the_header(page, server):
    page.goto(f"{server}/fr/calculators/")
    page.click("article a[href$='calculators/regroup/']")
    page.wait_for_url("**/fr/calculators/regroup/**")
    page.wait_for_function("() => !!document.querySelector('.kr-calc[data-calculator=\"regroup\"]')")
    links = page.eval_on_selector_all("a.kr-language", "links => links.map((a) => [a.lang, a.href])")
    assert dict(links) == {lang: f"{server}/{site_folder(lang)}calculators/regroup/" for lang in LANGUAGES}
    assert page.title().startswith(page.locator("article h1").inner_text().strip().rstrip("¶").strip())
    assert not page.errors


@pytest.mark.service_worker
def test_a_page_without_calculator_starts_the_saved_engine_when_idle(page, server):
    # a first visit saves this language and the engine on the device (offline.js, sw.js)
    page.goto(f"{server}/calculators/regroup/")
    page.wait_for_function(settled("regroup"), timeout=ENGINE_TIMEOUT)
    page.wait_for_function(SAVED, timeout=ENGINE_TIMEOUT)
    # without the engine's memory snapshot on the device, which the idle start may not download
    page.evaluate("async () => { await caches.delete('kensei-engine-snapshot'); }")

    # a rule page loaded afresh: the engine starts while it is idle, from the device's copy
    network: list[str] = []

    def over_network(response) -> None:
        if "assets/engine/" in response.url and not response.from_service_worker:
            network.append(response.url)

    page.on("response", over_network)
    page.goto(f"{server}/kensei/orders/")
    page.wait_for_function("() => window.__krEngine && window.__krEngine.ready", timeout=ENGINE_TIMEOUT)
    assert page.evaluate("window.__krEngine.starts") == 1
    assert network == [], "the saved engine came from the device"
    assert page.evaluate("window.__krEngine.timings.snapshot") == "none", "a full start: no snapshot downloaded"

    # the calculator opened next from that page answers with it
    _record_ready_events(page)
    page.evaluate("""() => document.querySelector("article a[href*='calculators/regroup/']").click()""")
    page.wait_for_function(settled("regroup"), timeout=10_000)
    assert page.evaluate("window.__readyEvents[0].reused") is True
    assert page.evaluate("window.__krEngine.starts") == 1
    assert not page.errors


def test_a_rule_page_never_downloads_the_engine_for_itself(browser, server):
    """Without the service worker (a browser that has none, or blocked), nothing is saved, so a rule
    page starts no engine and fetches none of its files."""
    context = browser.new_context(service_workers="block")
    try:
        page = context.new_page()
        engine_requests: list[str] = []
        page.on("request", lambda r: engine_requests.append(r.url) if "assets/engine/" in r.url else None)
        page.goto(f"{server}/kensei/orders/")
        page.wait_for_load_state("load")
        page.wait_for_timeout(1500)  # past the idle callback's start
        assert page.evaluate("window.__krEngine.starts") == 0
        assert engine_requests == []
    finally:
        context.close()


SNAPSHOT_SAVED = """async () => {
  const cache = await caches.open("kensei-engine-snapshot");
  return (await cache.keys()).map((request) => request.url);
}"""


def _saved_snapshots(page, timeout_s: float = 60) -> list[str]:
    """The snapshots in Cache Storage, once there is one (the worker saves it after its first start)."""
    deadline = time.monotonic() + timeout_s
    while not (urls := page.evaluate(SNAPSHOT_SAVED)) and time.monotonic() < deadline:
        page.wait_for_timeout(250)
    return urls


LINK = "/calculators/shooting/?models=6&wounds_each=1&attack=6&defense=5&armor=3&cover=light"
LINKED = {"models": 6, "wounds_each": 1, "attack": 6, "defense": 5, "armor": 3, "cover": "light"}


def test_a_first_start_restores_the_builds_snapshot_and_keeps_it(page, server, built_site):
    """A first visit downloads the memory snapshot the build made (Node.js, the same Pyodide), restores
    it instead of starting Pyodide from nothing, answers as Python does, and keeps it for the next start."""
    (built,) = (built_site[0] / "assets" / "engine").glob("snapshot-*.bin")
    page.goto(server + LINK)
    page.wait_for_function(settled("shooting"), timeout=ENGINE_TIMEOUT)
    assert page.evaluate("window.__krEngine.timings.snapshot") == "downloaded"
    assert_same_numbers(shown_result(page), CALCULATORS["shooting"].run(LINKED))
    assert _saved_snapshots(page) == [f"{server}/assets/engine/{built.name}"]
    # its files, not in the snapshot, are unpacked after the first answer; later answers are right too
    page.fill('form[data-scenario="1"] input[name="models"]', "4")
    page.wait_for_function(settled("shooting"))
    assert_same_numbers(shown_result(page), CALCULATORS["shooting"].run({**LINKED, "models": 4}))
    page.reload()
    page.wait_for_function(settled("shooting"), timeout=ENGINE_TIMEOUT)
    assert page.evaluate("window.__krEngine.timings.snapshot") == "restored"
    assert not page.errors


def test_a_later_start_restores_the_engines_snapshot(page, server):
    """Where the build's snapshot cannot be had, the first start is a full one and saves the engine's
    memory; the next restores it and answers the same; a snapshot that cannot be restored is dropped
    and the start is a full one again."""
    link = server + LINK
    expected = CALCULATORS["shooting"].run(LINKED)
    page.route("**/assets/engine/snapshot-*.bin", lambda route: route.fulfill(status=404, body=""))
    page.goto(link)
    page.wait_for_function(settled("shooting"), timeout=ENGINE_TIMEOUT)
    assert page.evaluate("window.__krEngine.timings.snapshot") == "none"
    [saved] = _saved_snapshots(page)
    assert saved.startswith(f"{server}/assets/engine/snapshot-") and saved.endswith(".bin")

    page.reload()
    page.wait_for_function(settled("shooting"), timeout=ENGINE_TIMEOUT)
    assert page.evaluate("window.__krEngine.timings.snapshot") == "restored"
    assert_same_numbers(shown_result(page), expected)
    page.fill('form[data-scenario="1"] input[name="models"]', "4")
    page.wait_for_function(settled("shooting"))
    assert_same_numbers(shown_result(page), CALCULATORS["shooting"].run({**DEFAULT_SCENARIOS["shooting"],
                        "models": 4, "cover": "light"}))  # fmt: skip

    # a damaged snapshot (another engine's memory, a truncated write): a full start, the right figures
    page.evaluate(
        """async (url) => {
      const cache = await caches.open("kensei-engine-snapshot");
      const gzip = new Blob([new Uint8Array(1000)]).stream().pipeThrough(new CompressionStream("gzip"));
      await cache.put(url, new Response(gzip));
    }""",
        saved,
    )
    page.goto(link)
    page.wait_for_function(settled("shooting"), timeout=ENGINE_TIMEOUT)
    assert page.evaluate("window.__krEngine.timings.snapshot") == "none"
    assert_same_numbers(shown_result(page), expected)
    assert not page.errors


ASK_ENGINE = """(request) => {
  const worker = window.__krEngine.worker;
  const id = 1e9;
  worker.addEventListener("message", function seen(event) {
    if (event.data.id !== id) return;
    worker.removeEventListener("message", seen);
    window.__reply = event.data;
  });
  worker.postMessage({ id, request });
}"""
"""Ask the page's engine ``request`` directly; its reply lands in ``window.__reply``."""


def test_a_restored_engine_waits_for_its_files_when_a_question_needs_them(page, server):
    """A restored engine unpacks the calculators' files after its first answer, once their archive has
    come: a question that needs a module not in the snapshot (reading a units file) asked meanwhile
    waits for them, and is answered."""
    sys.path.insert(0, str(Path(__file__).parent / "calculators"))
    from unit_profiles import SAMURAI, units_file

    held: list = []
    page.route(
        "**/assets/engine/calculators.zip", lambda route: held.append(route)
    )  # the archive comes late (a slow link)
    page.goto(server + LINK)
    page.wait_for_function(settled("shooting"), timeout=ENGINE_TIMEOUT)
    assert page.evaluate("window.__krEngine.timings.snapshot") == "downloaded"
    page.evaluate(ASK_ENGINE, {"units": json.dumps(units_file(SAMURAI))})
    page.wait_for_timeout(500)
    assert page.evaluate("window.__reply === undefined"), "answered before its files could be there"
    for route in held:
        route.continue_()
    page.wait_for_function("() => window.__reply !== undefined", timeout=ENGINE_TIMEOUT)
    reply = page.evaluate("window.__reply")
    assert "failed" not in reply, reply["failed"]
    assert [unit["name"] for unit in json.loads(reply["text"])["units"]] == [SAMURAI["name"]]


CRASHING_WORKER = """
// The test's engine: a request for the units "crash" ends as Pyodide's fatal error does, and every
// request after it fails the same way, as a dead interpreter refuses them.
const answerAsBuilt = self.onmessage;
let dead = false;
self.onmessage = (event) => {
  const { id, request } = event.data;
  if (dead || (request && request.units === "crash")) {
    dead = true;
    self.postMessage({ id, failed: "Error: Pyodide has suffered a fatal error. Please report this." });
    return;
  }
  return answerAsBuilt(event);
};
"""


def test_a_request_the_engine_does_not_survive_fails_alone_and_a_new_engine_answers(page, server, built_site):
    """Pyodide's fatal error ends its interpreter for good: the page replaces the worker, the calculator
    computes again with the new one, and the next request is answered."""
    site, _ = built_site
    worker = (site / WORKER).read_text("utf-8") + CRASHING_WORKER
    page.route(f"**/{WORKER}", lambda route: route.fulfill(body=worker, content_type="text/javascript"))
    page.goto(server + LINK)
    page.wait_for_function(settled("shooting"), timeout=ENGINE_TIMEOUT)
    failed = page.evaluate("() => window.krAsk({ units: 'crash' }).then(() => 'answered', (error) => String(error))")
    assert "fatal" in failed
    answer = page.evaluate("() => window.krAsk({ units: '{}' })")
    assert answer["error"]["field"] == "format"  # refused by a living engine, not failed
    assert page.evaluate("[window.__krEngine.starts, window.__krEngine.replaced]") == [2, 1]
    page.fill('form[data-scenario="1"] input[name="models"]', "4")
    page.wait_for_function(settled("shooting"), timeout=ENGINE_TIMEOUT)
    assert_same_numbers(
        shown_result(page),
        CALCULATORS["shooting"].run({**DEFAULT_SCENARIOS["shooting"], "models": 4, "cover": "light"}),
    )
    assert page.get_attribute(".kr-calc", ENGINE_STATE) == "ready"
    assert not page.errors

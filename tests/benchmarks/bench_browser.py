"""Benchmark of the calculator pages in Debian's Chromium: time to numbers, to a ready engine, to a
recomputed result, and the bytes a rule page and a calculator page cost.

Run from the project root, on a built site (``make build``; this script builds nothing)::

    python tests/benchmarks/bench_browser.py [--site site] [--out bench_browser.json] [--repeats 5]
        [--only table_side,engine_start]   (some parts only, printed as JSON)

The site is served from a thread on 127.0.0.1 (no network latency: the times are the browser's own
work). Figures, medians over ``--repeats`` runs unless said otherwise:

- numbers visible: the default result is in the HTML, so it shows at the first contentful paint;
  DOMContentLoaded is given too (both from navigation start, shooting page, cold cache);
- engine ready: the ``readyAt`` of the page's engine-ready event (ms from navigation start; see
  ``calculator_pages.ENGINE_READY_EVENT``) in a new browser context (cold cache) and on a second
  navigation in the same context (warm cache);
- recompute: after each of 10 changes of an input (Attack typed into the form), the time Python took in
  the worker (``lastComputeMs``) and from sending the request to the answer (``lastRoundTripMs``);
- bytes: the response bodies (``Request.sizes()``, as sent, of every request the page and its workers
  made) of a rule page until the network is idle and of a calculator page until its engine is ready,
  and whether the rule page fetched anything of the engine (Pyodide, the worker, calculators.zip);
- a slow phone (4x CPU, 9 Mbps, 150 ms) opening a shared link, through nginx with deploy/ as published
  (the engine's files as the build compressed them), with the median run's breakdown;
- offline: on a first visit of a rule page, the time until the page says "available offline" (the
  service worker has saved that language and the engine), the bytes the server sent in all (the page
  and the service worker) and the storage the site then uses (``navigator.storage.estimate()``); then
  the same after "download everything" on the Offline page (one run: each is minutes of nothing but
  copying on a slow phone, and seconds here).

- plan: the Command phase plan of ``bench_calculators.py``'s warband (10 units, 4 fleeing, against 10
  enemies), opened by its address with the engine saved on the device: the engine's time, from the
  request to the plan on screen (the engine's start from its snapshot in), and from navigation.

Prints a Markdown table and writes the figures as JSON to ``--out``. This file is not collected by
pytest (it is not named ``test_*``).
"""

from __future__ import annotations

import argparse
import base64
import functools
import http.server
import json
import re
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

from kensei_ref.language_context import language_context
from kensei_ref.site.benchmarks_page import machine_text
from kensei_ref.site.calculator_pages import ENGINE_READY_EVENT, ENGINE_STATE, RESULT_STATE

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for the shared launch settings
from bench_calculators import ADVISOR_UNITS, WARBAND_TABLE, WARBAND_UNITS  # the same as the CPython figures
from browser_launch import CHROMIUM, CHROMIUM_ARGS
from machine import this_machine
from nginx_server import Nginx, free_port

CALCULATOR_PAGE = "calculators/shooting/"
RULE_PAGE = "kensei/orders/"
ENGINE_MARKERS = ("pyodide", "calc-worker", "calculators.zip", "/assets/engine/")
SETTLED = f"""() => document.querySelector(".kr-calc").getAttribute("{ENGINE_STATE}") === "ready"
  && document.querySelector('.kr-result[data-scenario="1"]').getAttribute("{RESULT_STATE}") !== "computing" """
RECORD_READY = f"""document.addEventListener("{ENGINE_READY_EVENT}",
  (event) => {{ window.__engineReady = event.detail; }});"""
"""Run before the page's scripts: keeps the detail of the engine-ready event."""
TIMEOUT = 120_000

SHOT = {"attack": 5, "defense": 5, "armor": 3}
MELEE_SIDE = {"attack": 5, "defense": 5, "armor": 3, "initiative": 3}
RECOMPUTE_CASES = [
    # (label, calculator, inputs, the field changed, its two values)
    ("shooting, 10 dice", "shooting", {"dice": 10, **SHOT}, "attack", ("6", "5")),
    ("shooting, 40 dice", "shooting", {"dice": 40, **SHOT}, "attack", ("6", "5")),
    ("melee, 10 v 10 Wounds, Initiative rolled", "melee",
     {f"{side}_{key}": value for side in "ab" for key, value in {"models": 10, "wounds": 10, **MELEE_SIDE}.items()}
     | {"first": "roll"}, "a_attack", ("6", "5")),
]  # fmt: skip
"""The same situations as bench_calculators.py (there timed in CPython)."""


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Serves the site quietly and counts the body bytes it sends, by path."""

    def log_message(self, *args) -> None:
        pass

    def copyfile(self, source, outputfile) -> None:
        sent = 0
        try:
            while chunk := source.read(1 << 16):
                outputfile.write(chunk)
                sent += len(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the browser dropped a download it no longer needs (a page closed mid-transfer)
        self.server.sent.append((self.path, sent))


def serve(site: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Handler, directory=str(site)))
    httpd.sent = []
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"


def median(values: list[float]) -> float:
    return statistics.median(values)


class _Requests:
    """Every request a page (and its workers) made, with its body size once finished."""

    def __init__(self, page) -> None:
        self.finished: list = []
        page.on("requestfinished", lambda request: self.finished.append(request))

    def bytes(self, markers: tuple[str, ...] = ("",)) -> int:
        """The bodies' bytes, of the requests whose address holds one of ``markers`` (all by default)."""
        return sum(
            max(request.sizes()["responseBodySize"], 0)
            for request in self.finished
            if any(marker in request.url for marker in markers)
        )

    def urls(self) -> list[str]:
        return [request.url for request in self.finished]


def paint_times(page) -> dict[str, float]:
    return page.evaluate("""() => {
      const paint = performance.getEntriesByName("first-contentful-paint")[0];
      const nav = performance.getEntriesByType("navigation")[0];
      return { fcp: paint ? paint.startTime : null, dcl: nav.domContentLoadedEventEnd };
    }""")


def measure_loading(browser, base: str, repeats: int) -> dict:
    """Cold and warm engine start, and the paint of the numbers, on the shooting page."""
    fcp, dcl, cold, warm, figures = [], [], [], [], []
    for _ in range(repeats):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.add_init_script(RECORD_READY)
        page = context.new_page()
        page.goto(f"{base}/{CALCULATOR_PAGE}")
        figures.append(page.locator('.kr-result[data-scenario="1"] .kr-figure').count())
        page.wait_for_function(SETTLED, timeout=TIMEOUT)
        times = paint_times(page)
        fcp.append(times["fcp"])
        dcl.append(times["dcl"])
        cold.append(page.evaluate("window.__engineReady.readyAt"))
        page.goto(f"{base}/{RULE_PAGE}")  # leave, then come back: Pyodide's files are in the cache
        page.goto(f"{base}/{CALCULATOR_PAGE}")
        page.wait_for_function(SETTLED, timeout=TIMEOUT)
        warm.append(page.evaluate("window.__engineReady.readyAt"))
        context.close()
    return {
        "first_contentful_paint_ms": median([t for t in fcp if t is not None]) if any(fcp) else None,
        "dom_content_loaded_ms": median(dcl),
        "figures_in_html": min(figures),
        "engine_ready_cold_ms": median(cold),
        "engine_ready_warm_ms": median(warm),
        "engine_ready_cold_runs_ms": cold,
        "engine_ready_warm_runs_ms": warm,
    }


# ---- The engine's start, split, and the figures the table-side use needs -------------------------------

SHARED_LINK = "calculators/shooting/?models=6&wounds_each=1&attack=6&defense=5&armor=3&cover=light"
"""A shared link with inputs of its own (not the page's default): the figures awaited are the engine's."""
SECOND_PAGE = "calculators/melee/"
COMPILE_WASM = """async (url) => {
  const bytes = await (await fetch(url)).arrayBuffer();
  const start = performance.now();
  await WebAssembly.compile(bytes);
  return performance.now() - start;
}"""
"""Compiling Pyodide's WebAssembly from bytes in memory: the compile step alone, no download."""
SHOWN_AT = "() => window.__krCalc.shownAt"
SETTLED_MELEE = f"""() => document.querySelector(".kr-calc[data-calculator=melee]")
  ?.getAttribute("{ENGINE_STATE}") === "ready"
  && document.querySelector('.kr-result[data-scenario="1"]').getAttribute("{RESULT_STATE}") === "fresh" """
"""The second calculator (opened in place) shows its figures: until the page is swapped in, no melee form."""


def _split(timings: dict, compile_ms: float) -> dict:
    """calc-worker.js's timings as the stages of a start: the files' download (the longest fetch; they
    overlap), compiling (measured apart), the interpreter's start (the rest of loadPyodide), the
    project's archive and its import."""
    files = timings["files"]
    download = max((files[name]["ms"] for name in files if name != "calculators.zip"), default=0)
    return {
        "download_ms": download,
        "compile_ms": compile_ms,
        "interpreter_ms": max(timings["pyodide"] - download - compile_ms, 0),
        "archive_ms": timings["archive"],
        "import_ms": timings["import"],
        "total_ms": timings["pyodide"] + timings["archive"] + timings["import"],
    }


BUILD_SNAPSHOT = "**/assets/engine/snapshot-*.bin"
"""The memory snapshot the build made: a first start on a fast link restores it (calc-worker.js)."""


def _without_build_snapshot(page) -> None:
    """The page's engine cannot have the build's snapshot, as on a link the browser names 3G or slower:
    its first start is a full one."""
    page.route(BUILD_SNAPSHOT, lambda route: route.fulfill(status=404, body=""))


def measure_engine_start(browser, base: str, repeats: int) -> dict:
    """The engine's start split into stages: with nothing cached (the build's snapshot downloaded, and
    without it: a full start), and with the browser's caches warm (the engine's files and its snapshot)."""
    stages: dict[str, list[dict]] = {"cold": [], "cold_full": [], "warm": []}
    for _ in range(repeats):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        _without_build_snapshot(page)
        page.goto(f"{base}/{CALCULATOR_PAGE}")
        page.wait_for_function(SETTLED, timeout=TIMEOUT)
        compile_ms = page.evaluate(COMPILE_WASM, f"{base}/assets/engine/pyodide/pyodide.asm.wasm")
        stages["cold_full"].append(_split(page.evaluate("window.__krEngine.timings"), compile_ms))
        context.close()
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.goto(f"{base}/{CALCULATOR_PAGE}")
        page.wait_for_function(SETTLED, timeout=TIMEOUT)
        stages["cold"].append(_split(page.evaluate("window.__krEngine.timings"), compile_ms))
        _wait_for_snapshot(page)
        page.reload()
        page.wait_for_function(SETTLED, timeout=TIMEOUT)
        stages["warm"].append(_split(page.evaluate("window.__krEngine.timings"), compile_ms))
        context.close()
    return {cache: {key: median([run[key] for run in runs]) for key in runs[0]} for cache, runs in stages.items()}


SNAPSHOTS = "async () => (await (await caches.open('kensei-engine-snapshot')).keys()).length"


def _wait_for_snapshot(page) -> None:
    """Until the engine has saved its memory snapshot (calc-worker.js does, after a full start)."""
    deadline = time.monotonic() + TIMEOUT / 1000
    while not page.evaluate(SNAPSHOTS):
        if time.monotonic() > deadline:
            raise SystemExit("the engine saved no snapshot")
        page.wait_for_timeout(200)


def _offline_saved_context(browser, base: str, viewport: dict):
    """A context whose service worker has saved this language and the engine, and whose engine has
    saved its snapshot: a first visit done, as a player's phone after one use."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(f"{base}/{CALCULATOR_PAGE}")
    page.wait_for_function(SETTLED, timeout=TIMEOUT)
    page.wait_for_function(OFFLINE_READY, timeout=TIMEOUT)
    _wait_for_snapshot(page)
    page.close()
    return context


def measure_table_side(browser, base: str, repeats: int, published: str) -> dict:
    """The figures of issue "the answer at the table": a shared link with the engine saved on the
    device, a second calculator opened in place, a cold start (loopback, then 4x CPU slowdown and a
    9 Mbps link; the slow phone's through nginx as published, ``published``) and a recompute until shown."""
    cached, second, recompute = [], [], []
    context = _offline_saved_context(browser, base, {"width": 390, "height": 844})
    for _ in range(repeats):
        page = context.new_page()
        page.goto(f"{base}/{SHARED_LINK}")
        page.wait_for_function(SETTLED, timeout=TIMEOUT)
        cached.append(page.evaluate(SHOWN_AT))
        clicked = page.evaluate(f"""() => {{
          const link = [...document.querySelectorAll("a[href$='{SECOND_PAGE}']")][0];
          const at = performance.now();
          link.click();
          return at;
        }}""")
        page.wait_for_function(SETTLED_MELEE, timeout=TIMEOUT)
        second.append(page.evaluate(SHOWN_AT) - clicked)
        if page.evaluate("window.__krEngine.starts") != 1:
            raise SystemExit("the second calculator started a second engine")
        recompute.append(page.evaluate(RECOMPUTE_UNTIL_SHOWN, "a_attack"))
        page.close()
    context.close()
    return {
        "cached_link_ms": median(cached),
        "second_page_ms": median(second),
        "recompute_shown_ms": median(recompute),
        "cached_link_runs_ms": cached,
        "second_page_runs_ms": second,
        "cold": _cold_start(browser, base, slow=False),
        "cold_full": _cold_start(browser, base, slow=False, build_snapshot=False),
        "cold_slow": _cold_start(browser, base, slow=True),
        "cold_phone": _slow_phone(browser, published, repeats),
    }


def _slow_phone(browser, published: str, repeats: int) -> dict:
    """A slow phone opening a shared link, nothing cached, the site served as published (nginx with
    deploy/, the engine's files as the build compressed them): medians of ``repeats`` runs, and the
    median run's breakdown (when the worker was created, each engine file's download, when the
    snapshot was read and the engine ready, in ms from navigation)."""
    runs = [_cold_start(browser, published, slow=True, latency_ms=150, breakdown=True) for _ in range(repeats)]
    runs.sort(key=lambda run: run["shown_ms"])
    middle = runs[len(runs) // 2]
    return {
        **{key: median([run[key] for run in runs]) for key in ("shown_ms", "inputs_ms", "engine_ready_ms")},
        "snapshot": middle["snapshot"],
        "shown_runs_ms": [run["shown_ms"] for run in runs],
        "breakdown": middle["breakdown"],
    }


RECOMPUTE_UNTIL_SHOWN = """(name) => new Promise((resolve) => {
  const input = document.querySelector(`form[data-scenario="1"] [name="${name}"]`);
  const result = document.querySelector('.kr-result[data-scenario="1"]');
  const start = performance.now();
  const seen = new MutationObserver(() => {
    if (result.dataset.state !== "fresh") return;
    seen.disconnect();
    requestAnimationFrame(() => resolve(performance.now() - start));
  });
  seen.observe(result, { attributes: true, attributeFilter: ["data-state"] });
  input.value = String(Number(input.value) === 6 ? 5 : 6);
  input.dispatchEvent(new Event("input", { bubbles: true }));
})"""
"""From an input's change to its figures painted (the frame after the result turns fresh)."""


BREAKDOWN = """() => {
  const engine = window.__krEngine, timings = engine.timings, created = engine.startedAt;
  const at = (ms) => Math.round(created + ms);
  const files = {};
  for (const [name, file] of Object.entries(timings.files)) {
    files[name] = { start_ms: at(file.start), end_ms: at(file.end), bytes: file.bytes };
  }
  const steps = {};
  for (const [step, ms] of Object.entries(timings.at)) steps[step] = at(ms);
  return { worker_created_ms: Math.round(created), files, steps };
}"""
"""The engine's start in ms from navigation: the worker's creation, each file it fetched (start, end,
bytes sent), its steps (calc-worker.js's timings.at: script, matched, memory, pyodide, ready)."""


def _cold_start(
    browser, base: str, *, slow: bool, build_snapshot: bool = True, latency_ms: int = 40, breakdown: bool = False
) -> dict:
    """Nothing cached: navigation to the shared link's figures on screen, and to its inputs in the form
    (link-inputs.js); slow: 4x CPU slowdown on the page (Chromium's emulation slows the page's thread,
    not the engine's worker) and 9 Mbps with ``latency_ms`` of latency; without the build's snapshot:
    a full start, as on a link the browser names 3G or slower."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block")
    page = context.new_page()
    if not build_snapshot:
        _without_build_snapshot(page)
    if slow:
        cdp = context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
        cdp.send("Network.enable")
        rate = 9e6 / 8
        cdp.send(
            "Network.emulateNetworkConditions",
            {"offline": False, "latency": latency_ms, "downloadThroughput": rate, "uploadThroughput": rate},
        )
    page.goto(f"{base}/{SHARED_LINK}")
    page.wait_for_function(SETTLED, timeout=4 * TIMEOUT)
    figures = {
        "shown_ms": page.evaluate(SHOWN_AT),
        "inputs_ms": page.evaluate("window.__krLinkInputsAt ?? null"),
        "engine_ready_ms": page.evaluate("window.__krEngine.readyAt"),
        "snapshot": page.evaluate("window.__krEngine.timings.snapshot"),
    }
    if breakdown:
        figures["breakdown"] = page.evaluate(BREAKDOWN)
    context.close()
    return figures


TABLE_SCENARIOS = [
    # (what the player wants, calculator, steps: ("type", field, text) or ("choose", field, value))
    ("six archers (1 Wound each) shoot at a unit in light cover", "shooting",
     [("type", "models", "6"), ("choose", "cover", "light")]),
    ("my 8 models (1 Wound each) charge their 6", "melee",
     [("type", "a_wounds", "8"), ("type", "a_models", "8"), ("type", "b_wounds", "6"), ("type", "b_models", "6"),
      ("choose", "a_charge", "infantry")]),
    ("a regroup with Honor 5", "regroup", [("type", "honor", "5")]),
]  # fmt: skip
"""The three table-side questions, as a player enters them on a phone: a tap on a field selects its
value and the digits typed replace it; a choice is two taps and no keystroke."""


def _play(page, steps: list) -> dict:
    keystrokes = taps = 0
    for kind, field, value in steps:
        locator = page.locator(f'form[data-scenario="1"] [name="{field}"]')
        if kind == "type":
            locator.click()
            locator.select_text()
            page.keyboard.type(value)
            keystrokes += len(value)
            taps += 1
        else:
            locator.select_option(value)
            taps += 2
    return {"keystrokes": keystrokes, "taps": taps}


def measure_scenarios(browser, base: str) -> list[dict]:
    """Each table-side question at 390x844 in each language: from opening the calculator page (its
    navigation start) to the figures for the player's inputs on screen, with nothing cached and with
    the engine saved on the device; the keystrokes and taps it took; the figures checked against
    CPython."""
    from same_numbers import assert_same_numbers

    from calculators import CALCULATORS
    from kensei_ref.site.calculator_pages import DEFAULT_SCENARIOS

    rows = []
    saved = _offline_saved_context(browser, base, {"width": 390, "height": 844})
    for label, name, steps in TABLE_SCENARIOS:
        inputs = {**DEFAULT_SCENARIOS[name]}
        for kind, field, value in steps:
            inputs[field] = int(value) if kind == "type" else value
        expected = CALCULATORS[name].run(inputs)
        for lang in ("en", "fr", "ru"):
            prefix = "" if lang == "en" else f"{lang}/"
            times = {}
            for cache in ("cold", "saved"):
                context = saved if cache == "saved" else browser.new_context(viewport={"width": 390, "height": 844})
                page = context.new_page()
                page.goto(f"{base}/{prefix}calculators/{name}/")
                counts = _play(page, steps)
                page.wait_for_function(SETTLED, timeout=TIMEOUT)
                section = page.locator('.kr-result[data-scenario="1"]')
                assert_same_numbers(json.loads(section.get_attribute("data-result")), expected)
                times[cache] = page.evaluate(SHOWN_AT)
                headline = page.locator('.kr-result[data-scenario="1"] .kr-figure').first.inner_text()
                page.close()
                if cache == "cold":
                    context.close()
            rows.append(
                {
                    "question": label,
                    "calculator": name,
                    "lang": lang,
                    **counts,
                    "cold_ms": times["cold"],
                    "saved_ms": times["saved"],
                    "headline": " ".join(headline.split()),
                }
            )
    saved.close()
    return rows


def measure_recompute(browser, base: str, changes: int) -> list[dict]:
    rows = []
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    for label, name, inputs, field, values in RECOMPUTE_CASES:
        page = context.new_page()
        page.goto(f"{base}/calculators/{name}/?{urlencode(inputs)}")
        page.wait_for_function(SETTLED, timeout=TIMEOUT)
        compute, round_trip = [], []
        for i in range(changes):
            page.locator(f"#s1-{field}").fill(values[i % 2])
            page.wait_for_function(SETTLED, timeout=TIMEOUT)
            state = page.evaluate("""() => ({ compute: window.__krCalc.lastComputeMs,
              roundTrip: window.__krCalc.lastRoundTripMs,
              fresh: document.querySelector('.kr-result[data-scenario="1"]').dataset.state === "fresh" })""")
            if not state["fresh"]:
                raise SystemExit(f"{label}: the result is not fresh after a change")
            compute.append(state["compute"])
            round_trip.append(state["roundTrip"])
        rows.append(
            {
                "case": label,
                "calculator": name,
                "changes": changes,
                "compute_ms": median(compute),
                "round_trip_ms": median(round_trip),
                "compute_runs_ms": compute,
                "round_trip_runs_ms": round_trip,
            }
        )
        page.close()
    context.close()
    return rows


ADVICE_FRESH = "() => document.querySelector('.kr-advisor')?.dataset.state === 'fresh'"


def measure_advisor(browser, base: str, changes: int) -> dict:
    """The orders advisor for 10 against 10 models: the engine's time and the time until the table is on
    screen, once the engine is ready, over ``changes`` changes of the distance (8 and 9 cm in turn)."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    stored = json.dumps(ADVISOR_UNITS)
    context.add_init_script(f"window.localStorage.setItem('kensei-ref:units', {json.dumps(stored)});")
    page = context.new_page()
    page.goto(f"{base}/advisor/")
    page.wait_for_function(ADVICE_FRESH, timeout=TIMEOUT)
    page.locator(".kr-advisor details.kr-calc__more > summary").click()
    page.locator("#a-charge_reading").select_option("after-move")
    compute, shown = [], []
    for i in range(changes):
        page.locator("#a-distance").fill(str(8 + i % 2))
        page.wait_for_function(
            f"() => document.querySelector('.kr-advisor').dataset.state === 'fresh'"
            f" && window.__krAdvice.situation.distance === {8 + i % 2}"
            f" && window.__krAdvice.situation.charge_reading === 'after-move'",
            timeout=TIMEOUT,
        )
        figures = page.evaluate("({ compute: window.__krAdvice.computeMs, shown: window.__krAdvice.shownMs })")
        compute.append(figures["compute"])
        shown.append(figures["shown"])
    rows = page.evaluate("window.__krAdvice.advice.rows.length")
    context.close()
    return {"case": "orders advisor, 10 v 10 models", "rows": rows, "changes": changes,
            "compute_ms": median(compute), "shown_ms": median(shown), "compute_runs_ms": compute,
            "shown_runs_ms": shown}  # fmt: skip


def _archers(name: str) -> dict:
    return {"name": name, "game": "kensei", "unit_type": "infantry", "wounds": [5] * 40, "attack": 5, "defense": 5,
            "armor": 3, "initiative": 4, "ranged": True, "loaded": True, "short_range_cm": 8, "range_cm": 20,
            "long_range_cm": 40}  # fmt: skip


def measure_largest_advisor(browser, base: str) -> list[dict]:
    """The orders advisor for the largest units a units file allows (40 models of 5 Wounds on each side,
    9 cm apart), opened by its address, once per reply of the enemy's: the engine's time, and until the
    table is on screen (the engine started by the page, not counted)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    units = json.dumps({"format": "kensei-ref/units", "version": 1, "units": [_archers("mine"), _archers("enemy")]})
    context.add_init_script(f"window.localStorage.setItem('kensei-ref:units', {json.dumps(units)});")
    page = context.new_page()
    found = []
    for reaction in ("shoot", "fight", "best"):
        page.goto(f"{base}/advisor/?mine=mine&enemy=enemy&distance=9&enemy_reaction={reaction}")
        page.wait_for_function(ADVICE_FRESH, timeout=10 * TIMEOUT)
        figures = page.evaluate("({ compute: window.__krAdvice.computeMs, shown: window.__krAdvice.shownMs })")
        found.append({"enemy_reaction": reaction, "compute_ms": figures["compute"], "shown_ms": figures["shown"]})
    context.close()
    return found


PLAN_FRESH = "() => document.querySelector('.kr-plan')?.dataset.state === 'fresh' && window.__krPlan"


def measure_plan(browser, base: str, repeats: int) -> list[dict]:
    """The Command phase plan of bench_calculators.py's warband (10 units, 4 fleeing, against 10 enemies),
    opened by its address with the engine saved on the device, once per objective timed there: the
    engine's time, from the request to the plan on screen, and from navigation to it (medians)."""
    context = _offline_saved_context(browser, base, {"width": 1280, "height": 900})
    units = json.dumps(WARBAND_UNITS)
    context.add_init_script(f"window.localStorage.setItem('kensei-ref:units', {json.dumps(units)});")
    table = base64.urlsafe_b64encode(json.dumps(WARBAND_TABLE).encode()).decode().rstrip("=")
    found = []
    for objective in ("expected_wounds", "victory"):
        runs: dict[str, list[float]] = {"compute_ms": [], "shown_ms": [], "navigation_ms": []}
        for _ in range(repeats):
            page = context.new_page()
            page.goto(f"{base}/plan/?{urlencode({'table': table, 'objective': objective})}")
            page.wait_for_function(PLAN_FRESH, timeout=10 * TIMEOUT)
            figures = page.evaluate("[window.__krPlan.computeMs, window.__krPlan.shownMs, window.__krPlan.shownAt]")
            for key, value in zip(runs, figures, strict=True):
                runs[key].append(value)
            page.close()
        found.append({"objective": objective, **{key: median(values) for key, values in runs.items()},
                      **{key.replace("_ms", "_runs_ms"): values for key, values in runs.items()}})  # fmt: skip
    context.close()
    return found


def measure_bytes(browser, base: str, httpd) -> dict:
    """Bytes of a rule page and of a calculator page, each in a new context (cold cache)."""
    figures = {}
    for key, path, until_ready in (("rule_page", RULE_PAGE, False), ("calculator_page", CALCULATOR_PAGE, True)):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        requests = _Requests(page)
        httpd.sent.clear()
        page.goto(f"{base}/{path}", wait_until="networkidle")
        if until_ready:
            page.wait_for_function(SETTLED, timeout=TIMEOUT)
            page.wait_for_load_state("networkidle")
        served = list(httpd.sent)
        urls = requests.urls()
        engine = [url for url in urls if any(marker in url for marker in ENGINE_MARKERS)]
        figures[key] = {
            "path": path,
            "requests": len(urls),
            "bytes": requests.bytes(),
            "bytes_served": sum(size for _, size in served),
            "engine_requests": [url.removeprefix(base) for url in engine],
            # the same measure as "bytes" (the page's own requests), so that it is a part of it: the server's
            # count also holds what the service worker fetched for offline use
            "engine_bytes": requests.bytes(ENGINE_MARKERS),
            "engine_bytes_served": sum(
                size for served_path, size in served if any(marker in served_path for marker in ENGINE_MARKERS)
            ),
        }
        context.close()
    figures["rule_page_fetched_pyodide"] = bool(figures["rule_page"]["engine_requests"])
    return figures


OFFLINE_READY = "() => document.querySelector('.kr-offline-indicator')?.dataset.state === 'ready'"
ALL_SAVED = "() => document.querySelectorAll('#kr-offline-panel li[data-saved=\"false\"]').length === 0"
USAGE = "async () => (await navigator.storage.estimate()).usage"


def measure_offline(browser, base: str, httpd) -> dict:
    """First visit until saved for offline use, then "download everything": time, bytes sent, storage."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    httpd.sent.clear()
    start = time.perf_counter()
    page.goto(f"{base}/{RULE_PAGE}")
    page.wait_for_function(OFFLINE_READY, timeout=TIMEOUT)
    first = {
        "ms": (time.perf_counter() - start) * 1000,
        "bytes_served": sum(size for _, size in httpd.sent),
        "storage_bytes": page.evaluate(USAGE),
    }
    page.goto(f"{base}/offline/")
    page.wait_for_selector(".kr-offline-panel__save", timeout=TIMEOUT)
    httpd.sent.clear()
    start = time.perf_counter()
    page.locator(".kr-offline-panel__save").click()
    page.wait_for_function(ALL_SAVED, timeout=TIMEOUT)
    everything = {
        "ms": (time.perf_counter() - start) * 1000,
        "bytes_served": sum(size for _, size in httpd.sent),
        "storage_bytes": page.evaluate(USAGE),
    }
    context.close()
    return {"first_visit": first, "everything": everything}


def pyodide_version(site: Path) -> str | None:
    """Pyodide's version (and its Python's), as the engine files state them."""
    engine = site / "assets" / "engine" / "pyodide"
    try:
        version = re.search(r'API\.version="([^"]+)"', (engine / "pyodide.asm.mjs").read_text(encoding="utf-8"))
        python = json.loads((engine / "pyodide-lock.json").read_text(encoding="utf-8"))["info"]["python"]
    except (OSError, KeyError, ValueError):
        return None
    return f"{version.group(1) if version else '?'} (Python {python})"


def print_table(figures: dict) -> None:
    loading, sizes = figures["loading"], figures["bytes"]
    fcp = loading["first_contentful_paint_ms"]
    machine = machine_text(figures["machine"], language_context("en"))
    print(
        f"Chromium {figures['chromium']}, Pyodide {figures['pyodide']}, {machine}; "
        f"medians of {figures['repeats']} runs (recompute: of {figures['changes']} changes).\n"
    )
    print("| figure | value |")
    print("|---|---:|")
    rows = [
        ("navigation → numbers visible (first contentful paint)", "—" if fcp is None else f"{fcp:.0f} ms"),
        ("navigation → DOMContentLoaded", f"{loading['dom_content_loaded_ms']:.0f} ms"),
        ("navigation → engine ready, cold cache", f"{loading['engine_ready_cold_ms']:.0f} ms"),
        ("navigation → engine ready, warm cache", f"{loading['engine_ready_warm_ms']:.0f} ms"),
    ]
    for row in figures["recompute"]:
        rows.append((f"recompute {row['case']}: Python in the worker", f"{row['compute_ms']:.1f} ms"))
        rows.append((f"recompute {row['case']}: request → answer", f"{row['round_trip_ms']:.1f} ms"))
    for key, label in (("rule_page", "rule page"), ("calculator_page", "calculator page until ready")):
        page = sizes[key]
        rows.append(
            (f"bytes, {label} (/{page['path']}, {page['requests']} requests)", f"{page['bytes'] / 1024:,.0f} KiB")
        )
    engine = sizes["calculator_page"]["engine_bytes"]
    rows.append(("of which the engine (calculator page)", f"{engine / 1024:,.0f} KiB"))
    rows.append(("rule page fetched a Pyodide / engine file", "yes" if sizes["rule_page_fetched_pyodide"] else "no"))
    for key, label in (("first_visit", "first visit → available offline"), ("everything", "download everything")):
        step = figures["offline"][key]
        rows.append(
            (
                f"offline: {label}",
                f"{step['ms']:.0f} ms, {step['bytes_served'] / 1e6:.1f} MB sent, "
                f"{step['storage_bytes'] / 1e6:.1f} MB stored",
            )
        )
    for cache, stages in figures["engine_start"].items():
        split = ", ".join(f"{key.removesuffix('_ms')} {value:.0f}" for key, value in stages.items())
        rows.append((f"engine start, {cache} (ms)", split))
    side = figures["table_side"]
    rows += [
        ("engine saved on the device: navigation → a shared link's figures", f"{side['cached_link_ms']:.0f} ms"),
        ("second calculator opened in place: click → its figures", f"{side['second_page_ms']:.0f} ms"),
        ("nothing cached: navigation → a shared link's figures", f"{side['cold']['shown_ms']:.0f} ms"),
        ("the same without the build's snapshot (a full start)", f"{side['cold_full']['shown_ms']:.0f} ms"),
        ("the same, 4x CPU slowdown and 9 Mbps", f"{side['cold_slow']['shown_ms']:.0f} ms"),
        (
            "a slow phone (4x CPU, 9 Mbps, 150 ms): the link's inputs / its figures",
            f"{side['cold_phone']['inputs_ms']:.0f} ms / {side['cold_phone']['shown_ms']:.0f} ms",
        ),
        ("recompute: input changed → figures painted", f"{side['recompute_shown_ms']:.1f} ms"),
    ]
    for row in figures["scenarios"]:
        rows.append(
            (
                f"{row['question']} ({row['lang']}, 390 px): {row['keystrokes']} keystrokes, {row['taps']} taps",
                f"{row['cold_ms']:.0f} ms cold, {row['saved_ms']:.0f} ms saved: {row['headline']}",
            )
        )
    advisor = figures["advisor"]
    rows.append(
        (
            f"orders advisor, 10 v 10 models ({advisor['rows']} orders): engine, then until the table is shown",
            f"{advisor['compute_ms']:.0f} ms, {advisor['shown_ms']:.0f} ms",
        )
    )
    for row in figures.get("largest_advisor", []):
        rows.append(
            (
                f"orders advisor, 40 v 40 models of 5 Wounds, enemy_reaction={row['enemy_reaction']}: engine, shown",
                f"{row['compute_ms']:.0f} ms, {row['shown_ms']:.0f} ms",
            )
        )
    for row in figures.get("plan", []):
        rows.append(
            (
                f"Command phase plan, 10 units (4 fleeing) v 10 enemies, {row['objective']}, engine saved: "
                "engine, shown, from navigation",
                f"{row['compute_ms']:.0f} ms, {row['shown_ms']:.0f} ms, {row['navigation_ms']:.0f} ms",
            )
        )
    for label, value in rows:
        print(f"| {label} | {value} |")


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=Path("site"), help="a built site (default: site/)")
    parser.add_argument("--out", type=Path, help="write the figures as JSON here")
    parser.add_argument("--repeats", type=int, default=5, help="page loads per loading figure (median)")
    parser.add_argument("--changes", type=int, default=10, help="input changes per recompute figure (median)")
    parser.add_argument(
        "--only", help="measure only these parts, comma-separated (loading, recompute, ..., table_side); prints JSON"
    )
    args = parser.parse_args(argv)
    missing = [p for p in (CALCULATOR_PAGE, RULE_PAGE, "assets/engine/") if not (args.site / p).exists()]
    if missing:
        parser.error(f"{args.site} is not a built site with calculators ({', '.join(missing)} missing): run make build")

    httpd, base = serve(args.site.resolve())
    nginx: list[Nginx] = []

    def published() -> str:
        """The site as published (nginx with deploy/), started when a figure first needs it."""
        if not nginx:
            nginx.append(Nginx(args.site.resolve(), free_port(), Path(tempfile.mkdtemp(prefix="bench-nginx-"))).start())
        return nginx[0].url

    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            figures = {
                "measured": time.strftime("%Y-%m-%d"),
                "chromium": browser.version,
                "pyodide": pyodide_version(args.site),
                "machine": this_machine(),
                "repeats": args.repeats,
                "changes": args.changes,
            }
            sections = {
                "loading": lambda: measure_loading(browser, base, args.repeats),
                "recompute": lambda: measure_recompute(browser, base, args.changes),
                "bytes": lambda: measure_bytes(browser, base, httpd),
                "offline": lambda: measure_offline(browser, base, httpd),
                "engine_start": lambda: measure_engine_start(browser, base, args.repeats),
                "table_side": lambda: measure_table_side(browser, base, args.repeats, published()),
                "scenarios": lambda: measure_scenarios(browser, base),
                "advisor": lambda: measure_advisor(browser, base, args.changes),
                "largest_advisor": lambda: measure_largest_advisor(browser, base),
                "plan": lambda: measure_plan(browser, base, args.repeats),
            }
            only = args.only.split(",") if args.only else list(sections)
            unknown = sorted(set(only) - set(sections))
            if unknown:
                parser.error(f"--only: unknown {', '.join(unknown)} (known: {', '.join(sections)})")
            for name in only:
                figures[name] = sections[name]()
            browser.close()
    finally:
        httpd.shutdown()
        for server in nginx:
            server.stop()
            shutil.rmtree(server.runtime, ignore_errors=True)
    if args.out:  # first: the figures took minutes to measure, and are kept whatever the printing does
        args.out.write_text(json.dumps(figures, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    if args.only:
        print(json.dumps(figures, indent=1, ensure_ascii=False))
    else:
        print_table(figures)
    if args.out:
        print(f"\nwrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Shared fixtures: the project root, the real rule data, one built site for all site tests, and the
test tiers.

Tiers are markers set here from the fixtures a test uses (nobody marks a test by hand):

- ``build``: the test uses the built site (``built_site``, ``server`` or any fixture that uses them) or
  builds a site itself; a fixture that builds a site says so by requesting ``builds_site``.
- ``browser``: the test drives Debian's Chromium (``browser`` or a Playwright ``page``/``context``).

``make test-fast`` runs the others (``-m "not build and not browser"``); ``make test`` runs them all.

The real site is built once per test run, in a background thread as soon as the selected tests are
known, so that it builds while the unit tests run (they are ordered first). Under pytest-xdist the
workers share that one build: the first takes a file lock and builds into the run's common temporary
folder, the others wait for it and read the same folder.
"""

from __future__ import annotations

import fcntl
import functools
import http.server
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest
from browser_launch import CHROMIUM, CHROMIUM_ARGS
from page_errors import recording_errors

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_DATA = ROOT / "tests" / "fixtures" / "sample_data"

BUILD_FIXTURES = frozenset({"builds_site", "built_site", "server"})
"""A test that uses one of these (directly or through another fixture) is in the ``build`` tier."""
BROWSER_FIXTURES = frozenset({"browser", "page", "context", "browser_context", "browser_type", "playwright"})
"""A test that uses one of these is in the ``browser`` tier (``page`` and ``context`` also as
pytest-playwright names them; a test parameter of the same name is not a fixture and does not count)."""
TIER_ORDER = {"unit": 0, "build": 1, "browser": 2}
"""Unit tests run first, while the site builds in the background; browser tests last."""
LONGEST_FILES = (
    "test_calculator_pages.py",
    "test_offline_browser.py",
    "test_axe_browser.py",
    "test_search_browser.py",
    "test_engine_navigation_browser.py",
    "test_page_errors_browser.py",
    "test_units_browser.py",
    "test_calculator_view.py",
    "test_numbers_browser.py",
    "test_plurals_browser.py",
)
"""The browser test files that take longest (about 20 to 80 s each in ``make test``), longest first: they
start first in their tier, so that pytest-xdist, which hands each worker the next file once it is
almost done, ends the run with short files on both workers instead of one long file on one of them
(``--dist loadfile``). A scheduling hint only: the other files follow in their own order."""


# ---- Tiers ---------------------------------------------------------------------------------------


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "service_worker: the test's browser context keeps the site's service worker (a test file's "
        "fixture reads it; elsewhere contexts block it)",
    )
    _terminal_of_its_own()


def _terminal_of_its_own() -> None:
    """``kensei-ref`` in the tests (and in the commands they start) keeps its compiled rule book in a
    folder of the test run, never in the user's ``~/.cache``, and speaks English whatever the
    developer's locale (the tests of another language ask for it)."""
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="kensei-ref-test-cache-")
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        os.environ.pop(variable, None)
    os.environ["LANG"] = "C.UTF-8"


def _fixtures(item: pytest.Item) -> set[str]:
    """The fixtures ``item`` uses, through other fixtures too, but not its direct parameters (a test
    parametrised over a ``page`` name is not a browser test)."""
    return set(getattr(item, "fixturenames", ())) - _direct_parameters(item)


def _direct_parameters(item: pytest.Item) -> set[str]:
    names: set[str] = set()
    for mark in item.iter_markers("parametrize"):
        argnames = mark.args[0] if mark.args else mark.kwargs["argnames"]
        if isinstance(argnames, str):
            argnames = [name.strip() for name in argnames.split(",") if name.strip()]
        indirect = mark.args[2] if len(mark.args) > 2 else mark.kwargs.get("indirect", False)
        if indirect is True:
            continue
        names |= set(argnames) - set(indirect or ())
    return names


def tier(item: pytest.Item) -> str:
    if any(item.iter_markers("browser")):
        return "browser"
    if any(item.iter_markers("build")):
        return "build"
    return "unit"


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by marker
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        fixtures = _fixtures(item)
        if fixtures & BUILD_FIXTURES:
            item.add_marker(pytest.mark.build)
        if fixtures & BROWSER_FIXTURES:
            item.add_marker(pytest.mark.browser)
    items.sort(key=_run_order)  # stable: each tier keeps its other files' order


def _run_order(item: pytest.Item) -> tuple[int, int]:
    name = item.path.name
    return TIER_ORDER[tier(item)], LONGEST_FILES.index(name) if name in LONGEST_FILES else len(LONGEST_FILES)


CHROMIUM_MISSING = (
    f"Chromium is missing ({CHROMIUM}): run `sudo apt-get install -y chromium` "
    f"(or `make test-fast` to leave out the build and browser tests)"
)


@pytest.hookimpl(tryfirst=True)  # under pytest-xdist, before the worker reports its collection
def pytest_collection_finish(session: pytest.Session) -> None:
    """Stop at once, in one line, when browser tests are selected and Chromium is missing; start
    building the site when a selected test needs it."""
    tiers = {tier(item) for item in session.items}
    if "browser" in tiers and not os.access(CHROMIUM, os.X_OK):
        if not os.environ.get("PYTEST_XDIST_WORKER"):
            pytest.exit(CHROMIUM_MISSING, returncode=4)
        # an exit in a worker is an internal error of pytest-xdist: the controller stops the run instead
        (_run_folder(session.config) / "chromium-missing").write_text(CHROMIUM_MISSING, encoding="utf-8")
        return
    if tiers & {"build", "browser"} and not session.config.option.collectonly:
        _SharedSite.of(session.config).start()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node, ids) -> None:
    """pytest-xdist's controller, once a worker has collected: stop if it found Chromium missing."""
    missing = _run_folder(node.config) / "chromium-missing"
    if missing.exists():
        pytest.exit(missing.read_text(encoding="utf-8"), returncode=4)


def _run_folder(config: pytest.Config) -> Path:
    """The run's temporary folder: under pytest-xdist each worker has <run>/popen-gwN, and the
    controller <run> itself."""
    base = config._tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


# ---- The built site ------------------------------------------------------------------------------


class _SharedSite:
    """The real site, built once per run by ``mkdocs build --strict`` into the run's temporary folder
    (shared by pytest-xdist's workers), with the build's output beside it."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.site = folder / "site"
        self._lock = folder / "site.lock"
        self._output = folder / "site.output"
        self._status = folder / "site.status"
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None

    @classmethod
    def of(cls, config: pytest.Config) -> _SharedSite:
        shared = getattr(config, "_kensei_site", None)
        if shared is None:
            shared = config._kensei_site = cls(_run_folder(config))
        return shared

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="site-build", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        try:
            self._build_once()
        except BaseException as error:  # re-raised in the test that waits for the site
            self._error = error

    def _build_once(self) -> None:
        with open(self._lock, "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # the first worker builds; the others wait here
            if self._status.exists():
                return
            env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
            result = subprocess.run(
                [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(self.site)],
                cwd=ROOT,
                capture_output=True,
                text=True,
                env=env,
                check=False,
            )
            self._output.write_text(result.stdout + result.stderr, encoding="utf-8")
            self._status.write_text(str(result.returncode), encoding="utf-8")

    def wait(self) -> tuple[Path, str]:
        self.start()
        assert self._thread is not None
        self._thread.join()
        if self._error is not None:
            raise self._error
        output = self._output.read_text(encoding="utf-8")
        assert self._status.read_text(encoding="utf-8") == "0", output
        return self.site, output


@pytest.fixture(scope="session")
def builds_site() -> None:
    """Requested by every fixture that builds the whole site, so that its tests are in the ``build`` tier."""


@pytest.fixture(scope="session")
def book():
    from kensei_ref.rules.loader import load

    return load()


@pytest.fixture(scope="session")
def rendered_pages(book):
    """Every generated page of every language as the site's build writes it (served as folders, without
    the offline copy's link), rendered to a tree: language -> page path -> root element. Rendered once per
    test process for the tests that read the pages' markup without building the site."""
    from page_tree import render

    from kensei_ref.languages import LANGUAGES
    from kensei_ref.site.generate import generated_pages

    return {
        lang: {
            path: render(text)
            for path, text in generated_pages(book, lang, site_url="", directory_urls=True, with_archive=False).items()
            if path.endswith(".md")
        }
        for lang in LANGUAGES
    }


@pytest.fixture(scope="session")
def built_site(builds_site, pytestconfig) -> tuple[Path, str]:
    """The real site, built once per run with ``mkdocs build --strict``: (site directory, build output).
    Tests only read it; a test that changes files works on a copy."""
    return _SharedSite.of(pytestconfig).wait()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        """Keep the test output for the tests."""


@pytest.fixture(scope="session")
def server(built_site):
    site, _ = built_site
    handler = functools.partial(_QuietHandler, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


ENGINE_SNAPSHOT_SAVED = """async () => {
  const cache = await caches.open("kensei-engine-snapshot");
  return (await cache.keys()).length > 0;
}"""


@pytest.fixture(scope="session")
def warm_context(browser, server):
    """One browser context per worker for the calculator tests that only need an engine that answers:
    its engine has started once and saved its memory snapshot (Cache Storage), so each page opened in it
    restores the engine in about a second instead of starting Pyodide from nothing. Service workers are
    blocked: nothing saves the site in the background (the offline tests, the idle start and the policy
    test have contexts of their own with the worker). A test that needs a cold start, a size or a
    scheme of its own makes its own context or sets them on its page."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, service_workers="block")
    page = context.new_page()
    page.goto(f"{server}/calculators/regroup/")
    page.wait_for_function("() => document.querySelector('.kr-calc')?.dataset.engineState === 'ready'", timeout=120_000)
    deadline = time.monotonic() + 60
    while not page.evaluate(ENGINE_SNAPSHOT_SAVED) and time.monotonic() < deadline:
        page.wait_for_timeout(250)
    page.close()
    yield context
    context.close()


class WarmPages:
    """Opens pages in the warm context (:func:`warm_context`) as a test file wants them: its window size
    and a script to run before the page's own. Stands in for a file's own browser context where the
    file only needs an engine that answers, so that its pages restore the saved engine instead of
    starting Pyodide from nothing. Each page keeps the errors it raised in ``page.errors``."""

    def __init__(self, context, viewport: dict[str, int] | None = None, init_script: str | None = None) -> None:
        self.context, self.viewport, self.init_script = context, viewport, init_script

    def configured(self, *, viewport: dict[str, int], init_script: str | None = None) -> WarmPages:
        return WarmPages(self.context, viewport, init_script)

    def new_page(self):
        page = self.context.new_page()
        if self.viewport:
            page.set_viewport_size(self.viewport)
        if self.init_script:
            page.add_init_script(self.init_script)
        return recording_errors(page)


@pytest.fixture(scope="session")
def warm_pages(warm_context) -> WarmPages:
    return WarmPages(warm_context)

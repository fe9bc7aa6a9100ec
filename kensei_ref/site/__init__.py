"""The site's pages, generated from the rule data in the reader's language, and the site's own files.

Everything a page shows is decided here; ``kensei_ref.build`` only hands these files to MkDocs.
The folders below are the site's own front-end code, named once so that the build, the offline
copy and the tests all read the same files.
"""

from functools import cache
from pathlib import Path

HERE = Path(__file__).resolve().parent

TEMPLATES = HERE / "templates"
"""Jinja2 templates of the generated pages."""

OVERRIDES = HERE / "overrides"
"""Material theme overrides (``theme.custom_dir``)."""

ASSETS = HERE / "assets"
"""The site's own CSS, JavaScript and icons, served under ``assets/`` in every language."""

ENGINE_FOLDER = "assets/engine/"
"""Where the calculators' engine (worker, Pyodide, the calculators' archive) lies under the site's
root: once for every language."""

CALC_WORKER = HERE / "engine" / "calc-worker.js"
"""The Web Worker that runs the calculators under Pyodide."""

SNAPSHOT_PAGES = HERE / "engine" / "snapshot-pages.mjs"
"""The stored form of the engine's memory snapshot, read by the worker and written by the build."""

SERVICE_WORKER = HERE / "offline" / "sw.js"
"""The service worker's code; the build writes it at the site's root with the build's file list."""

RECENT_KEY = "kensei-ref:recent"
"""Where the device keeps the player's last calculations (calculator.js writes them, one list per
language, under this key and the language's code; the home page lists them)."""


INLINE_SCRIPTS = ("first-style.js", "search-highlight.js", "engine-start.js", "link-inputs.js")
"""The site's scripts written into the pages that run them rather than fetched: each is needed while the
page is parsed (before the page is first styled, before Material's bundle, the engine's start, a shared
link's inputs), where fetching it would hold the parser one round trip (150 ms and more on a phone's
link). The Content-Security-Policy names each by its hash, as Material's own inline scripts
(kensei_ref/build/csp.py)."""


@cache
def inline_script(name: str) -> str:
    """One of :data:`INLINE_SCRIPTS` (``assets/js/``) as a page carries it: its lines of code, without
    its comment lines or blank ones (a blank line would end a Markdown page's HTML block)."""
    if name not in INLINE_SCRIPTS:
        raise ValueError(f"{name} is not one of the scripts written into pages")
    lines = (ASSETS / "js" / name).read_text(encoding="utf-8").splitlines()
    return "\n".join(line for line in lines if line.strip() and not line.lstrip().startswith("//"))

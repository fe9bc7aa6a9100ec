"""The site's pages, generated from the rule data in the reader's language, and the site's own files.

Everything a page shows is decided here; ``kensei_ref.build`` only hands these files to MkDocs.
The folders below are the site's own front-end code, named once so that the build, the offline
copy and the tests all read the same files.
"""

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

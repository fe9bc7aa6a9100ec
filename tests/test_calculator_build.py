"""The calculator pages as built (no browser): default results written into the HTML are CPython's, the
engine is installed once at the site's root, and no page other than a calculator loads it."""

from __future__ import annotations

import gzip
import html as html_lib
import json
import re
import zipfile
from html.parser import HTMLParser
from pathlib import Path

import pytest
from same_numbers import assert_same_numbers

from calculators import CALCULATORS
from kensei_ref.build import engine
from kensei_ref.build.engine import PYODIDE_FILES
from kensei_ref.languages import LANGUAGES, TRANSLATED, site_folder
from kensei_ref.site.calculator_pages import DEFAULT_SCENARIOS

LANG_ROOTS = {lang: site_folder(lang).rstrip("/") for lang in LANGUAGES}
ENGINE_FILES = (
    "calc-worker.js",
    "calculators.zip",
    "snapshot-pages.mjs",
    "stdlib-later.zip",
    *(f"pyodide/{n}" for n in PYODIDE_FILES),
)
ENGINE_REFERENCE = re.compile(r"pyodide|calc-worker|calculators\.zip|assets/engine", re.IGNORECASE)
OFFLINE_SETTINGS = re.compile(r'<script type="application/json" id="kr-offline">(.*?)</script>', re.DOTALL)


class _Page(HTMLParser):
    """The first ``.kr-result`` and ``.kr-calc`` of a page, and every URL it would fetch."""

    def __init__(self) -> None:
        super().__init__()
        self.result: dict[str, str | None] | None = None
        self.calc: dict[str, str | None] | None = None
        self.fetches: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        classes = (values.get("class") or "").split()
        if "kr-result" in classes and self.result is None:
            self.result = values
        if "kr-calc" in classes and self.calc is None:
            self.calc = values
        if values.get("src"):
            self.fetches.append(values["src"])
        if tag == "link" and values.get("href"):
            self.fetches.append(values["href"])


def _parse(path: Path) -> _Page:
    parser = _Page()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


@pytest.mark.parametrize("lang", LANG_ROOTS)
@pytest.mark.parametrize("name", DEFAULT_SCENARIOS)
def test_default_result_in_the_html_is_cpythons(built_site, lang, name):
    site, _ = built_site
    page = _parse(site / LANG_ROOTS[lang] / "calculators" / name / "index.html")
    assert page.result is not None, "no .kr-result in the page"
    assert page.result.get("data-scenario") == "1"
    assert page.result.get("data-state") == "fresh"
    shown = json.loads(page.result["data-result"] or "null")
    assert_same_numbers(shown, CALCULATORS[name].run(DEFAULT_SCENARIOS[name]))


@pytest.mark.parametrize("lang", LANG_ROOTS)
def test_calculator_pages_load_the_one_engine(built_site, lang):
    site, _ = built_site
    for name in DEFAULT_SCENARIOS:
        folder = site / LANG_ROOTS[lang] / "calculators" / name
        page = _parse(folder / "index.html")
        assert page.calc is not None and page.calc.get("data-calculator") == name
        engine = (folder / (page.calc.get("data-engine") or "")).resolve()
        assert engine == (site / "assets" / "engine").resolve(), f"{name}: data-engine leads to {engine}"


@pytest.mark.parametrize("lang", LANG_ROOTS)
def test_rule_pages_reference_no_engine(built_site, book, lang):
    """A rule page names the engine's folder once, in the offline settings (calculator.js starts an
    engine saved on the device from there while the page is idle); nothing else of it."""
    site, _ = built_site
    root = site / LANG_ROOTS[lang]
    chapters = [root / chapter.page.removesuffix(".md") / "index.html" for chapter in book.chapters]
    assert root / "kensei" / "orders" / "index.html" in chapters
    for path in chapters:
        html = path.read_text(encoding="utf-8")
        settings = OFFLINE_SETTINGS.search(html)
        assert settings, f"{path.relative_to(site)} has no offline settings"
        engine = (root / json.loads(html_lib.unescape(settings.group(1)))["engine"]).resolve()
        assert engine == (site / "assets" / "engine").resolve()
        found = ENGINE_REFERENCE.findall(OFFLINE_SETTINGS.sub("", html))
        assert not found, f"{path.relative_to(site)} mentions {sorted(set(found))}"


def test_no_page_but_a_calculator_fetches_the_engine(built_site):
    site, _ = built_site
    calculators = [site / root / "calculators" for root in LANG_ROOTS.values()]
    fetching = []
    for path in sorted(site.rglob("*.html")):
        if any(path.is_relative_to(folder) for folder in calculators):
            continue
        fetching += [f"{path.relative_to(site)}: {url}" for url in _parse(path).fetches if ENGINE_REFERENCE.search(url)]
    assert not fetching, "\n".join(fetching[:20])


def test_engine_is_installed_once_at_the_root(built_site):
    site, _ = built_site
    engine = site / "assets" / "engine"
    missing = [name for name in ENGINE_FILES if not (engine / name).is_file()]
    assert not missing, f"missing in assets/engine/: {missing}"
    for lang in TRANSLATED:
        assert not (site / lang / "assets" / "engine").exists(), f"{lang}/assets/engine/ exists"
    for name in ENGINE_FILES:
        copies = sorted(str(p.relative_to(site)) for p in site.rglob(Path(name).name))
        assert copies == [f"assets/engine/{name}"], f"{name}: {copies}"


def test_engine_archive_holds_the_calculators_package(built_site):
    site, _ = built_site
    source = Path(CALCULATORS["shooting"].compute.__code__.co_filename).parent
    expected = {
        f"calculators/{p.relative_to(source).as_posix()}"
        for p in source.rglob("*")
        if p.suffix in (".py", ".json") and "__pycache__" not in p.parts
    }
    with zipfile.ZipFile(site / "assets" / "engine" / "calculators.zip") as archive:
        names = set(archive.namelist())
        assert names == expected
        assert archive.read("calculators/rule_values.json") == (source / "rule_values.json").read_bytes()


def test_the_build_makes_the_engines_snapshot_for_its_version(built_site):
    """One memory snapshot, named as the worker asks for it (after the engine's version), in the worker's
    stored form (the magic word, the memory's length, its runs of pages, the base's length and checksum,
    where the heap starts); left out of the offline list (the engine keeps it itself), as are the
    engine's files compressed for the server, which read back as the files themselves."""
    site, _ = built_site
    folder = site / "assets" / "engine"
    version = re.search(r'const ENGINE_VERSION = "([0-9a-f]{16})";', (folder / "calc-worker.js").read_text("utf-8"))
    assert version, "the worker names no engine version"
    assert [p.name for p in folder.glob("snapshot-*.bin")] == [engine.snapshot_name(version[1])]
    snapshot = folder / engine.snapshot_name(version[1])
    head = snapshot.read_bytes()[:24]
    magic, length, runs, base, _, heap = (int.from_bytes(head[i : i + 4], "little") for i in range(0, 24, 4))
    assert magic == 0x4B525032 and length >= 16 * 2**20 and runs > 0
    assert 2**20 <= base < length and heap % 4 == 0
    listed = json.dumps(json.loads((site / "offline.json").read_text("utf-8")))
    assert "snapshot-" not in listed.replace("snapshot-pages.mjs", "")
    assert ".br" not in listed and ".gz" not in listed
    for name in ("pyodide/pyodide.asm.wasm", snapshot.name):
        original = (folder / name).read_bytes()
        assert gzip.decompress((folder / f"{name}.gz").read_bytes()) == original
        assert (folder / f"{name}.br").stat().st_size < (folder / f"{name}.gz").stat().st_size < len(original)


def test_no_node_no_snapshot_but_a_clear_error(tmp_path, monkeypatch):
    from mkdocs.exceptions import PluginError

    monkeypatch.setattr(engine.shutil, "which", lambda name: None)
    with pytest.raises(PluginError, match=r"Node\.js is needed"):
        engine.write_snapshot(tmp_path, "0123456789abcdef")
    assert not list(tmp_path.iterdir())

"""The installable site as built: the service worker's file list, its version, the web app manifests,
the icons, and the pages' links to them. (The behaviour in a browser is in test_offline_browser.py.)"""

from __future__ import annotations

import hashlib
import json
import shutil
import struct

import pytest

from kensei_ref.build import icons, offline
from kensei_ref.languages import LANGUAGES, TRANSLATED, get_translations
from kensei_ref.site import ASSETS


def test_every_kept_file_is_listed_once_with_its_size_and_hash(built_site):
    site, _ = built_site
    build = offline.read_service_worker(site)
    listed = {url: (group, size, digest) for group, files in build["groups"].items() for url, size, digest in files}
    assert sum(len(files) for files in build["groups"].values()) == len(listed)
    assert set(build["groups"]) == {*LANGUAGES, "engine"}
    for path in (p for p in site.rglob("*") if p.is_file()):
        relative = path.relative_to(site).as_posix()
        url = offline._url(relative)
        if not offline.kept(relative):
            assert url not in listed, relative
            continue
        group, size, digest = listed.pop(url)
        data = path.read_bytes()
        assert size == len(data), relative
        assert hashlib.sha256(data).hexdigest().startswith(digest), relative
        assert group == (
            "engine"
            if relative.startswith(offline.ENGINE)
            else relative.split("/")[0]
            if relative.split("/")[0] in TRANSLATED
            else "en"
        ), relative
    assert not listed, f"listed but not built: {sorted(listed)[:5]}"


def test_the_cache_holds_what_reading_searching_and_computing_need(built_site):
    site, _ = built_site
    urls = {url for files in offline.read_service_worker(site)["groups"].values() for url, _size, _digest in files}
    for prefix in ("", "fr/", "ru/"):
        assert {
            f"{prefix}",
            f"{prefix}kensei/terrain/",
            f"{prefix}search/search_index.json",
            f"{prefix}calculators/shooting/",
            f"{prefix}{offline.MANIFEST}",
        } <= urls
        lunr = {u.rsplit("/", 1)[1] for u in urls if u.startswith(f"{prefix}assets/javascripts/lunr/")}
        assert lunr == offline.LUNR_KEPT
    assert {
        f"{offline.ENGINE}calc-worker.js",
        f"{offline.ENGINE}calculators.zip",
        f"{offline.ENGINE}pyodide/pyodide.asm.wasm",
    } <= urls
    assert not [u for u in urls if u.endswith(".map") or u.startswith(offline.DOWNLOADS) or "index.html" in u]


def test_the_version_changes_with_any_file_and_only_then(built_site, tmp_path):
    site, _ = built_site
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    first = offline.write_service_worker(copy)["version"]
    assert offline.write_service_worker(copy)["version"] == first
    assert first == offline.read_service_worker(site)["version"]
    page = copy / "ru" / "glossary" / "index.html"
    page.write_bytes(page.read_bytes() + b" ")
    assert offline.write_service_worker(copy)["version"] != first
    page.write_bytes(page.read_bytes()[:-1])
    assert offline.write_service_worker(copy)["version"] == first


def test_the_service_worker_names_its_list_and_changes_with_it(built_site, tmp_path):
    """sw.js reads its list from offline.json; its first line names the list's version and hash, so
    that a new list is a new service worker (the browser installs one only when its bytes change)."""
    site, _ = built_site
    build = offline.read_service_worker(site)
    listing = (site / offline.LIST).read_bytes()
    worker = (site / offline.WORKER).read_text("utf-8")
    first, rest = worker.split("\n", 1)
    assert f'const VERSION = "{build["version"]}"' in first
    assert f'LIST_SHA256 = "{hashlib.sha256(listing).hexdigest()[: offline.HASH_DIGITS]}"' in first
    assert rest == offline.SOURCE.read_text("utf-8")
    assert f'const LIST = "{offline.LIST}";' in rest
    assert offline.LIST not in {url for files in build["groups"].values() for url, _size, _digest in files}

    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    offline.write_service_worker(copy, archive={"path": "elsewhere.zip", "bytes": 1})  # the same files
    assert offline.read_service_worker(copy)["version"] == build["version"]
    assert (copy / offline.WORKER).read_text("utf-8") != worker


def test_the_archive_is_named_with_its_size(built_site):
    site, _ = built_site
    archive = offline.read_service_worker(site)["archive"]
    assert (site / archive["path"]).stat().st_size == archive["bytes"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_has_its_app_manifest(built_site, lang):
    site, _ = built_site
    root = site if lang == "en" else site / lang
    manifest = json.loads((root / offline.MANIFEST).read_text("utf-8"))
    _ = get_translations(lang).gettext
    assert manifest["name"] == _(offline.APP_NAME) and manifest["lang"] == lang
    assert manifest["description"] == _(offline.APP_DESCRIPTION)
    if lang != "en":
        assert manifest["name"] != offline.APP_NAME
    assert manifest["start_url"] == "./" and manifest["display"] == "standalone"
    # The app's scope is the whole site, where the one service worker is.
    assert (root / manifest["scope"]).resolve() == site.resolve()
    sizes = set()
    for icon in manifest["icons"]:
        data = (root / icon["src"]).read_bytes()
        width, height = struct.unpack(">II", data[16:24])
        assert icon["sizes"] == f"{width}x{height}"
        sizes.add(width)
    assert sizes >= {192, 512}  # what browsers ask of an installable app
    html = (root / "index.html").read_text("utf-8")
    assert '<link rel="manifest" href="manifest.webmanifest">' in html
    assert f'<html lang="{lang}"' in html


def test_the_fallback_page_speaks_every_language(built_site):
    site, _ = built_site
    strings = offline.read_service_worker(site)["strings"]
    assert set(strings) == set(LANGUAGES)
    for lang in TRANSLATED:
        for key, text in offline.FALLBACK.items():
            assert strings[lang][key] != text, (lang, key)


def test_the_committed_icons_are_the_drawn_ones():
    committed = ASSETS / "icons"
    for name, data in icons.icon_files().items():
        assert (committed / name).read_bytes() == data, f"{name}: run python -m kensei_ref.build.icons"


def test_icons_are_valid_pngs_of_their_size():
    """The committed icons (which the test above finds equal to the drawn ones: drawn once a run)."""
    for size in icons.SIZES:
        data = (ASSETS / "icons" / f"icon-{size}.png").read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert struct.unpack(">II", data[16:24]) == (size, size)


@pytest.mark.parametrize(
    ("page", "target", "query", "anchor", "folders", "files"),
    [
        (
            "kensei/orders.md",
            "kensei/terrain.md",
            "",
            "kensei.hills",
            "../terrain/#kensei.hills",
            "terrain.html#kensei.hills",
        ),
        (
            "calculators/shooting.md",
            "kensei/ranged-attacks.md",
            "",
            "",
            "../../kensei/ranged-attacks/",
            "../kensei/ranged-attacks.html",
        ),
        (
            "kensei/orders.md",
            "calculators/regroup.md",
            "honor=6",
            "",
            "../../calculators/regroup/?honor=6",
            "../calculators/regroup.html?honor=6",
        ),
        ("digest.md", "assets/js/digest.js", "", "", "../assets/js/digest.js", "assets/js/digest.js"),
        ("index.md", "calculators/index.md", "", "", "calculators/", "calculators/index.html"),
        ("calculators/index.md", "index.md", "", "", "../", "../index.html"),
        ("calculators/shooting.md", "calculators/index.md", "", "", "../", "index.html"),
    ],
)
def test_addresses_in_raw_html_follow_how_pages_are_served(book, page, target, query, anchor, folders, files):
    """The site serves pages as folders; the offline copy, read from files, as ``.html`` files."""
    from kensei_ref.site.pages import PageContext

    assert PageContext(book, "en", page).url(target, query, anchor) == folders
    assert PageContext(book, "en", page, directory_urls=False).url(target, query, anchor) == files

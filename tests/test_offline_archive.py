"""The downloadable offline copy: a zip of the whole site that is read and searched from ``file://``.

Chromium opens the unpacked copy with no server at all: pages link to pages, the search (run by the
pinned iframe-worker shim, as Material's offline plugin intends) finds a Russian word in an inflected
form, and the calculator pages show their default results and say why they cannot recompute.
"""

from __future__ import annotations

import html
import re
import zipfile
from pathlib import Path
from urllib.parse import unquote

import pytest

from kensei_ref.build import archive, offline, vendor
from kensei_ref.languages import LANGUAGES, get_translations
from kensei_ref.site.calculator_pages import UI as CALC_UI

ARCHIVE = f"{offline.DOWNLOADS}kensei-ref-offline.zip"


@pytest.fixture(scope="module")
def unpacked(built_site, tmp_path_factory) -> Path:
    site, _ = built_site
    target = tmp_path_factory.mktemp("archive")
    with zipfile.ZipFile(site / ARCHIVE) as zipped:
        zipped.extractall(target)
    return target / archive.FOLDER


def test_the_archive_holds_every_language_and_no_engine(built_site, unpacked):
    site, _ = built_site
    names = zipfile.ZipFile(site / ARCHIVE).namelist()
    assert all(name.startswith(f"{archive.FOLDER}/") for name in names)
    for lang in LANGUAGES:
        prefix = "" if lang == "en" else f"{lang}/"
        assert (unpacked / prefix / "index.html").is_file()
        assert (unpacked / prefix / "kensei" / "terrain.html").is_file()  # no directory URLs from file://
        assert (unpacked / prefix / "search" / "search_index.js").is_file()
        assert (unpacked / prefix / vendor.SHIM).is_file()
    assert not (unpacked / "assets" / "engine").exists()
    assert not [name for name in names if name.endswith(".map")]


def test_no_page_of_the_archive_asks_another_site(unpacked):
    for page in unpacked.rglob("*.html"):
        html = page.read_text("utf-8")
        sources = re.findall(r"""<(?:script|link|img)[^>]+(?:src|href)=["']([^"']+)""", html)
        remote = [s for s in sources if re.match(r"(https?:)?//", s)]
        assert not remote, (page, remote)


LINK = re.compile(r"""(?:href|src)=["']([^"'#?]*)[^"']*["']""")


def test_every_link_of_the_archive_leads_to_a_file(unpacked):
    """From ``file://`` there is no server to find ``index.html`` in a folder: every address must name a file."""
    broken = []
    for page in unpacked.rglob("*.html"):
        if page.name == "404.html":  # Material writes it with addresses from the site's root; it is never shown here
            continue
        for address in LINK.findall(page.read_text("utf-8")):
            if not address or re.match(r"[a-z]+:|//", address):
                continue
            target = (page.parent / unquote(address)).resolve()
            if not target.is_file():
                broken.append(f"{page.relative_to(unpacked)}: {address}")
    assert not broken, f"{len(broken)} broken, such as {sorted(set(broken))[:5]}"


def test_the_archive_reads_and_searches_from_files(browser, unpacked):
    context = browser.new_context()
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto((unpacked / "ru" / "index.html").as_uri())
    page.locator("a[href$='terrain.html']").first.click()
    assert page.url.endswith("/ru/kensei/terrain.html")
    box = page.locator("input.md-search__input")
    box.click()
    box.press_sequentially("болотах")  # inflected: the Russian stemmer runs from the files too
    box.press("End")  # a key event: letters outside the keyboard layout are inserted without one
    page.wait_for_function(
        "() => [...document.querySelectorAll('.md-search-result__list a')]"
        ".some((a) => a.getAttribute('href').includes('shallow-water'))",
        timeout=30_000,
    )
    assert all(url.startswith(("file:", "data:", "blob:", "about:")) for url in requests), requests
    context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_calculators_in_the_archive_show_defaults_and_say_why(browser, unpacked, lang):
    context = browser.new_context()
    page = context.new_page()
    prefix = "" if lang == "en" else f"{lang}/"
    page.goto((unpacked / prefix / "calculators" / "shooting.html").as_uri())
    assert page.locator(".kr-result").first.inner_text().strip()  # the default scenario's numbers
    expected = get_translations(lang).gettext(CALC_UI["offline_file"])
    page.wait_for_function("(text) => document.body.innerText.includes(text)", arg=expected, timeout=10_000)
    context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_offline_page_of_the_copy_says_what_works_there(unpacked, lang):
    from kensei_ref.site.offline_page import UI

    prefix = "" if lang == "en" else f"{lang}/"
    source = (unpacked / prefix / "offline.html").read_text("utf-8")
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", source)).split())
    said = get_translations(lang).gettext(UI["file"])
    assert " ".join(said.split()) in text  # spaces folded alike on both sides (French no-break spaces too)
    assert 'id="kr-offline-archive"' not in source and 'id="kr-offline-panel"' not in source

"""The site as published: built with a public address (``KENSEI_REF_SITE_URL``) and served by Debian's
nginx with the project's configuration (``deploy/kensei-ref.conf`` inside ``deploy/nginx.conf``), then
checked over HTTP and in Chromium: MIME types, compression, caching, the security headers (the build's
Content-Security-Policy among them), the sitemap, the 404 page of each language, pages without a
console error, a calculator that computes, and offline use.

``make publish-check`` runs this file alone (it installs nginx first when it is missing); ``make test``
runs it with the others.
"""

from __future__ import annotations

import gzip
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from nginx_server import NGINX, NGINX_MISSING, Nginx, free_port
from page_errors import recording_errors

from kensei_ref.build import csp, offline
from kensei_ref.languages import LANGUAGES, site_folder
from kensei_ref.site.calculator_pages import ENGINE_STATE, RESULT_STATE

ROOT = Path(__file__).resolve().parent.parent
ADDRESS_VARIABLE = "KENSEI_REF_SITE_URL"
"""Where ``mkdocs.yml`` reads the public address from (``site_url: !ENV ...``)."""

ENGINE_TIMEOUT = 120_000
SAVE_TIMEOUT = 120_000
META_POLICY = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">')
SECURITY = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}
IMMUTABLE = "public, max-age=31536000, immutable"
SETTLED = f"""() => {{
  const root = document.querySelector(".kr-calc");
  return !!root && root.getAttribute("{ENGINE_STATE}") === "ready"
    && root.querySelector('.kr-result[data-scenario="1"]').getAttribute("{RESULT_STATE}") === "fresh";
}}"""
SAVED = "() => document.querySelector('.kr-offline-indicator')?.dataset.state === 'ready'"
CONTROLLED = "() => !!navigator.serviceWorker.controller"


@pytest.fixture(scope="module")
def published(builds_site, tmp_path_factory) -> Path:
    """The site built as ``make build`` does, with its public address from the environment."""
    if not os.access(NGINX, os.X_OK):
        pytest.fail(NGINX_MISSING)
    port = free_port()
    site = tmp_path_factory.mktemp("published") / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", ADDRESS_VARIABLE: f"http://127.0.0.1:{port}/"}
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    (site.parent / "port").write_text(str(port), encoding="utf-8")
    return site


@pytest.fixture(scope="module")
def nginx(published, tmp_path_factory):
    port = int((published.parent / "port").read_text("utf-8"))
    server = Nginx(published, port, tmp_path_factory.mktemp("nginx")).start()
    yield server
    server.stop()


def _pages(site: Path, lang: str) -> set[str]:
    """The addresses of a language's pages as built (directory URLs), from the site's root."""
    folders = [site_folder(other) for other in LANGUAGES if site_folder(other)]
    found = set()
    for path in site.rglob("index.html"):
        relative = path.relative_to(site).as_posix()
        if next((folder for folder in folders if relative.startswith(folder)), "") == site_folder(lang):
            found.add(relative.removesuffix("index.html"))
    return found


# ---- Over HTTP ---------------------------------------------------------------------------------------


KINDS = [
    # path, MIME type, cache rule, compressed
    ("/", "text/html", "no-cache", True),
    ("/kensei/terrain/", "text/html", "no-cache", True),
    ("/ru/calculators/shooting/", "text/html", "no-cache", True),
    ("/sw.js", "text/javascript", "no-cache", True),
    ("/offline.json", "application/json", "no-cache", True),
    ("/fr/search/search_index.json", "application/json", "no-cache", True),
    ("/data/rules.json", "application/json", "no-cache", True),
    ("/sitemap.xml", "application/xml", "no-cache", True),
    ("/manifest.webmanifest", "application/manifest+json", "no-cache", True),
    ("/assets/css/kensei.css", "text/css", "no-cache", True),
    ("/assets/js/calculator.js", "text/javascript", "no-cache", True),
    ("/assets/engine/pyodide/pyodide.asm.wasm", "application/wasm", "no-cache", True),
    ("/assets/engine/pyodide/pyodide.mjs", "text/javascript", "no-cache", True),
    ("/assets/engine/calculators.zip", "application/zip", "no-cache", False),
    ("/downloads/kensei-ref-offline.zip", "application/zip", "no-cache", False),
    ("/assets/icons/icon-192.png", "image/png", "no-cache", False),
]


@pytest.mark.parametrize(("path", "mime", "cache", "compressed"), KINDS, ids=[kind[0] for kind in KINDS])
def test_each_kind_of_file_has_its_type_caching_compression_and_headers(nginx, path, mime, cache, compressed):
    response = nginx.get(path)
    assert response.status == 200, path
    assert response.headers["content-type"].split(";")[0] == mime
    assert response.headers["cache-control"] == cache
    assert (response.headers.get("content-encoding") == "gzip") == compressed, response.headers
    for name, value in SECURITY.items():
        assert response.headers[name] == value, name
    assert "content-security-policy" in response.headers


def test_the_engines_snapshot_is_sent_compressed(nginx, published):
    """The build's memory snapshot (10 MB, named after the engine's version) travels as the build
    compressed it: brotli to a browser that takes it (every browser on HTTPS), gzip to one that does
    not; so does Pyodide's WebAssembly."""
    (snapshot,) = (published / "assets" / "engine").glob("snapshot-*.bin")
    for path, built in (
        (f"/assets/engine/{snapshot.name}", snapshot),
        ("/assets/engine/pyodide/pyodide.asm.wasm", published / "assets/engine/pyodide/pyodide.asm.wasm"),
    ):
        packed, plain = nginx.get(path), nginx.get(path, gzip_ok=False)
        brotli = nginx.get(path, accept_encoding="gzip, deflate, br, zstd")
        assert packed.status == 200 and packed.headers["content-type"] == plain.headers["content-type"]
        assert packed.headers["content-encoding"] == "gzip" and packed.headers["cache-control"] == "no-cache"
        assert gzip.decompress(packed.body) == plain.body == built.read_bytes()
        assert brotli.headers["content-encoding"] == "br" and brotli.headers["cache-control"] == "no-cache"
        assert brotli.body == built.with_name(f"{built.name}.br").read_bytes()
        assert brotli.headers["vary"] == "Accept-Encoding"
        assert len(brotli.body) < len(packed.body) < len(plain.body) / 2
        print(f"{path}: {len(plain.body)} bytes, {len(packed.body)} gzipped, {len(brotli.body)} brotli")


def test_materials_hashed_assets_are_kept_a_year_but_the_patched_search_worker(nginx, published):
    hashed = [
        path for path in published.glob("assets/*/*.min.*") if re.search(r"\.[0-9a-f]{8}\.min\.(js|css)$", path.name)
    ]
    assert len(hashed) >= 3, hashed  # the bundle, the stylesheets
    workers = list(published.glob("assets/javascripts/workers/search.*.min.js"))
    assert len(workers) == 1, workers
    for path in [*hashed, *workers]:
        response = nginx.get("/" + path.relative_to(published).as_posix())
        assert response.status == 200
        # The search worker keeps Material's name but not its content (the build patches it): a browser
        # that kept it a year would search with an earlier build's patch.
        expected = "no-cache" if path in workers else IMMUTABLE
        assert response.headers["cache-control"] == expected, path.name
        assert response.headers["content-encoding"] == "gzip"


def _directives(policy: str) -> dict[str, set[str]]:
    return {part.split()[0]: set(part.split()[1:]) for part in policy.split(";") if part.strip()}


def test_the_policy_header_is_the_pages_own_and_forbids_framing(nginx, published):
    header = nginx.get("/kensei/orders/").headers["content-security-policy"]
    assert header == csp.header_policy(published)
    sent = _directives(header)
    assert sent["frame-ancestors"] == {"'none'"}
    for lang in LANGUAGES:
        for address in ("", "kensei/orders/", "calculators/melee/", "404.html"):
            page = nginx.get("/" + site_folder(lang) + address).text()
            (meta,) = META_POLICY.findall(page)
            for directive, sources in _directives(meta).items():
                # the header allows what the page's own policy allows, and no more than every page's
                assert sources <= sent[directive], (lang, address, directive)
                if directive != "script-src":
                    assert sources == sent[directive], (lang, address, directive)
    assert nginx.get("/" + csp.SERVER_FILE).status == 404  # nginx's file, not the readers'


def test_compression_makes_pages_and_the_engine_smaller(nginx):
    sizes = {}
    for path in ("/kensei/terrain/", "/calculators/shooting/", "/assets/engine/pyodide/pyodide.asm.wasm"):
        packed, plain = nginx.get(path), nginx.get(path, gzip_ok=False)
        assert packed.headers["content-encoding"] == "gzip" and "content-encoding" not in plain.headers
        assert packed.headers["vary"] == "Accept-Encoding"
        assert gzip.decompress(packed.body) == plain.body
        sizes[path] = (len(packed.body), len(plain.body))
        assert len(packed.body) < len(plain.body) / 2, (path, sizes[path])
    print("gzip, bytes sent / as built:", sizes)


def _locations(xml: str) -> list[str]:
    return re.findall(r"<loc>([^<]+)</loc>", xml)


def test_the_sitemaps_list_every_page_of_every_language(nginx, published):
    """robots.txt names the sitemap index, which names each language's sitemap; each of those lists that
    language's pages only (Material's instant navigation follows in place the links its sitemap lists)."""
    robots = nginx.get("/robots.txt")
    assert robots.headers["content-type"].startswith("text/plain")
    (index,) = re.findall(r"^Sitemap: (\S+)$", robots.text(), re.MULTILINE)
    sitemaps = _locations(nginx.get(index.removeprefix(nginx.url)).text())
    assert sitemaps == [f"{nginx.url}/{site_folder(lang)}sitemap.xml" for lang in LANGUAGES]
    listed = []
    for lang, address in zip(LANGUAGES, sitemaps, strict=True):
        response = nginx.get(address.removeprefix(nginx.url))
        assert response.headers["content-type"].split(";")[0] == "application/xml"
        pages = _locations(response.text())
        assert set(pages) == {f"{nginx.url}/{page}" for page in _pages(published, lang)}, lang
        packed = nginx.get(address.removeprefix(nginx.url) + ".gz", gzip_ok=False)
        assert packed.headers["content-type"] == "application/gzip"
        assert _locations(gzip.decompress(packed.body).decode()) == pages
        listed += pages
    assert len(listed) == len(set(listed)) > 3 * 20
    for address in listed:
        assert nginx.get(address.removeprefix(nginx.url)).status == 200, address


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_missing_page_gets_the_404_page_of_its_language(nginx, lang):
    prefix = "/" + site_folder(lang)
    response = nginx.get(prefix + "kensei/no-such-rule/")
    assert response.status == 404
    page = response.text()
    assert f'<html lang="{lang}"' in page
    addresses = set(re.findall(r'(?:href|src)="(/[^"]*)"', page))
    assert len(addresses) > 10
    for address in addresses:
        if lang != LANGUAGES[0]:
            assert address.startswith(prefix), address
        else:
            assert address.split("/")[1] not in LANGUAGES[1:], address
        assert nginx.get(address.split("#")[0]).status == 200, address


def test_a_missing_page_in_a_folder_that_is_no_language_gets_the_root_404_page(nginx):
    response = nginx.get("/de/kensei/no-such-rule/")
    assert response.status == 404
    assert f'<html lang="{LANGUAGES[0]}"' in response.text()


def test_a_folder_without_its_slash_is_redirected_within_the_site(nginx):
    response = nginx.get("/fr/kensei/terrain")
    assert response.status == 301
    assert response.headers["location"] == "/fr/kensei/terrain/"


# ---- In Chromium -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def context(browser, nginx):
    # no service worker saving each language behind the pages: the worker behind nginx is the offline
    # test's (last in this file), which also reads the console
    context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block")
    yield context
    context.close()


@pytest.fixture
def page(context):
    page = recording_errors(context.new_page(), console=True)
    yield page
    page.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_pages_load_without_a_console_error(page, nginx, lang):
    prefix = "/" + site_folder(lang)
    for address in ("", "kensei/terrain/", "glossary/", "quick-reference/", "digest/", "offline/"):
        response = page.goto(nginx.url + prefix + address)
        assert response is not None and response.status == 200, address
        assert page.locator("html").get_attribute("lang") == lang
        page.wait_for_load_state("load")
    page.goto(nginx.url + prefix + "calculators/regroup/")
    page.wait_for_function(SETTLED, timeout=ENGINE_TIMEOUT)
    assert page.console_errors == [] and page.errors == []


def test_a_calculator_computes_behind_nginx(page, nginx):
    page.goto(nginx.url + "/calculators/shooting/")
    page.wait_for_function(SETTLED, timeout=ENGINE_TIMEOUT)
    result = page.locator('section.kr-result[data-scenario="1"]')
    before = result.get_attribute("data-result")
    page.fill('form[data-scenario="1"] input[name="models"]', "3")
    page.wait_for_function(
        "(before) => document.querySelector('section.kr-result[data-scenario=\"1\"]').dataset.result !== before",
        arg=before,
        timeout=30_000,
    )
    page.wait_for_function(SETTLED)
    assert result.get_attribute("data-result") != before
    assert page.console_errors == [] and page.errors == []


def test_the_language_switch_opens_the_other_language(page, nginx):
    """With a public address Material's instant navigation is on for the sitemap's pages: the switch
    still loads the other language as a page of its own (its search, its engine's words)."""
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(nginx.url + "/kensei/orders/")
    page.evaluate("window.__first = true")
    page.locator(".md-header__option .md-select").hover()
    page.locator('a.kr-language[hreflang="ru"]').click()
    page.wait_for_url(nginx.url + "/ru/kensei/orders/")
    page.wait_for_load_state("load")
    assert page.locator("html").get_attribute("lang") == "ru"
    assert page.evaluate("window.__first === undefined")
    assert page.console_errors == [] and page.errors == []


def test_search_finds_an_inflected_word_under_the_headers_trusted_types(page, nginx):
    """The header's policy applies to the search worker too (a <meta> one does not): it loads the
    language's stemmer through its Trusted Types policy, and a Russian word in another form finds its
    rule, with no violation."""
    page.goto(nginx.url + "/ru/glossary/")
    page.evaluate("""() => { window.__violations = [];
      document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(e.effectiveDirective)); }""")
    page.locator("label[for='__search']").first.click()
    page.keyboard.type("болотах")
    page.wait_for_selector(".md-search-result__item a[href*='shallow-water']", timeout=60_000)
    assert page.evaluate("window.__violations") == []
    assert page.console_errors == [] and page.errors == []


def _first_visit(browser, nginx: Nginx, address: str, *, engine: bool) -> dict[str, int]:
    """Open ``address`` in a new context (nothing cached, no service worker saving more) until it has
    loaded (and, with ``engine``, until its calculator's engine has answered): every response's bytes
    as sent (headers and compressed body: gzip on the way, or brotli and gzip as the build compressed
    the engine's files) against the files' bytes as built."""
    context = browser.new_context(service_workers="block")
    requests = []
    context.on("requestfinished", lambda request: requests.append(request))
    try:
        page = context.new_page()
        page.goto(nginx.url + address)
        page.wait_for_load_state("load")
        if engine:
            page.wait_for_function(SETTLED, timeout=ENGINE_TIMEOUT)
        page.wait_for_load_state("networkidle")
        sent = as_built = 0
        for request in requests:
            sizes = request.sizes()
            sent += sizes["responseHeadersSize"] + sizes["responseBodySize"]
            response = request.response()
            if response is None:
                continue
            if response.headers.get("content-encoding") in ("gzip", "br"):
                as_built += len(nginx.get(request.url.removeprefix(nginx.url).split("?")[0], gzip_ok=False).body)
            else:
                as_built += int(response.headers.get("content-length") or 0)
        return {"files": len(requests), "sent": sent, "as_built": as_built}
    finally:
        context.close()


def test_transfer_sizes_of_a_rule_page_and_a_calculator_page(browser, nginx):
    figures = {
        "rule page": _first_visit(browser, nginx, "/kensei/terrain/", engine=False),
        "calculator page": _first_visit(browser, nginx, "/calculators/shooting/", engine=True),
    }
    for figure in figures.values():
        assert figure["sent"] < figure["as_built"] / 2, figures
    assert figures["rule page"]["sent"] < 400_000, figures
    print("first visit, bytes:", figures)


def test_offline_after_one_visit_behind_nginx(browser, nginx):
    """Last: nginx is stopped while the browser reads a page it saved, then started again."""
    context = browser.new_context()
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(nginx.url + "/fr/kensei/combat/")
        page.wait_for_function(SAVED, timeout=SAVE_TIMEOUT)
        page.wait_for_function(CONTROLLED)
        assert errors == [], "while the service worker saved the language"
        nginx.stop()
        context.set_offline(True)
        page.goto(nginx.url + "/fr/kensei/terrain/")
        assert page.locator("html").get_attribute("lang") == "fr"
        assert page.locator("article h1").count() == 1
        page.goto(nginx.url + "/fr/calculators/regroup/")
        page.wait_for_function(SETTLED, timeout=ENGINE_TIMEOUT)
    finally:
        context.close()
        if nginx.process is None:
            nginx.start()


def test_the_offline_list_leaves_out_the_servers_file(published):
    listed = {url for files in offline.read_service_worker(published)["groups"].values() for url, *_ in files}
    assert (published / csp.SERVER_FILE).is_file()
    assert csp.SERVER_FILE not in listed

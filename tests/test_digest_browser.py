"""The printable digest in Debian's Chromium: a QR code beside each odds table that an independent
reader (zxing-cpp) decodes to the calculator's absolute address, a print that fits a few A4 pages,
and links that open the calculator on the table's bold number."""

from __future__ import annotations

import io
import re
from urllib.parse import urljoin

import pytest

from kensei_ref.languages import LANGUAGES
from kensei_ref.numbers import numbers_for
from kensei_ref.site.calculator_pages import ENGINE_STATE

LANGS = LANGUAGES
MOST_A4_PAGES = 7
"""Measured: 5 pages in each language (Debian's Chromium, A4, 12 mm margins); two more for other fonts."""
SMALLEST_QR_MM = 25
"""A phone reads a code of 2.5 cm or more from a sheet held in the hand."""
ENGINE_TIMEOUT = 90_000


def _digest_url(server: str, lang: str) -> str:
    return f"{server}/{'' if lang == 'en' else lang + '/'}digest/"


@pytest.fixture
def page(browser):
    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, device_scale_factor=2, service_workers="block"
    )
    page = context.new_page()
    yield page
    context.close()


def _decode(png: bytes) -> list[str]:
    import zxingcpp
    from PIL import Image

    return [barcode.text for barcode in zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))]


@pytest.mark.parametrize("lang", LANGS)
def test_each_table_has_a_qr_code_of_its_calculators_address(page, server, lang):
    url = _digest_url(server, lang)
    page.goto(url)
    blocks = page.locator(".kr-digest__block")
    assert blocks.count() >= 6
    for index in range(blocks.count()):
        block = blocks.nth(index)
        block.scroll_into_view_if_needed()  # a code is drawn as its block comes near the screen
        block.locator(".kr-digest__qr svg").wait_for()
        absolute = urljoin(url, block.locator("a.kr-digest__open").get_attribute("href"))
        assert absolute.startswith(f"{server}/{'' if lang == 'en' else lang + '/'}calculators/")
        assert _decode(block.locator(".kr-digest__qr").screenshot()) == [absolute]
        assert block.locator(".kr-digest__url").inner_text() == absolute
        assert block.locator(".kr-digest__qr svg").get_attribute("aria-label")


@pytest.mark.parametrize("lang", LANGS)
def test_the_digest_prints_on_a_few_a4_pages_with_codes_large_enough(page, server, lang):
    page.goto(_digest_url(server, lang))
    page.wait_for_load_state("load")
    page.evaluate("() => window.dispatchEvent(new Event('beforeprint'))")  # as the browser does before printing
    blocks = page.locator(".kr-digest__block").count()
    assert page.locator(".kr-digest__qr svg").count() == blocks, "every code is drawn before the page prints"
    pdf = page.pdf(format="A4")
    pages = len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))
    assert 1 < pages <= MOST_A4_PAGES, pages
    page.emulate_media(media="print")
    widths = page.eval_on_selector_all(".kr-digest__qr svg", "svgs => svgs.map(s => s.getBoundingClientRect().width)")
    assert min(widths) * 25.4 / 96 >= SMALLEST_QR_MM, widths  # CSS pixels are 1/96 inch on paper
    hidden = page.eval_on_selector_all(
        ".md-header, .md-sidebar, .md-footer, .kr-digest__print", "nodes => nodes.every(n => !n.checkVisibility())"
    )
    assert hidden, "navigation, header, footer and the print button do not print"
    assert page.locator(".kr-digest__url").first.is_visible()


def test_a_code_is_drawn_as_its_block_comes_near_the_screen(browser, server):
    """On a phone the codes lie screens below the quick reference: none is drawn while the page loads
    (a code costs a slow phone about 100 ms); each is drawn, in idle time, as its block comes within a
    screen of being seen."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block")
    page = context.new_page()
    page.goto(_digest_url(server, "en"))
    page.wait_for_load_state("load")
    page.evaluate("() => new Promise((done) => window.krIdle(() => setTimeout(done, 300)))")
    last = page.locator(".kr-digest__block").last
    assert last.locator(".kr-digest__qr svg").count() == 0
    assert page.locator(".kr-digest__qr svg").count() == 0, "the first block lies screens below the top"
    last.scroll_into_view_if_needed()
    last.locator(".kr-digest__qr svg").wait_for()
    context.close()


def test_the_print_button_prints(page, server):
    page.goto(_digest_url(server, "en"))
    page.evaluate("window.print = () => { window.__printed = true; }")
    page.locator(".kr-digest__print").click()
    assert page.evaluate("window.__printed") is True


def test_from_a_file_without_a_site_address_no_code_is_drawn(page, built_site):
    """A saved copy cannot know where the site is published: the printed path stays, with no code."""
    site, _ = built_site
    page.goto((site / "digest" / "index.html").as_uri())
    page.wait_for_load_state("load")
    assert page.locator(".kr-digest__qr svg").count() == 0
    assert page.locator(".kr-digest__url").first.inner_text().startswith("calculators/")


def test_the_digest_fits_a_phone(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block")
    page = context.new_page()
    page.goto(_digest_url(server, "en"))
    width = page.evaluate("document.documentElement.scrollWidth")
    context.close()
    assert width <= 390, "wide tables scroll inside their box; the page itself does not"


@pytest.fixture
def warm_page(warm_context):
    """A page of the worker's warm context (conftest.py): the calculators it opens restore the engine."""
    page = warm_context.new_page()
    page.set_viewport_size({"width": 1280, "height": 900})
    yield page
    page.close()


def test_a_link_opens_the_calculator_on_the_bold_number(warm_page, server):
    """Each distinct link, opened in the browser: the calculator computes the linked scenario and its
    figure is the bold cell of every table that links there."""
    page = warm_page
    page.goto(_digest_url(server, "en"))
    targets: dict[str, list[tuple[str, str]]] = {}
    for block in page.locator(".kr-digest__block").all():
        link = block.locator("a.kr-digest__open")
        bold = block.locator("td.kr-digest__key").inner_text()
        targets.setdefault(link.get_attribute("href"), []).append((link.get_attribute("data-figure"), bold))
    digest_url = page.url
    for href, figures in targets.items():
        page.goto(urljoin(digest_url, href))
        page.wait_for_function(
            f"() => document.querySelector('.kr-calc')?.getAttribute('{ENGINE_STATE}') === 'ready'"
            " && window.__krCalc.views['1']"
            " && document.querySelector('.kr-result[data-scenario=\"1\"]').dataset.state === 'fresh'",
            timeout=ENGINE_TIMEOUT,
        )
        view = page.evaluate("window.__krCalc.views['1']")
        shown = {item["key"]: item["value"] for item in [*view["steps"], *view["figures"]]}
        for key, bold in figures:
            assert numbers_for("en").percent(shown[key]) == bold, (href, key)

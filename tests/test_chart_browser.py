"""The "at least N" charts of a calculator page (chart.js) show the numbers of the result's tables:
each bar's value is the table's "at least" for its outcome, its title shows the same text as the
table's cell, its height is that chance of the plot's height; the outcomes left out are only those
certain at the start or negligible at the end. Comparing, both scenarios share one chart. At phone
width the chart fits the screen, in dark mode too.
"""

from __future__ import annotations

import re

import pytest

from calculators.presentation import present
from kensei_ref.site.calculator_pages import DEFAULT_SCENARIOS, ENGINE_STATE, RESULT_STATE

ENGINE_TIMEOUT = 90_000
NEGLIGIBLE = 0.0005

BARS = """() => [...document.querySelectorAll(".kr-calc__charts figure")].map((figure) => ({
  caption: figure.querySelector("figcaption").textContent,
  plot: (() => { const grid = [...figure.querySelectorAll(".kr-chart__grid")].map((l) => +l.getAttribute("y1"));
                 return Math.max(...grid) - Math.min(...grid); })(),
  width: figure.querySelector("svg").getBoundingClientRect().width,
  bars: [...figure.querySelectorAll("rect.kr-chart__bar")].map((bar) => ({
    series: +bar.dataset.series, k: +bar.dataset.k, value: +bar.dataset.atLeast,
    height: +bar.getAttribute("height"), title: bar.querySelector("title").textContent,
  })),
}))"""

TABLE_CELLS = """() => [...document.querySelectorAll('.kr-result[data-scenario="1"] table.kr-dist')].map((table) =>
  [...table.tBodies[0].rows].map((row) => [row.cells[0].textContent.trim(), row.cells[2].textContent.trim()]))"""

SETTLED = f"""() => document.querySelector(".kr-calc").getAttribute("{ENGINE_STATE}") === "ready"
  && [...document.querySelectorAll('.kr-result:not([hidden])')]
       .every((r) => r.getAttribute("{RESULT_STATE}") === "fresh" || r.closest("[hidden]"))
  && document.querySelector(".kr-calc__charts").getAttribute("{RESULT_STATE}") === "fresh" """
"""The results and the charts are for the inputs shown (the charts are drawn the frame after the figures)."""

CHARTS_FRESH = f"""() => document.querySelector(".kr-calc__charts").getAttribute("{RESULT_STATE}") === "fresh" """


def show_charts(page, timeout: float = ENGINE_TIMEOUT) -> None:
    """Scrolls to the charts as a reader does: they are drawn once their box comes within a screen of the
    view (on a phone it lies screens below the figures), after the figures they show."""
    page.wait_for_function("() => !document.querySelector('.kr-calc__charts').hidden")
    page.evaluate("() => document.querySelector('.kr-calc__charts').scrollIntoView()")
    page.wait_for_function(CHARTS_FRESH, timeout=timeout)


@pytest.fixture
def phone(warm_context):
    """A phone-sized page in dark mode, in the worker's warm context (conftest.py)."""
    page = warm_context.new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    page.emulate_media(color_scheme="dark")
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    yield page
    page.close()


def check_against_table(chart: dict, table: dict, series: int) -> None:
    rows = {row[0]: row[2] for row in table["rows"]}
    drawn = [bar for bar in chart["bars"] if bar["series"] == series]
    ks = [bar["k"] for bar in drawn]
    assert ks, "a chart has bars"
    order = [row[0] for row in table["rows"]]
    start = order.index(ks[0])
    assert ks == order[start : start + len(ks)], "the outcomes drawn follow one another"
    for bar in drawn:
        assert bar["value"] == pytest.approx(rows[bar["k"]], abs=1e-12), bar
        assert bar["height"] == pytest.approx(max(chart["plot"] * bar["value"], 1 if bar["value"] else 0), abs=0.01)
    left_out = [k for k in order if k not in ks]
    for k in left_out:
        before = order.index(k) < start
        assert (before and rows[k] == pytest.approx(1)) or (not before and rows[k] < NEGLIGIBLE), k


@pytest.mark.parametrize(
    "name", [name for name in DEFAULT_SCENARIOS if present(name, DEFAULT_SCENARIOS[name])["tables"]]
)
def test_the_chart_shows_the_tables_numbers(phone, server, name):
    phone.route("**/assets/engine/**", lambda route: route.abort())  # the build's own result
    phone.goto(f"{server}/calculators/{name}/")
    phone.wait_for_function(f'() => document.querySelector(".kr-calc").getAttribute("{ENGINE_STATE}") === "failed"')
    show_charts(phone)
    tables = present(name, DEFAULT_SCENARIOS[name])["tables"]
    charts = phone.evaluate(BARS)
    cells = phone.evaluate(TABLE_CELLS)
    assert len(charts) == len(tables)
    for chart, table, table_cells in zip(charts, tables, cells, strict=True):
        check_against_table(chart, table, series=1)
        assert chart["width"] <= 390
        shown = dict(table_cells)
        for bar in chart["bars"]:
            outcome, value = bar["title"].rsplit(": ", 1)
            assert value == shown[outcome.rsplit("≥ ", 1)[1]], "the bar's title reads as the table's cell"
    assert not phone.errors


@pytest.mark.parametrize("reached_by", ["scrolling", "printing"])
def test_a_phone_draws_the_charts_only_when_the_reader_comes_near_them(phone, server, reached_by):
    """Drawing the charts costs a slow phone about 150 ms: while the page loads, none is drawn where their
    box lies screens below the figures (the box is empty, and marked so); scrolling to within a screen
    of it draws them, and so does printing."""
    phone.route("**/assets/engine/**", lambda route: route.abort())  # the build's own result
    phone.goto(f"{server}/calculators/melee/")
    phone.wait_for_function(f'() => document.querySelector(".kr-calc").getAttribute("{ENGINE_STATE}") === "failed"')
    phone.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 300)))")
    box = phone.locator(".kr-calc__charts")
    assert box.evaluate("(box) => box.getBoundingClientRect().top") > 2 * 844, "the charts lie screens below"
    assert phone.locator(".kr-calc__charts figure").count() == 0
    assert box.get_attribute(RESULT_STATE) == "empty", "nothing drawn, nothing marked"
    if reached_by == "scrolling":
        phone.evaluate("() => window.scrollTo(0, document.querySelector('.kr-calc__charts').offsetTop - 1.5 * 844)")
        phone.wait_for_function(CHARTS_FRESH)
    else:
        phone.evaluate("() => window.dispatchEvent(new Event('beforeprint'))")
        assert box.get_attribute(RESULT_STATE) == "fresh", "drawn before the page is printed"
    tables = present("melee", DEFAULT_SCENARIOS["melee"])["tables"]
    assert phone.locator(".kr-calc__charts figure").count() == len(tables)
    assert not phone.errors


def test_comparing_draws_both_scenarios_on_one_chart(phone, server):
    phone.goto(
        f"{server}/calculators/shooting/?models=6&wounds_each=1&attack=6&defense=5&armor=3&cover=light"
        "&compare=1&s2.models=6&s2.wounds_each=1&s2.attack=6&s2.defense=5&s2.armor=3&s2.cover=none"
    )
    show_charts(phone)
    phone.wait_for_function(SETTLED, timeout=ENGINE_TIMEOUT)
    phone.wait_for_function("() => document.querySelectorAll('.kr-chart__key').length === 2")
    first = present(
        "shooting", {"models": 6, "wounds_each": 1, "attack": 6, "defense": 5, "armor": 3, "cover": "light"}
    )
    second = present(
        "shooting", {"models": 6, "wounds_each": 1, "attack": 6, "defense": 5, "armor": 3, "cover": "none"}
    )
    charts = phone.evaluate(BARS)
    assert len(charts) == len(first["tables"])
    for chart, table_1, table_2 in zip(charts, first["tables"], second["tables"], strict=True):
        check_against_table(chart, table_1, series=1)
        check_against_table(chart, table_2, series=2)
    # leaving comparison: one scenario again
    phone.click(".kr-calc__compare")
    show_charts(phone)
    phone.wait_for_function("() => document.querySelectorAll('.kr-chart__key').length === 0")
    assert {bar["series"] for chart in phone.evaluate(BARS) for bar in chart["bars"]} == {1}
    assert not phone.errors


def test_the_chart_follows_an_input_change(phone, server):
    phone.goto(f"{server}/calculators/shooting/")
    show_charts(phone)
    phone.wait_for_function(SETTLED, timeout=ENGINE_TIMEOUT)
    phone.fill('form[data-scenario="1"] input[name="models"]', "3")
    show_charts(phone)  # filling the field scrolled it into view
    phone.wait_for_function(SETTLED)
    inputs = {**DEFAULT_SCENARIOS["shooting"], "models": 3}
    for chart, table in zip(phone.evaluate(BARS), present("shooting", inputs)["tables"], strict=True):
        check_against_table(chart, table, series=1)


def test_a_bars_title_is_written_as_the_language_writes_a_label(phone, server):
    """In French, "label : value" with a no-break space before the colon, as every other label."""
    phone.route("**/assets/engine/**", lambda route: route.abort())  # the build's own result
    phone.goto(f"{server}/fr/calculators/shooting/")
    phone.wait_for_function(f'() => document.querySelector(".kr-calc").getAttribute("{ENGINE_STATE}") === "failed"')
    show_charts(phone)
    titles = [bar["title"] for chart in phone.evaluate(BARS) for bar in chart["bars"]]
    assert titles
    assert all("\u00a0: " in title and not re.search("[^\u00a0]:", title) for title in titles), titles[:3]
    assert not phone.errors


BAR_BOXES = """() => [...document.querySelectorAll('.kr-result[data-scenario="1"] table.kr-dist .kr-bar')]
  .map((bar) => ({ height: bar.getBoundingClientRect().height, width: bar.getBoundingClientRect().width,
                   drawn: bar.querySelector("rect").getBoundingClientRect().width }))"""


def test_a_tables_bars_are_bars_as_tall_as_a_line_and_as_long_as_their_chance(phone, server):
    """Each row's bar beside the "exactly" column: about a line high (Material sizes a page's SVG by its
    aspect, which once drew them a pixel high), and the longest row's the full width of its column."""
    phone.route("**/assets/engine/**", lambda route: route.abort())  # the build's own result
    phone.goto(f"{server}/calculators/shooting/")
    phone.wait_for_function(f'() => document.querySelector(".kr-calc").getAttribute("{ENGINE_STATE}") === "failed"')
    bars = phone.evaluate(BAR_BOXES)
    assert bars
    assert all(bar["height"] >= 8 for bar in bars), bars
    assert max(bar["drawn"] / bar["width"] for bar in bars) == pytest.approx(1, abs=0.02)

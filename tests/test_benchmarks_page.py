"""The benchmarks page in each language: the machine, the dates and the units as the language writes
them, from the facts the benchmark scripts store (and from files written before they stored facts)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from kensei_ref.language_context import language_context
from kensei_ref.languages import LANGUAGES, TRANSLATED, get_translations
from kensei_ref.numbers import numbers_for
from kensei_ref.site.benchmarks_page import benchmarks_page, machine_facts, machine_text, measured_text

DOCS = Path(__file__).resolve().parent.parent / "docs"

CORES = {
    "en": ["x86_64, 1 core", "x86_64, 2 cores", "x86_64, 5 cores", "x86_64, 21 cores"],
    "fr": ["x86_64, 1 cœur", "x86_64, 2 cœurs", "x86_64, 5 cœurs", "x86_64, 21 cœurs"],
    "ru": ["x86_64, 1 ядро", "x86_64, 2 ядра", "x86_64, 5 ядер", "x86_64, 21 ядро"],
    "es": ["x86_64, 1 núcleo", "x86_64, 2 núcleos", "x86_64, 5 núcleos", "x86_64, 21 núcleos"],
}


@pytest.mark.parametrize("lang", CORES)
def test_the_machine_takes_the_form_its_count_of_cores_asks_for(lang):
    assert [machine_text({"arch": "x86_64", "cores": n}, language_context(lang)) for n in (1, 2, 5, 21)] == CORES[lang]


def test_a_machine_written_as_an_english_phrase_reads_as_the_same_facts():
    """docs/benchmarks*.json written before the machine was stored as facts keep their page."""
    assert machine_facts("x86_64, 2 cores") == {"arch": "x86_64", "cores": 2}
    assert machine_text("aarch64, 1 core", language_context("ru")) == "aarch64, 1 ядро"
    with pytest.raises(ValueError, match="machine: '2 cores'"):
        machine_facts("2 cores")


@pytest.mark.parametrize(
    ("lang", "day", "moment"),
    [
        ("en", "December 4, 2026", "December 4, 2026, 7:20\u202fPM"),
        ("fr", "4 décembre 2026", "4 décembre 2026, 19:20"),
        ("ru", "4 декабря 2026\u202fг.", "4 декабря 2026\u202fг., 19:20"),  # CLDR: a narrow no-break space
    ],
)
def test_a_benchmarks_date_is_written_as_its_language_writes_dates(lang, day, moment):
    assert measured_text("2026-12-04", language_context(lang)) == day
    assert measured_text("2026-12-04 19:20", language_context(lang)) == moment


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_translated_pages_have_no_english_unit_machine_or_iso_date(lang):
    figures = json.loads((DOCS / "benchmarks.json").read_text(encoding="utf-8"))
    browser = json.loads((DOCS / "benchmarks-browser.json").read_text(encoding="utf-8"))
    page = benchmarks_page(figures, lang, browser)
    # French writes ms too, and Spanish both ms and KiB (the SI and IEC symbols); Russian has its own
    english = {"fr": r"\b(cores?|KiB)\b", "ru": r"\b(cores?|KiB|ms)\b", "es": r"\b(cores?)\b"}[lang]
    assert not re.search(english, page), re.findall(f".{{30}}{english}.{{10}}", page)
    assert not re.search(r"\d{4}-\d{2}-\d{2}", page), "an ISO date left as the file stores it"
    kibibytes = {"fr": "\u00a0Kio |", "ru": "\u00a0КиБ |", "es": "\u00a0KiB |"}[lang]
    assert page.count(kibibytes) == 2, "the two transfer sizes"
    assert page.count(CORES[lang][1]) == 2, "the calculators' machine and the browser's"


LIGHTHOUSE = {
    "lighthouse": "12.2.3",
    "date": "2026-12-06",
    "pages": {
        "en": {"home": {"performance": 97, "accessibility": 100, "best-practices": 100, "seo": 100,
                        "tbt_ms": 140, "cls": 0.001, "lcp_ms": 1689}},
        "fr": {"advisor": {"performance": 95, "accessibility": 100, "best-practices": 100, "seo": 100,
                           "tbt_ms": 195.4, "cls": 0.0125, "lcp_ms": 1839}},
    },
}  # fmt: skip


@pytest.mark.parametrize("lang", TRANSLATED)
def test_lighthouse_figures_are_a_table_in_the_pages_language(lang):
    figures = json.loads((DOCS / "benchmarks.json").read_text(encoding="utf-8"))
    browser = {**json.loads((DOCS / "benchmarks-browser.json").read_text(encoding="utf-8")), "lighthouse": LIGHTHOUSE}
    page = benchmarks_page(figures, lang, browser)
    tr = get_translations(lang).gettext
    assert f"### {tr('Lighthouse, on a phone')}" in page
    advisor = next(line for line in page.splitlines() if line.startswith(f"| {tr('Orders advisor')} | fr |"))
    assert "| 95 | 100 | 100 | 100 |" in advisor
    assert numbers_for(lang).quantity(195.4, tr("ms"), 0) in advisor and numbers_for(lang).decimal(0.0125, 3) in advisor
    plain = json.loads((DOCS / "benchmarks-browser.json").read_text(encoding="utf-8"))
    plain.pop("lighthouse", None)  # figures written before make bench measured Lighthouse
    assert tr("Lighthouse, on a phone") not in benchmarks_page(figures, lang, plain)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_command_phase_plan_figures_are_rows_in_the_pages_language(lang):
    figures = json.loads((DOCS / "benchmarks.json").read_text(encoding="utf-8"))
    plan = [{"objective": objective, "compute_ms": 2070.4, "shown_ms": 2708.5, "navigation_ms": 3203.9}
            for objective in ("expected_wounds", "victory")]  # fmt: skip
    browser = {**json.loads((DOCS / "benchmarks-browser.json").read_text(encoding="utf-8")), "plan": plan}
    page = benchmarks_page(figures, lang, browser)
    tr = get_translations(lang).gettext
    numbers = numbers_for(lang)
    rows = [line for line in page.splitlines() if line.startswith(f"| {tr('Command phase plan')}, ")]
    assert len(rows) == 2
    assert all(f"{numbers.decimal(2070.4, 0)} / {numbers.quantity(2708.5, tr('ms'), 1)}" in row for row in rows)

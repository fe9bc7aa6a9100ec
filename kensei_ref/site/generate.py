"""Every page the site generates for one language, from the rule data: path -> Markdown."""

from __future__ import annotations

from typing import Any

from calculators import CALCULATORS
from kensei_ref import typography
from kensei_ref.languages import BY_CODE, SOURCE_LANGUAGE
from kensei_ref.rules.model import RuleBook
from kensei_ref.site import benchmarks_page, calculator_pages, offline_page, pages, plan_page, units_pages
from kensei_ref.site.digest import digest_pages


def generated_pages(
    book: RuleBook,
    lang: str,
    *,
    site_url: str,
    directory_urls: bool,
    with_archive: bool,
    benchmarks: tuple[dict[str, Any], dict[str, Any] | None] | None = None,
) -> dict[str, str]:
    """The generated pages of ``lang``.

    Args:
        site_url: the whole site's public address, or ``""`` (the digest's QR codes then use the page's own).
        directory_urls: whether pages are served as folders (``rule/``) or files (``rule.html``, offline copy).
        with_archive: whether the Offline page offers the downloadable copy (not inside that copy).
        benchmarks: the calculators' and the browser's measured figures, when ``make bench`` wrote them.
    """
    # Examples a calculator checks show a mark; those with a calculator page link to it with their inputs.
    generated = pages.site_pages(
        book, lang, set(CALCULATORS), frozenset(calculator_pages.DEFAULT_SCENARIOS), directory_urls=directory_urls
    )
    generated.update(calculator_pages.calculator_pages(book, lang, SOURCE_LANGUAGE, directory_urls=directory_urls))
    generated.update(digest_pages(book, lang, site_url, directory_urls=directory_urls))
    generated.update(units_pages.units_pages(book, lang, directory_urls))
    generated[plan_page.PLAN_PAGE] = plan_page.plan_page(book, lang, directory_urls)
    generated[offline_page.OFFLINE_PAGE] = offline_page.offline_page(lang, with_archive=with_archive)
    if benchmarks is not None:
        calculators_figures, browser_figures = benchmarks
        generated[pages.BENCHMARKS_PAGE] = benchmarks_page.benchmarks_page(calculators_figures, lang, browser_figures)
    if BY_CODE[lang].spaced_punctuation:
        # Every generated page passes here, rule text and interface strings alike: French spacing is set once.
        generated = {path: typography.french_spacing(markdown) for path, markdown in generated.items()}
    return generated

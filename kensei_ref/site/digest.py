"""The printable rules digest: the quick reference, then the odds players ask for most.

The odds come from :mod:`kensei_ref.site.digest_odds` (every cell computed by a calculator); this
module formats them for one language and lays out the page. Each table links to its calculator
with the scenario of one of its cells; in the browser ``digest.js`` turns the link into an absolute
address and draws its QR code with the pinned ``qrcode-generator`` package, which
the build copies it from ``node_modules`` into the site (no CDN).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from urllib.parse import urljoin

from kensei_ref.languages import site_folder
from kensei_ref.numbers import Numbers
from kensei_ref.rules.model import RuleBook
from kensei_ref.site.digest_odds import OddsTable, odds_tables
from kensei_ref.site.pages import PageContext, calculator_link, environment, has_quick_reference, quick_reference_tables

DIGEST_PAGE = "digest.md"

QRCODE_TARGET = Path("assets") / "vendor" / "qrcode.js"
"""Where the build puts the pinned QR code generator (see ``kensei_ref.build.vendor``)."""
"""Where the QR code generator lies in each language's part of the built site (with its other assets)."""


def _format(value: float | Fraction, kind: str, numbers: Numbers) -> str:
    return numbers.percent(value) if kind == "probability" else numbers.decimal(value, 2)


def _site_path(lang: str, href: str) -> str:
    """A link of the digest page as a path from the site's root (``fr/calculators/regroup/?honor=6``)."""
    page_url = "/" + site_folder(lang) + DIGEST_PAGE.removesuffix(".md") + "/"
    return urljoin(page_url, href).removeprefix("/")


def table_view(ctx: PageContext, table: OddsTable) -> dict:
    """One odds table formatted in the page's language, with its link and the cell that link shows."""
    _ = ctx.language.gettext
    href = calculator_link(ctx, table.calculator, table.link_inputs)
    published = calculator_link(replace(ctx, directory_urls=True), table.calculator, table.link_inputs)
    key_row, key_column = table.key_cell
    return {
        "key": table.key,
        "calculator": table.calculator,
        "caption": _(table.caption),
        "note": _(table.note) % table.note_values,
        "row_heading": _(table.row_heading),
        "column_group": _(table.column_group) if table.column_group else "",
        "columns": [c.heading if c.value is not None else _(c.heading) for c in table.columns],
        "rows": [
            {
                "value": row,
                "cells": [
                    {
                        "text": _format(column.cell(row), column.kind, ctx.language.numbers),
                        "key": row == key_row and index == key_column,
                    }
                    for index, column in enumerate(table.columns)
                ],
            }
            for row in table.rows
        ],
        "href": href,
        "site_path": _site_path(ctx.lang, published),  # the published site serves pages as folders
        "figure": table.figure,
    }


def digest_page(book: RuleBook, lang: str, site_url: str = "", *, directory_urls: bool = True) -> str:
    """The Markdown (with HTML tables) of the digest in ``lang``.

    Args:
        site_url: the site's public address (``site_url`` in ``mkdocs.yml``), if any: a copy opened
            from ``file://`` then still prints QR codes that lead to the published calculators.
    """
    ctx = PageContext(book, lang, DIGEST_PAGE, directory_urls)
    return (
        environment(lang)
        .get_template("digest.md.j2")
        .render(
            tables=quick_reference_tables(ctx),
            odds=[table_view(ctx, table) for table in odds_tables()],
            site_url=site_url,
            qrcode_src=ctx.url(QRCODE_TARGET.as_posix()),
            script_src=ctx.url("assets/js/digest.js"),  # every language has its own copy of the assets
        )
    )


def digest_pages(book: RuleBook, lang: str, site_url: str = "", *, directory_urls: bool = True) -> dict[str, str]:
    """The digest page of ``lang``, when the data has the rules its quick reference reads."""
    if not has_quick_reference(book):
        return {}
    return {DIGEST_PAGE: digest_page(book, lang, site_url, directory_urls=directory_urls)}

"""The quick reference shows the rules' own values, for every row, in every language."""

from __future__ import annotations

import pytest

from kensei_ref.languages import LANGUAGES
from kensei_ref.site import pages, quickref


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_cell_comes_from_its_rule(book, lang):
    views = quickref.tables(book, lang)
    assert len(views) == len(quickref.TABLES)
    for spec, view in zip(quickref.TABLES, views, strict=True):
        for (_, cells), row in zip(spec.rows, view["rows"], strict=True):
            for cell, shown in zip(cells, row["cells"], strict=True):
                if cell is None:
                    assert shown == "–"
                    continue
                values = book.rule(cell.rule).values
                number = values.get(cell.key, None)
                stated = number is not None
                if number is None:
                    number = book.rule(cell.fallback).values[cell.key]
                expected = quickref.format_value(number, spec.unit, lang)
                expected = (quickref.AT_LEAST_MARK if cell.at_least else "") + expected
                assert shown == expected + ("" if stated else quickref.DERIVED_MARK)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_derived_and_minimum_figures_are_marked_and_explained(book, lang):
    """A house's Wounds come from the small constructions' defaults, and a large construction holds 4 models
    or more: the table says so instead of showing them as the rules' own figures."""
    table = next(t for t in quickref.tables(book, lang) if t["rows"][0]["rule"] == "kensei.small-constructions")
    rows = {row["rule"]: row["cells"] for row in table["rows"]}
    for rule_id in ("kensei.house", "kensei.pagoda", "kensei.castle", "kensei.clan-castle"):
        assert rows[rule_id][0].endswith(quickref.DERIVED_MARK), rule_id
    assert not rows["kensei.small-constructions"][0].endswith(quickref.DERIVED_MARK)
    assert rows["kensei.large-constructions"][2].startswith(quickref.AT_LEAST_MARK)
    assert len(table["notes"]) == 2


def test_the_page_links_each_row_to_its_rule(book):
    page = pages.site_pages(book, "ru", calculators=set())[pages.QUICK_REFERENCE_PAGE]
    for rule_id in quickref.RULES_USED:
        assert f"#{rule_id})" in page, rule_id
    assert "| +2 | +2 | +2 |" in page  # heavy cover: ranged Attack, melee Defense and Initiative
    assert "| \u22121 |" in page  # short range, with a true minus sign


def test_a_changed_value_changes_the_table(book):
    """The numbers are read from the data, not typed into the tables."""
    import dataclasses
    from types import MappingProxyType

    rule = book.rule("kensei.movement")
    changed = dataclasses.replace(rule, values=MappingProxyType({**rule.values, "cavalry": 17}))
    chapters = tuple(
        dataclasses.replace(c, rules=tuple(changed if r.id == rule.id else r for r in c.rules)) for c in book.chapters
    )
    other = dataclasses.replace(book, chapters=chapters)
    cells = [row["cells"][0] for table in quickref.tables(other, "en") for row in table["rows"]]
    assert "17\u00a0cm" in cells

"""Page generation: the Markdown made from a small sample data set equals the committed snapshot.

Set ``UPDATE_SNAPSHOTS=1`` to rewrite the snapshots after an intended change, then review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kensei_ref.languages import LANGUAGES
from kensei_ref.rules.loader import load
from kensei_ref.site import pages

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SNAPSHOTS = FIXTURES / "snapshots"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_generated_markdown_matches_snapshot(lang):
    book = load(FIXTURES / "sample_data")
    generated = pages.site_pages(book, lang, calculators={"regroup"})
    expected_dir = SNAPSHOTS / lang
    if os.environ.get("UPDATE_SNAPSHOTS"):
        for path, text in generated.items():
            (expected_dir / path).parent.mkdir(parents=True, exist_ok=True)
            (expected_dir / path).write_text(text, encoding="utf-8")
    expected = {
        p.relative_to(expected_dir).as_posix(): p.read_text(encoding="utf-8") for p in expected_dir.rglob("*.md")
    }
    assert sorted(generated) == sorted(expected)
    for path, text in generated.items():
        assert text == expected[path], f"{lang}/{path} differs from its snapshot"


def test_references_resolve_in_the_page_language():
    book = load(FIXTURES / "sample_data")
    ru = pages.site_pages(book, "ru", calculators=set())["kensei/sample.md"]
    assert '[полководца](../glossary.md#general "Предводитель армии.")' in ru
    assert "[Вторая попытка](sample.md#kensei.try-again)" in ru
    assert "стоит 3 минус \u22121" in ru  # {value:other#key} and {signed:key}, with a true minus sign
    fr = pages.site_pages(book, "fr", calculators=set())["kensei/sample.md"]
    assert "[la seconde tentative](sample.md#kensei.try-again)" in fr


def test_stale_translation_shows_a_notice_only_where_stale():
    book = load(FIXTURES / "sample_data")
    ru = pages.site_pages(book, "ru", calculators=set())["kensei/sample.md"]
    fr = pages.site_pages(book, "fr", calculators=set())["kensei/sample.md"]
    en = pages.site_pages(book, "en", calculators=set())["kensei/sample.md"]
    assert ru.count("!!! warning") == 1  # only kensei.try-again's Russian is stale in the sample
    assert "!!! warning" not in fr
    assert "!!! warning" not in en


def test_unchecked_examples_have_no_mark():
    book = load(FIXTURES / "sample_data")
    en = pages.site_pages(book, "en", calculators=set())["kensei/sample.md"]
    assert "checked" not in en

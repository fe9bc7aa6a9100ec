"""A reader's note on a source text (the French printed in chapter 8 of the rulebook): loaded in every
language, its references checked, and shown with its text on the sources page of every language."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kensei_ref.languages import LANGUAGES
from kensei_ref.rules.loader import DataError, load
from kensei_ref.site import pages

SAMPLE_DATA = Path(__file__).resolve().parent / "fixtures" / "sample_data"
SECTIONS = "      - 8.3.2 Regroup Units Running Away\n"


def _with_note(tmp_path: Path, note: str) -> Path:
    data = tmp_path / "data"
    shutil.copytree(SAMPLE_DATA, data)
    sources = data / "sources.yaml"
    text = sources.read_text(encoding="utf-8")
    assert SECTIONS in text
    sources.write_text(text.replace(SECTIONS, SECTIONS + note, 1), encoding="utf-8")
    return data


def test_a_source_note_is_shown_after_its_text_in_every_language(tmp_path):
    note = "    note:\n" + "".join(
        f"      {lang}: {words} {{rule:kensei.try-again}}.\n"
        for lang, words in (("en", "See"), ("fr", "Voir"), ("ru", "См."), ("es", "Véase"))
    )
    book = load(_with_note(tmp_path, note))
    assert book.source("002").note is not None
    for lang, words in zip(LANGUAGES, ("See [", "Voir [", "См. «[", "Véase ["), strict=True):  # Russian quotes a title
        page = pages.sources_page(book, lang)
        title = book.source("002").title[lang]
        assert page.index(title) < page.index(words) < page.index("sample-ref")
        assert "(kensei/sample.md#kensei.try-again)" in page


@pytest.mark.parametrize(
    ("note", "problem"),
    [
        pytest.param(
            "    note:\n      en: See {rule:kensei.nowhere}.\n      fr: Voir.\n      ru: См.\n      es: Véase.\n",
            "sources.yaml: texts[002].note.en: reference to unknown rule 'kensei.nowhere'",
            id="unknown-rule",
        ),
        pytest.param(
            "    note:\n      en: See.\n      fr: Voir.\n",
            "texts[0].note.ru: missing language",
            id="missing-language",
        ),
    ],
)
def test_a_source_note_is_checked_like_rule_text(tmp_path, note, problem):
    with pytest.raises(DataError) as caught:
        load(_with_note(tmp_path, note))
    assert problem in str(caught.value)


def test_chapter_8_has_a_note_for_readers_of_its_french_text():
    book = load()
    note = book.source("002").note
    assert note is not None
    for point in ("Sur le jeu", "l'appareil", "à gauche", "Afin échoué", "décrets", "par le Taisho"):
        assert all(point in note[lang] for lang in LANGUAGES), point
    french = pages.sources_page(book, "fr")
    assert "(kensei/orders.md#kensei.strategic-orders)" in french
    assert french.index("Le texte français du chapitre 8") > french.index(book.source("002").title["fr"])

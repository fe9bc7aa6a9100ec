"""Interface languages: the catalogs translate every string the code and templates use."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from kensei_ref.languages import TRANSLATED

ROOT = Path(__file__).resolve().parent.parent
LOCALES = ROOT / "locales"


def _catalog(lang: str):
    with open(LOCALES / lang / "LC_MESSAGES" / "messages.po", "rb") as handle:
        return read_po(handle, locale=lang)


@pytest.fixture(scope="module")
def extracted(tmp_path_factory):
    """What extraction finds now, in a fresh template (the committed one may be stale)."""
    pot = tmp_path_factory.mktemp("pot") / "messages.pot"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "babel.messages.frontend",
            "extract",
            "-F",
            "babel.cfg",
            "-k",
            "N_",
            "-k",
            "Nn_:1,2",
            "-k",
            "Np_:1c,2",
            "--no-location",
            "-o",
            str(pot),
            ".",
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    with open(pot, "rb") as handle:
        return read_po(handle)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_catalog_has_no_untranslated_or_fuzzy_entry(lang):
    catalog = _catalog(lang)
    problems = []
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings):
            problems.append(f"untranslated: {message.id!r}")
        if message.fuzzy:
            problems.append(f"fuzzy: {message.id!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_extraction_finds_nothing_the_catalog_lacks(extracted, lang):
    catalog = _catalog(lang)
    missing = [(m.context, m.id) if m.context else m.id for m in extracted if m.id and not catalog.get(m.id, m.context)]
    assert not missing, f"{lang} lacks {missing} (run `make translations` and translate)"
    assert len([m for m in extracted if m.id]) > 10


def test_russian_catalog_has_three_plural_forms():
    catalog = _catalog("ru")
    assert catalog.num_plurals == 3
    assert "nplurals=3" in catalog.plural_forms


def test_every_french_string_follows_french_typography():
    """No-break spaces before : ; ! ? and inside « », one apostrophe, a true minus, 15 cm (french_typography)."""
    from french_typography import problems

    found = []
    for message in _catalog("fr"):
        if message.id:
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            found += [f"{message.id!r}: {problem}" for text in strings for problem in problems(text)]
    assert found == []


def test_every_label_and_text_is_composed_through_the_catalog():
    """A label and its text are joined by the catalog's "{label}: {text}", never by a colon in code:
    French writes a no-break space before it (the terminal's help wrote 94 "Label:" without one)."""
    composed = re.compile(r"""f["'][^"'\n]*\}: \{""")
    sources = [*(ROOT / "kensei_ref" / "cli").glob("*.py"), *(ROOT / "kensei_ref" / "site").glob("*.py")]
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sources
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if composed.search(line)
    ]
    assert found == []

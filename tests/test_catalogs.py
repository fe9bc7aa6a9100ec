"""Interface languages: the catalogs translate every string the code and templates use."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

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


@pytest.mark.parametrize("lang", ["fr", "ru"])
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


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_extraction_finds_nothing_the_catalog_lacks(extracted, lang):
    catalog = _catalog(lang)
    missing = [m.id for m in extracted if m.id and m.id not in catalog]
    assert not missing, f"{lang} lacks {missing} (run `make translations` and translate)"
    assert len([m for m in extracted if m.id]) > 10


def test_russian_catalog_has_three_plural_forms():
    catalog = _catalog("ru")
    assert catalog.num_plurals == 3
    assert "nplurals=3" in catalog.plural_forms

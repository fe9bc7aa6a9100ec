"""Never English in place of a missing catalog: a checkout with nothing built compiles its ``.po`` in memory,
and a catalog missing altogether is refused in one line."""

from __future__ import annotations

import gettext
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli_capture import run_cli

from kensei_ref import languages
from kensei_ref.cli.main import main
from kensei_ref.languages import TRANSLATED

ROOT = Path(__file__).resolve().parent.parent

ENGLISH_HEADINGS = ("Worked example", "Reading of the rules", "See also", "The sources are silent")


@pytest.fixture(scope="module")
def fresh_clone(tmp_path_factory) -> Path:
    """The committed files only (as a clone has them, with this checkout's changes): no compiled catalog."""
    clone = tmp_path_factory.mktemp("clone")
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True).stdout
    for name in filter(None, tracked.decode().split("\0")):
        if (ROOT / name).is_file():
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ROOT / name, clone / name)
    assert not list(clone.rglob("*.mo"))
    return clone


def _terminal(clone: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """``python -m kensei_ref`` run from the clone (its package first on the path), with a cache of its own."""
    environ = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LANG": "C.UTF-8",
        "XDG_CACHE_HOME": str(clone / ".cache"),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    return subprocess.run(
        [sys.executable, "-m", "kensei_ref", *argv], cwd=clone, env=environ, capture_output=True, text=True
    )


def _catalog_of(clone: Path, lang: str) -> gettext.GNUTranslations:
    return languages._compile_in_memory(clone / "locales" / lang / "LC_MESSAGES" / "messages.po", lang)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_fresh_clone_speaks_french_and_russian(fresh_clone, lang):
    result = _terminal(fresh_clone, "--lang", lang, "rule", "8.3.2")
    assert result.returncode == 0, result.stderr
    catalog = _catalog_of(fresh_clone, lang)
    for heading in ("Worked example", "Reading of the rules"):
        assert catalog.gettext(heading) != heading
        assert catalog.gettext(heading) in result.stdout
    assert [heading for heading in ENGLISH_HEADINGS if heading in result.stdout] == []
    assert not list(fresh_clone.rglob("*.mo")), "compiled in memory, not written into the clone"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_fresh_clone_answers_help_and_calculators_in_the_language(fresh_clone, lang):
    help_text = _terminal(fresh_clone, "--lang", lang, "--help")
    assert help_text.returncode == 0, help_text.stderr
    assert "show a rule" not in help_text.stdout
    assert _catalog_of(fresh_clone, lang).gettext("show a rule") in help_text.stdout
    calc = _terminal(fresh_clone, "--lang", lang, "calc", "regroup", "--honor", "6", "--attempts", "2")
    assert calc.returncode == 0, calc.stderr
    assert re.search(r"\b84\s%", calc.stdout), calc.stdout  # both attempts: 1 - 0.4 x 0.4
    assert _catalog_of(fresh_clone, lang).gettext("Regroup") in calc.stdout


@pytest.fixture
def no_catalogs(tmp_path, monkeypatch):
    """A package whose catalogs are gone, compiled and source alike."""
    monkeypatch.setattr(languages, "LOCALE_DIR", tmp_path / "locales")
    languages.get_translations.cache_clear()
    yield
    languages.get_translations.cache_clear()


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_missing_catalog_is_refused_in_one_line(no_catalogs, capsys, monkeypatch, tmp_path, lang):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    status, out, err = run_cli(main, capsys, "--lang", lang, "rule", "8.3.2")
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and "make translations" in err and languages.BY_CODE[lang].name in err


def test_english_needs_no_catalog(no_catalogs, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    status, out, _ = run_cli(main, capsys, "--lang", "en", "rule", "8.3.2")
    assert status == 0 and "Worked example" in out


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_catalog_compiled_in_memory_is_the_compiled_one(lang):
    """What the terminal reads in a fresh clone is what ``make`` compiles (fuzzy entries left out alike)."""
    folder = Path(languages.LOCALE_DIR) / lang / "LC_MESSAGES"
    if not (folder / "messages.mo").is_file():
        pytest.skip("compile the catalogs first (make does)")
    with (folder / "messages.mo").open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    in_memory = languages._compile_in_memory(folder / "messages.po", lang)
    assert in_memory._catalog == compiled._catalog  # type: ignore[attr-defined]

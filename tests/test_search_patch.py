"""The search worker patch: applied in every language's site, and loud when it no longer applies."""

from __future__ import annotations

import re

import pytest
from mkdocs.exceptions import PluginError

from kensei_ref.build import search_patch

LANG_ROOTS = ("", "fr", "ru")


def _worker(tmp_path, code: str):
    folder = tmp_path / "assets" / "javascripts" / "workers"
    folder.mkdir(parents=True)
    path = folder / "search.0000.min.js"
    path.write_text(code, encoding="utf-8")
    return path


def test_every_language_ships_the_patched_worker(built_site):
    site, _ = built_site
    for root in LANG_ROOTS:
        (worker,) = (site / root / "assets" / "javascripts" / "workers").glob("search.*.min.js")
        code = worker.read_text(encoding="utf-8")
        for original, patched in search_patch.PATCHES:
            assert original not in code and code.count(patched) == 1, worker


def test_patching_twice_changes_nothing(tmp_path):
    code = "a" + "".join(original for original, _ in search_patch.PATCHES) + "z"
    worker = _worker(tmp_path, code)
    search_patch.apply(tmp_path)
    once = worker.read_text(encoding="utf-8")
    search_patch.apply(tmp_path)
    assert worker.read_text(encoding="utf-8") == once != code


def test_a_changed_worker_fails_the_build(tmp_path):
    _worker(tmp_path, "function transform(){ /* a newer Material */ }")
    with pytest.raises(PluginError, match="search patch no longer applies"):
        search_patch.apply(tmp_path)


def test_the_worker_reads_only_settings_the_build_writes():
    """Every setting the worker's added code reads (krSettings.x, and the ranking's figures) is one the
    build writes: a misspelt name would be undefined in JavaScript, and every score NaN."""
    code = search_patch.RANKING.read_text(encoding="utf-8") + search_patch.RULE_RANKING.read_text(encoding="utf-8")
    settings = set(re.findall(r"krSettings\.(\w+)", code))
    assert settings and settings <= set(search_patch.SETTINGS), settings - set(search_patch.SETTINGS)
    figures = set(re.findall(r"\bf\.(\w+)|this\.figures\.(\w+)", code))
    figures = {name for pair in figures for name in pair if name}
    for names in re.findall(r"const \{ ([\w, ]+) \} = this\.figures", code):
        figures |= set(names.split(", "))
    ranking = set(search_patch.SETTINGS["ranking"])
    assert figures and figures <= ranking, figures - ranking

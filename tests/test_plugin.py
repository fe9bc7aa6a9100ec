"""The kensei-ref plugin's options and what ``mkdocs serve`` rebuilds, without building a site."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from mkdocs.config.base import ValidationError

from kensei_ref.build.config import KenseiRefConfig
from kensei_ref.build.inputs import Fingerprints
from kensei_ref.languages import LANGUAGES, TRANSLATED


def _validate(options: dict) -> tuple[KenseiRefConfig, list]:
    config = KenseiRefConfig()
    config.load_dict(options)
    errors, _warnings = config.validate()
    return config, errors


def test_defaults_build_every_language_with_the_offline_copy():
    config, errors = _validate({})
    assert not errors
    assert config.languages == list(LANGUAGES)
    assert config.offline_copy is True
    assert config.rule_data is None


@pytest.mark.parametrize(
    ("options", "field"),
    [
        pytest.param({"languages": ["en", "de"]}, "languages", id="unknown-language"),
        pytest.param({"offline_copy": "sometimes"}, "offline_copy", id="not-a-boolean"),
        pytest.param({"rule_data": "/nowhere/at/all"}, "rule_data", id="missing-data-folder"),
        pytest.param({"site_url": "not an address"}, "site_url", id="bad-address"),
    ],
)
def test_bad_options_name_their_field(options, field):
    _config, errors = _validate(options)
    assert [name for name, error in errors] == [field]
    assert all(isinstance(error, ValidationError) for _name, error in errors)


def _touch(path: Path, text: str, when: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(when, when))


def test_serve_rebuilds_only_the_languages_a_change_touches(tmp_path):
    data, docs = tmp_path / "data", tmp_path / "docs"
    _touch(data / "rules.yaml", "a", 1)
    for lang in TRANSLATED:
        _touch(docs / lang / "index.md", lang, 1)
    inputs = Fingerprints([data])
    assert inputs.changed_languages(docs, TRANSLATED) == set(TRANSLATED)  # first build: everything
    assert inputs.changed_languages(docs, TRANSLATED) == set()  # nothing saved since
    _touch(docs / "ru" / "index.md", "ru, edited", 2)
    assert inputs.changed_languages(docs, TRANSLATED) == {"ru"}  # one language's page
    _touch(data / "rules.yaml", "b", 3)
    assert inputs.changed_languages(docs, TRANSLATED) == set(TRANSLATED)  # the rule data: every language
    _touch(docs / "fr" / "new.md", "new", 4)
    assert inputs.changed_languages(docs, TRANSLATED) == {"fr"}  # a new page


def test_serve_rebuilds_the_languages_whose_rule_texts_changed(tmp_path, book):
    from dataclasses import replace

    from kensei_ref.rules.model import Text
    from kensei_ref.rules.projection import language_digest

    docs = tmp_path / "docs"
    inputs = Fingerprints([])
    languages = TRANSLATED
    assert inputs.changed_languages(docs, languages, lambda lang: language_digest(book, lang)) == set(TRANSLATED)
    rule = book.rules[0]

    def edited(title: Text):
        chapters = tuple(
            replace(chapter, rules=tuple(replace(r, title=title) if r is rule else r for r in chapter.rules))
            for chapter in book.chapters
        )
        return replace(book, chapters=chapters)

    french = edited(rule.title.with_text("fr", rule.title["fr"] + " (révisé)"))
    assert inputs.changed_languages(docs, languages, lambda lang: language_digest(french, lang)) == {"fr"}
    english = edited(
        rule.title.with_text("fr", rule.title["fr"] + " (révisé)").with_text("en", rule.title["en"] + " (revised)")
    )
    # the English is the source of every translation: each one's "may be out of date" notice can change
    assert inputs.changed_languages(docs, languages, lambda lang: language_digest(english, lang)) == set(TRANSLATED)
    # under serve that notice waits for the next build: only the language whose own text changed is rebuilt
    serve = Fingerprints([])
    assert serve.changed_languages(docs, languages, lambda lang: language_digest(book, lang, with_source=False))
    only_english = edited(rule.title.with_text("en", rule.title["en"] + " (revised)"))

    def serve_digest(edited_book):
        return lambda lang: language_digest(edited_book, lang, with_source=False)

    assert serve.changed_languages(docs, languages, serve_digest(only_english)) == set()
    assert serve.changed_languages(docs, languages, serve_digest(french)) == {"fr"}


def test_serve_keeps_the_other_languages_when_mkdocs_empties_the_site(tmp_path, monkeypatch, book):
    """MkDocs empties the site folder before each rebuild: a language kept as built must come back."""
    import shutil
    from types import SimpleNamespace

    from kensei_ref.build.plugin import KenseiRefPlugin

    plugin = KenseiRefPlugin()
    plugin.load_config({})
    plugin.serving, plugin.book, plugin.lang = True, book, "en"
    built = []

    def fake_build(config, lang, folder, *, archive):
        built.append(lang)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "index.html").write_text(f"{lang} {len(built)}", encoding="utf-8")

    monkeypatch.setattr(plugin, "_build_language", fake_build)
    config = SimpleNamespace(docs_dir=str(tmp_path / "docs" / "en"))
    site = tmp_path / "site"
    try:
        plugin._build_other_languages(config, site)
        assert built == list(TRANSLATED)
        shutil.rmtree(site)  # what MkDocs does before a rebuild
        plugin._build_other_languages(config, site)
        assert built == list(TRANSLATED), "nothing changed: nothing is built again"
        assert (site / "fr" / "index.html").read_text(encoding="utf-8") == "fr 1"
        assert (site / "ru" / "index.html").read_text(encoding="utf-8") == "ru 2"
    finally:
        plugin.on_shutdown()


@pytest.mark.parametrize("serving", [False, True])
def test_pages_carry_the_policy_except_under_serve_whose_live_reload_writes_inline_script(tmp_path, monkeypatch,
                                                                                           serving):  # fmt: skip
    """``mkdocs serve`` injects a script that changes with every page served: a policy would block it."""
    from types import SimpleNamespace

    from kensei_ref.build import csp, offline, search_index, search_patch, vendor
    from kensei_ref.build.plugin import KenseiRefPlugin

    plugin = KenseiRefPlugin()
    plugin.load_config({})
    plugin.serving, plugin.lang, plugin.book = serving, "fr", SimpleNamespace()
    applied = []
    monkeypatch.setattr(csp, "apply", lambda site, skip=(): applied.append(site))
    stubbed = (
        (search_patch, "apply"),
        (search_index, "tidy"),
        (offline, "write_web_manifest"),
        (vendor, "install_qrcode"),
    )
    for module, name in stubbed:
        monkeypatch.setattr(module, name, lambda *args, **kwargs: None)
    monkeypatch.setattr(plugin, "_is_root", lambda: False)  # a nested language's build ends there
    config = SimpleNamespace(site_dir=str(tmp_path), config_file_path=str(tmp_path / "mkdocs.yml"))
    plugin.on_post_build(config=config)
    assert applied == ([] if serving else [tmp_path])

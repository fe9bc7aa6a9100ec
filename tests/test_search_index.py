"""The search index a build leaves for each language (kensei_ref/build/search_index.py): rules keep
their text and are found by their names and players' words, results show no keywords or labels, pages
that are not rules stay out, and each language's index stays light."""

from __future__ import annotations

import json

import pytest

from kensei_ref.build import search_index
from kensei_ref.build.search_patch import LANGUAGE_KEY
from kensei_ref.languages import LANGUAGES, get_translations, site_folder

LANG_ROOTS = {lang: site_folder(lang).rstrip("/") for lang in LANGUAGES}
MAX_INDEX_BYTES = 400 * 1024
"""A language's search index at most (UTF-8: a Russian letter weighs two bytes). The Russian index had reached
410 KiB as the clarifications grew; their sections, which repeat the rules' notes, left the index."""


def _index(tmp_path, docs: list[dict], offline: bool = False):
    folder = tmp_path / "search"
    folder.mkdir()
    config = {"lang": ["en"], "fields": {"title": {"boost": 10}, "text": {"boost": 1}}}
    (folder / "search_index.json").write_text(json.dumps({"config": config, "docs": docs}), encoding="utf-8")
    if offline:
        (folder / "search_index.js").write_text("var __index = {}", encoding="utf-8")
    return folder


def _rule_doc(lang: str) -> dict:
    label = get_translations(lang).gettext
    return {
        "location": "kensei/generic-actions/#kensei.action-points",
        "title": "Action points",
        "text": "<p>kensei.action-points Action Point point d'action очко действия</p> "
        "<p>Every action has a price in action points.</p> <ul> <li>Infantry 2</li> </ul> "
        f"<p>{label('Worked example')} · from the rules · ✓ {label('checked with the calculator')}</p> "
        "<p>Four archers roll.</p> "
        f"<p>{label('Source:')} Kensei, “Firing”</p> <p>{label('Open in the calculator')}</p> "
        f"<p>{label('Reading of the rules')}</p> <p>Read so.</p> <p>{label('Clarifications and conflicts')}</p> "
        f"<p>{label('Source:')} Kensei {label('Rule id:')} <code>kensei.action-points</code></p>",
    }


@pytest.mark.parametrize("lang", LANG_ROOTS)
def test_a_rule_keeps_its_text_and_gains_names(tmp_path, book, lang):
    folder = _index(tmp_path, [_rule_doc(lang)])
    search_index.tidy(tmp_path, book, lang)
    index = json.loads((folder / "search_index.json").read_text(encoding="utf-8"))
    (doc,) = index["docs"]
    assert doc["text"] == (
        "<p>Every action has a price in action points.</p> <ul> <li>Infantry 2</li> </ul> <p>Four archers roll.</p> "
        "<p>Read so.</p>"
    )
    # the terminal's fields (rules.search.rule_fields), one name a line, for the worker's ranking
    assert doc["keywords"].split("\n")[:2] == ["kensei.action-points", "Action Point"]
    abbreviation = {"en": "AP", "fr": "PA", "ru": "ОД", "es": "PA"}
    others = [x for x in LANGUAGES if x != lang]
    names = doc["names"].split("\n")
    titles = {"en": "Action points", "fr": "Points d'action", "ru": "Очки действия", "es": "Puntos de acción"}
    assert names[: len(others)] == [titles[x] for x in others]  # its title in the other languages
    assert {abbreviation[x] for x in others} <= set(names)
    assert abbreviation[lang] in doc["aliases"]
    assert abbreviation[lang] not in names or abbreviation[lang] in {abbreviation[x] for x in others}
    assert index["config"]["fields"]["names"] == {"boost": search_index.FIELDS["names"]}
    assert index["config"][LANGUAGE_KEY] == lang
    # its worked example and its note are weighed apart from its text, as the terminal's ``extra`` field
    assert doc["text"][: doc[search_index.BODY_END]] == (
        "<p>Every action has a price in action points.</p> <ul> <li>Infantry 2</li> </ul> "
    )


def test_where_a_rules_examples_begin_is_counted_as_the_worker_counts(tmp_path, book):
    """In UTF-16 units, as a JavaScript string is sliced: a letter outside the Basic Multilingual Plane
    before the examples counts two."""
    doc = _rule_doc("en")
    doc["text"] = doc["text"].replace("Every action", "𝟐 Every action")
    folder = _index(tmp_path, [doc])
    search_index.tidy(tmp_path, book, "en")
    (tidied,) = json.loads((folder / "search_index.json").read_text(encoding="utf-8"))["docs"]
    end = tidied[search_index.BODY_END]
    utf16 = tidied["text"].encode("utf-16-le")
    assert utf16[2 * end :].decode("utf-16-le").startswith("<p>Four archers roll.</p>")
    assert end == len(tidied["text"].split("<p>Four")[0]) + 1


def test_a_rule_without_examples_or_notes_has_no_place_for_them(tmp_path, book):
    doc = {"location": "kensei/generic-actions/#kensei.action-points", "title": "Action points", "text": "<p>Text.</p>"}
    folder = _index(tmp_path, [doc])
    search_index.tidy(tmp_path, book, "en")
    (tidied,) = json.loads((folder / "search_index.json").read_text(encoding="utf-8"))["docs"]
    assert tidied["text"] == "<p>Text.</p>" and search_index.BODY_END not in tidied


def test_pages_that_are_not_rules_leave_the_index(tmp_path, book):
    docs = [
        {"location": "calculators/shooting/", "title": "Shooting", "text": "<p>nonelight coverheavy cover</p>"},
        {"location": "benchmarks/#x", "title": "Benchmarks", "text": "<p>melee 12 ms</p>"},
        {"location": "clarifications/", "title": "Clarifications", "text": "<p>Where the texts are unclear.</p>"},
        {"location": "clarifications/#x", "title": "Reading", "text": "<p>Ki</p>"},  # in its rule's entry too
        {"location": "digest/#x", "title": "Digest", "text": "<p>Ki</p>"},
    ]
    folder = _index(tmp_path, docs)
    search_index.tidy(tmp_path, book, "en")
    index = json.loads((folder / "search_index.json").read_text(encoding="utf-8"))
    assert [doc["location"] for doc in index["docs"]] == ["clarifications/", "digest/#x"]
    assert {doc["boost"] for doc in index["docs"]} == {search_index.OTHER_PAGE_BOOST}  # a rule comes first


def test_the_glossary_becomes_one_entry_per_term(tmp_path, book):
    page = {"location": "glossary/", "title": "Глоссарий", "text": "<p>Все термины.</p> English Definition ..."}
    folder = _index(tmp_path, [page, {"location": "glossary/#ki", "title": "Ки", "text": "..."}])
    search_index.tidy(tmp_path, book, "ru")
    docs = {doc["location"]: doc for doc in json.loads((folder / "search_index.json").read_text())["docs"]}
    assert docs["glossary/"]["text"] == "<p>Все термины.</p>"
    assert len(docs) == 1 + len(book.terms)
    point = docs["glossary/#action-point"]
    assert point["title"] == "очко действия"
    assert point["text"].startswith("<p>") and "{" not in point["text"]
    assert {"AP", "PA", "ОД", "Action"} <= set(point["names"].split())


def test_tidying_twice_changes_nothing_and_the_offline_index_follows(tmp_path, book):
    folder = _index(tmp_path, [_rule_doc("ru")], offline=True)
    search_index.tidy(tmp_path, book, "ru")
    once = (folder / "search_index.json").read_text(encoding="utf-8")
    search_index.tidy(tmp_path, book, "ru")
    assert (folder / "search_index.json").read_text(encoding="utf-8") == once
    assert (folder / "search_index.js").read_text(encoding="utf-8") == f"var __index = {once}"
    assert "очко действия" in once  # written as UTF-8, not escaped


# -- the built site -----------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANG_ROOTS)
def test_each_language_has_a_light_and_clean_index(built_site, book, lang):
    site, _ = built_site
    path = site / LANG_ROOTS[lang] / "search" / "search_index.json"
    assert path.stat().st_size <= MAX_INDEX_BYTES, f"{lang}: {path.stat().st_size} bytes"
    docs = json.loads(path.read_text(encoding="utf-8"))["docs"]
    assert not [doc["location"] for doc in docs if doc["location"].startswith(search_index.LEFT_OUT)]
    ids = {rule.id for rule in book.rules}
    rules = [doc for doc in docs if doc["location"].partition("#")[2] in ids]
    assert len(rules) == len(ids)
    shown = [doc["location"] for doc in rules if "kensei." in doc["text"] or "ronin." in doc["text"]]
    assert not shown, f"{lang}: rule ids shown in the results of {shown[:5]}"
    assert all(doc["names"] and doc["keywords"] for doc in rules)

"""Players' words for rules and terms (kensei_ref/rules/data/aliases.yaml): the loader checks them,
and both the terminal search and the glossary lookup find what they name."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kensei_ref.languages import LANGUAGES
from kensei_ref.rules import search
from kensei_ref.rules.loader import ALIAS_LETTERS, DataError, load

SAMPLE_DATA = Path(__file__).resolve().parent / "fixtures" / "sample_data"


def _with_aliases(tmp_path: Path, text: str) -> Path:
    data = tmp_path / "data"
    shutil.copytree(SAMPLE_DATA, data)
    (data / "aliases.yaml").write_text(text, encoding="utf-8")
    return data


def test_sample_aliases_load(tmp_path):
    data = _with_aliases(
        tmp_path, "aliases:\n  kensei.points:\n    en: [CP, command  points]\n  general: {ru: [генерал]}\n"
    )
    book = load(data)
    assert book.aliases_of("kensei.points", "en") == ("CP", "command points")
    assert book.aliases_of("general", "ru") == ("генерал",)
    assert book.aliases_of("kensei.points", "fr") == ()


def test_without_an_aliases_file_nothing_has_aliases():
    assert load(SAMPLE_DATA).aliases == {}


BAD_ALIASES = [
    pytest.param(
        "aliases:\n  kensei.nowhere: {en: [x]}\n  generalissimo: {fr: [y]}\n",
        [
            "data/aliases.yaml: aliases[kensei.nowhere]: unknown rule 'kensei.nowhere'",
            "data/aliases.yaml: aliases[generalissimo]: unknown glossary term 'generalissimo'",
        ],
        id="unknown-id",
    ),
    pytest.param(
        "aliases:\n  kensei.points: {de: [KP]}\n",
        ["data/aliases.yaml: aliases[kensei.points].de: unknown language 'de' (allowed: en, fr, ru, es)"],
        id="wrong-language",
    ),
    pytest.param(
        f"aliases:\n  kensei.points: {{en: [{'word ' * 10}]}}\n",
        [f"data/aliases.yaml: aliases[kensei.points].en[0]: too long (49 letters, at most {ALIAS_LETTERS})"],
        id="too-long",
    ),
    pytest.param(
        "aliases:\n  kensei.points: {en: CP}\n  general: {fr: [PC, pc]}\n",
        [
            "data/aliases.yaml: aliases[kensei.points].en: must be a non-empty list of aliases",
            "data/aliases.yaml: aliases[general].fr[1]: repeated alias 'pc'",
        ],
        id="not-a-list-and-repeated",
    ),
    pytest.param(
        "aliases:\n  kensei.points: {en: ['<b>CP</b>', '']}\n",
        [
            "data/aliases.yaml: aliases[kensei.points].en[0]: raw HTML is not allowed",
            "data/aliases.yaml: aliases[kensei.points].en[1]: must be a non-empty string",
        ],
        id="markup-and-empty",
    ),
    pytest.param(
        "aliases: [CP]\n",
        ["data/aliases.yaml: aliases: must be a mapping of rule or glossary term ids"],
        id="not-a-mapping",
    ),
    pytest.param(
        "alias:\n  kensei.points: {en: [CP]}\n",
        ["data/aliases.yaml: missing key 'aliases'", "data/aliases.yaml: unknown key 'alias'"],
        id="misnamed-key",
    ),
]


@pytest.mark.parametrize(("text", "messages"), BAD_ALIASES)
def test_bad_aliases_are_named_problems(tmp_path, text, messages):
    with pytest.raises(DataError) as error:
        load(_with_aliases(tmp_path, text))
    report = str(error.value)
    for message in messages:
        assert message in report, report
    assert len(error.value.problems) == len(messages), report


ALIAS_QUERIES = [
    ("AP", "en", "kensei.action-points"),
    ("PA", "fr", "kensei.action-points"),
    ("ОД", "ru", "kensei.action-points"),
    ("CP", "en", "kensei.commandment-points"),
    ("PC", "fr", "kensei.commandment-points"),
    ("ОК", "ru", "kensei.commandment-points"),
    ("спасбросок", "ru", "kensei.defense-roll"),
    ("нестись галопом", "ru", "ronin.panic"),
    ("rally", "en", "kensei.regroup"),
    ("AP", "ru", "kensei.action-points"),  # another language's alias
]
"""Players' words, each the name of one rule: asked word for word, they find it first (here and on the site)."""


@pytest.mark.parametrize(("query", "lang", "rule_id"), ALIAS_QUERIES)
def test_an_alias_finds_its_rule_first(query, lang, rule_id):
    assert search.search(query, lang, 1)[0].id == rule_id


NAMING_FLOOR = 0.97
"""Share of the players' words naming one rule that must find it first: a few are the other game's
title too ("buildings" is Ronin's "Buildings" and a word for Kensei's constructions)."""


def naming_words(lang: str) -> list[tuple[str, str]]:
    """Each players' word in ``lang`` (aliases.yaml) that names exactly one rule, with that rule."""
    book = search.bundled_book()
    rules_named: dict[str, list[str]] = {}
    for rule in book.rules:
        for alias in dict.fromkeys(search.rule_aliases(book, rule, lang)):
            rules_named.setdefault(alias.casefold(), []).append(rule.id)
    return [(alias, ids[0]) for alias, ids in rules_named.items() if len(ids) == 1]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_players_word_naming_one_rule_finds_it_first(lang):
    cases = naming_words(lang)
    misses = [(alias, rule_id) for alias, rule_id in cases if search.search(alias, lang, 1)[0].id != rule_id]
    assert len(cases) > 100
    assert 1 - len(misses) / len(cases) >= NAMING_FLOOR, misses


@pytest.mark.parametrize(
    ("name", "term_id"), [("AP", "action-point"), ("ОК", "commandment-point"), ("armour", "armor")]
)
def test_the_glossary_lookup_knows_aliases(name, term_id):
    assert [term.id for term in search.find_terms(search.bundled_book(), name)] == [term_id]


def test_question_words_do_not_drown_the_terms():
    assert search.search("how do I regroup", "en", 1)[0].id == "kensei.regroup"
    assert search.search("comment se regrouper", "fr", 1)[0].id == "kensei.regroup"
    assert search.search("как перегруппироваться", "ru", 1)[0].id == "kensei.regroup"
    assert search.search("when to test morale", "en", 1)[0].id == "ronin.morale-triggers"


GAME_QUERIES = [
    ("movement ronin", "en", "ronin"),
    ("kensei movement", "en", "kensei"),
    ("terrain difficile ronin", "fr", "ronin"),
    ("движение в ронине", "ru", "ronin"),
    ("движение кенсей", "ru", "kensei"),
    ("труднопроходимая местность ронин", "ru", "ronin"),
]
"""Queries that name a game: its rules come first (here and on the site)."""


@pytest.mark.parametrize(("query", "lang", "game"), GAME_QUERIES)
def test_naming_a_game_puts_its_rules_first(query, lang, game):
    assert search.search(query, lang, 1)[0].id.startswith(game + ".")

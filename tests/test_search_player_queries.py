"""The terminal search on queries written as players type them (tests/search_player_queries.yaml):
abbreviations, questions, other wargames' words, no accents, the Russian Ronin text's own words.

Each language's share of queries answered in the top three is printed and must reach 95 %.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from search_hits import assert_hit_rate, query_set_problems

from kensei_ref.languages import LANGUAGES as LANGS
from kensei_ref.rules import search

QUERIES = Path(__file__).resolve().parent / "search_player_queries.yaml"
OLD_QUERIES = Path(__file__).resolve().parent / "search_queries.yaml"
KINDS = {"abbreviation", "question", "other-game", "paraphrase", "game", "no-accents", "source-term", "typo"}
PER_LANGUAGE = 50


def _load(path: Path) -> list[dict]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def queries() -> list[dict]:
    return _load(QUERIES)


def test_query_set_is_well_formed(queries):
    ids = {rule.id for rule in search.bundled_book().rules}
    problems = query_set_problems(queries, ids, KINDS)
    assert not problems, "\n".join(problems)
    for lang in LANGS:
        assert sum(q["lang"] == lang for q in queries) >= PER_LANGUAGE, lang
    pairs = [(q["lang"], q["query"].casefold()) for q in queries]
    assert len(pairs) == len(set(pairs)), "a query is repeated"
    old = {(q["lang"], q["query"].casefold()) for q in _load(OLD_QUERIES)}
    assert not old & set(pairs), f"also in search_queries.yaml: {sorted(old & set(pairs))}"


@pytest.mark.parametrize("lang", LANGS)
def test_hit_rate_per_language(queries, lang):
    assert_hit_rate(queries, lang, "player queries")

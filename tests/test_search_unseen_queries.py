"""The terminal search on queries it was not written for (tests/search_unseen_queries.yaml): written by
players' standards by writers who saw neither the search nor its players' words, and never tuned to.

Each language's share of queries answered in the top three is printed. The project's aim is 95 %, as
on its own query sets; this set is held to UNSEEN_FLOOR, so that no change makes the search worse on
what players will type next. The browser's search is held to the same (tests/test_search_browser.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from search_hits import assert_hit_rate, query_set_problems

from kensei_ref.languages import LANGUAGES as LANGS
from kensei_ref.rules import search

QUERIES = Path(__file__).resolve().parent / "search_unseen_queries.yaml"
KINDS = {"abbreviation", "question", "other-game", "paraphrase", "game", "no-accents", "typo"}
UNSEEN_FLOOR = 0.85
"""Below the 95 % of the project's own sets: measured at 89 to 91 % per language in the terminal and
the browser when this set was added (330 queries), at 95 to 97 % with its six groups (540), and its
seventh group, measured before any change, at 93 to 97 %."""


def unseen_queries() -> list[dict]:
    return yaml.safe_load(QUERIES.read_text(encoding="utf-8"))


def test_query_set_is_well_formed():
    queries = unseen_queries()
    ids = {rule.id for rule in search.bundled_book().rules}
    problems = query_set_problems(queries, ids, KINDS)
    assert not problems, "\n".join(problems)
    assert all(sum(q["lang"] == lang for q in queries) == 210 for lang in LANGS)


@pytest.mark.parametrize("lang", LANGS)
def test_hit_rate_per_language(lang):
    assert_hit_rate(unseen_queries(), lang, "unseen queries", UNSEEN_FLOOR)

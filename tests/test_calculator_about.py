"""Every calculator page and the calculators index say which game each calculator belongs to and
what it answers in one line (``Calculator.question``), in each language; the index groups them by game."""

from __future__ import annotations

import re

import pytest

from calculators import CALCULATORS
from kensei_ref.languages import LANGUAGES, get_translations
from kensei_ref.site.calculator_pages import DEFAULT_SCENARIOS, INDEX_PAGE, calculator_pages, page_path
from kensei_ref.site.pages import GAME_NAMES


@pytest.fixture(scope="module", params=list(LANGUAGES))
def generated(request, book):
    lang = request.param
    return lang, calculator_pages(book, lang, "en")


def _plain(markdown: str) -> str:
    return re.sub(r"<[^>]+>", "", markdown).replace("&#39;", "'").replace("&quot;", '"').replace("&amp;", "&")


def test_each_page_says_its_game_and_question(generated):
    lang, pages = generated
    tr = get_translations(lang).gettext
    for name in DEFAULT_SCENARIOS:
        calculator = CALCULATORS[name]
        question = tr(calculator.question)
        assert calculator.question and (lang == "en" or question != calculator.question), f"{name}: untranslated"
        about = re.search(r'<p class="kr-calc__about">(.*?)</p>', pages[page_path(name)])
        assert about, f"{name} ({lang}): no line saying the game and the question"
        assert _plain(about[1]) == f"{GAME_NAMES[calculator.game]} · {question}"


def test_the_index_groups_the_calculators_by_game(generated):
    lang, pages = generated
    tr = get_translations(lang).gettext
    index = pages[INDEX_PAGE]
    headings = {m[1]: m.start() for m in re.finditer(r"^## (.+)$", index, re.MULTILINE)}
    assert set(headings) == {GAME_NAMES[CALCULATORS[name].game] for name in DEFAULT_SCENARIOS}
    for name in DEFAULT_SCENARIOS:
        calculator = CALCULATORS[name]
        line = next(line for line in index.splitlines() if f"]({name}.md)" in line)
        assert f": {tr(calculator.question)} · " in line, line
        under = max((start, game) for game, start in headings.items() if start < index.index(line))[1]
        assert under == GAME_NAMES[calculator.game], f"{name} listed under {under}"
    assert "ronin" in {CALCULATORS[name].game for name in DEFAULT_SCENARIOS}

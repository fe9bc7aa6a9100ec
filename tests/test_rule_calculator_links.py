"""Rule pages lead to the calculators that answer them (the rule a calculator computes, or a rule one
of its inputs comes from), in the page's language, and a chapter lists its rules at its top for a
screen without the contents sidebar."""

from __future__ import annotations

import re

import pytest

from calculators import CALCULATORS
from kensei_ref.languages import LANGUAGES, get_translations
from kensei_ref.site.pages import chapter_page

LINKED = frozenset(CALCULATORS)


def _section(markdown: str, rule_id: str) -> str:
    marker = f"{{ #{rule_id} .kr-rule }}"
    start = markdown.index(marker)
    after = markdown.find(" .kr-rule }", start + len(marker))
    return markdown[start : after if after > 0 else len(markdown)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_rule_links_the_calculators_that_answer_it(book, lang):
    tr = get_translations(lang).gettext
    cover = book.chapter_of("kensei.cover")
    section = _section(chapter_page(book, cover, lang, set(), LINKED), "kensei.cover")
    line = next(line for line in section.splitlines() if tr("Odds in the calculators:") in line)
    assert f"[{tr(CALCULATORS['shooting'].label)}](../calculators/shooting.md)" in line
    assert f"[{tr(CALCULATORS['melee'].label)}](../calculators/melee.md)" in line
    regroup = book.chapter_of("kensei.regroup")
    section = _section(chapter_page(book, regroup, lang, set(), LINKED), "kensei.regroup")
    assert f"[{tr(CALCULATORS['regroup'].label)}](../calculators/regroup.md)" in section


def test_every_calculator_is_linked_from_the_rule_it_computes(book):
    for name, calculator in CALCULATORS.items():
        chapter = book.chapter_of(calculator.rule_id)
        section = _section(chapter_page(book, chapter, "en", set(), LINKED), calculator.rule_id)
        links = re.findall(r"\]\(\.\./calculators/([\w-]+)\.md\)", section)
        assert name in links, (name, calculator.rule_id, links)


def test_no_calculator_page_no_link(book):
    chapter = book.chapter_of("kensei.cover")
    assert "calculators/" not in _section(chapter_page(book, chapter, "en", set(), frozenset()), "kensei.cover")


def test_a_chapter_lists_its_rules_at_its_top(book):
    chapter = book.chapter_of("kensei.cover")
    markdown = chapter_page(book, chapter, "fr", set(), LINKED)
    contents = markdown[markdown.index('<details class="kr-contents"') : markdown.index("</details>")]
    assert "<summary>Sur cette page</summary>" in contents
    assert [f"(#{rule.id})" in contents for rule in chapter.rules] == [True] * len(chapter.rules)

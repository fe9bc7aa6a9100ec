"""French typography on generated pages: no-break spaces before ``; : ! ?`` and inside « », never in code,
tags, attributes or addresses; English and Russian pages as they were."""

from __future__ import annotations

import re

import pytest

from calculators import CALCULATORS
from kensei_ref.rules.loader import load
from kensei_ref.site import calculator_pages, pages
from kensei_ref.site.generate import generated_pages
from kensei_ref.typography import french_spacing

NBSP = "\u00a0"
NARROW = "\u202f"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("Coût : 2", f"Coût{NBSP}: 2", id="colon"),
        pytest.param("un ; deux", f"un{NARROW}; deux", id="semicolon"),
        pytest.param("Chargez !", f"Chargez{NARROW}!", id="exclamation"),
        pytest.param("Qui frappe ?", f"Qui frappe{NARROW}?", id="question-at-end"),
        pytest.param("dit « non »", f"dit «{NBSP}non{NBSP}»", id="guillemets"),
        pytest.param(f"déjà{NBSP}; fait", f"déjà{NARROW}; fait", id="no-break-space-made-narrow"),
        pytest.param("Ligne :\n- item ;\n- fin.", f"Ligne{NBSP}:\n- item{NARROW};\n- fin.", id="end-of-line"),
        pytest.param("« Taisho » : chef", f"«{NBSP}Taisho{NBSP}»{NBSP}: chef", id="guillemets-then-colon"),
        pytest.param("`x` : y", f"`x`{NBSP}: y", id="after-inline-code"),
        pytest.param(
            '[charge](../g.md#charge "Action ; voir : règle"){: .kr-term } !',
            f'[charge](../g.md#charge "Action{NARROW}; voir{NBSP}: règle"){{: .kr-term }}{NARROW}!',
            id="link-title-is-text",
        ),
        pytest.param("*gras* :", f"*gras*{NBSP}:", id="after-emphasis"),
        pytest.param("vraiment ?!", f"vraiment{NARROW}?!", id="two-marks"),
    ],
)
def test_spaces_before_high_punctuation_become_no_break(text, expected):
    assert french_spacing(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("```\nx = a ? b : c ;\n```", id="fenced-code"),
        pytest.param("`a ? b : c`", id="inline-code"),
        pytest.param('<a href="/x?y=1 ;" title="Titre : oui">', id="html-attributes"),
        pytest.param("<script>var a = b ? c : d ;</script>", id="script"),
        pytest.param("<code>a : b</code> <pre>c ; d</pre>", id="code-elements"),
        pytest.param("<!-- note : plus tard -->", id="comment"),
        pytest.param("[lien](../page.md?q=1 ;x)", id="link-destination"),
        pytest.param("voir https://example.org/a?b=1 :x", id="bare-url"),
        pytest.param('!!! note "Titre"\n    ??? info', id="admonition-markers"),
        pytest.param("![image](a.png)", id="image"),
        pytest.param("| a | b |\n| :--- | ---: |", id="table-alignment"),
        pytest.param("avec :material-check: icône", id="emoji-shortcode"),
        pytest.param("Coût:2 et 10:30", id="no-space-is-not-added"),
        pytest.param("{: .kr-term }", id="attribute-list"),
        pytest.param("- ligne\n: définition", id="definition-list"),
        pytest.param("Ni espace ni ponctuation.", id="plain"),
    ],
)
def test_leaves_alone(text):
    assert french_spacing(text) == text


def test_spacing_twice_changes_nothing_more():
    once = french_spacing("Coût : 2 ; « voir » !")
    assert french_spacing(once) == once


def _reader_text(markdown: str) -> str:
    """What a reader sees of a page, roughly: without code, tags and link destinations."""
    markdown = re.sub(r"```.*?```", "", markdown, flags=re.DOTALL)
    markdown = re.sub(r"<(script|style)\b.*?</\1>", "", markdown, flags=re.DOTALL)
    markdown = re.sub(r"<[^>]*>|`[^`]*`", "", markdown)
    return re.sub(r"\]\([^\s)]*", "](", markdown)


@pytest.fixture(scope="module")
def book():
    return load()


@pytest.mark.parametrize(
    "page",
    ["kensei/orders.md", "kensei/charging.md", "ronin/priority-and-morale.md", "glossary.md", "clarifications.md"],
)
def test_french_pages_have_no_ordinary_space_before_high_punctuation(book, page):
    text = _reader_text(generated_pages(book, "fr", site_url="", directory_urls=True, with_archive=False)[page])
    assert ";" in text and ":" in text
    wrong = re.findall(r".{0,30}(?:[ \t][;:!?](?=\s|$)|«[ \t]|[ \t]»).{0,10}", text, flags=re.MULTILINE)
    assert not wrong, wrong[:10]
    assert f"{NARROW};" in text and f"{NBSP}:" in text


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_english_and_russian_pages_are_untouched(book, lang):
    generated = generated_pages(book, lang, site_url="", directory_urls=True, with_archive=False)
    plain = pages.site_pages(book, lang, set(CALCULATORS), frozenset(calculator_pages.DEFAULT_SCENARIOS))
    for path, markdown in plain.items():
        assert generated[path] == markdown, path
        assert NARROW not in markdown

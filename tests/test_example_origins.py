"""No worked example is shown without saying where it comes from.

Every page the site generates (rules, calculators, digest, quick reference and the rest) is rendered
with the site's Markdown extensions and read as a tree: each worked example there is marked as the
source texts' own (with the text and section it is taken from, linked to the sources page) or as
written for this reference, with its label in the page's language; each "open in the calculator" link
sits in such an example. The built site's pages are read the same way in ``test_site_build.py``.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from page_tree import Element

from kensei_ref.languages import LANGUAGES
from kensei_ref.rules.model import EXAMPLE_ORIGINS, RuleBook

LANGS = LANGUAGES
ROOT = Path(__file__).resolve().parent.parent


def example_problems(page: str, root: Element, book: RuleBook, lang: str) -> list[str]:
    """What is wrong with the worked examples of one page: an example without its origin, a label that
    is not its origin's, a source text's example without its source, a calculator link outside an example."""
    problems = []
    examples = [div for div in root.find_all("div", "admonition") if div.has_class("example")]
    for example in examples:
        origins = [origin for origin in EXAMPLE_ORIGINS if example.has_class(f"kr-example--{origin}")]
        title = next(iter(example.find_all("p", "admonition-title")), None)
        if len(origins) != 1 or title is None:
            problems.append(f"{page}: an example without its origin: {example.text()[:80]!r}")
            continue
        origin = origins[0]
        label = book.example_labels[origin][lang]
        if label not in " ".join(title.text().split()):
            problems.append(f"{page}: an example from {origin!r} whose title {title.text()!r} lacks {label!r}")
        sources = example.find_all("p", "kr-example__source")
        cited = [a for p in sources for a in p.find_all("a") if "#source-" in a.attrs.get("href", "")]
        if origin == "rules" and not cited:
            problems.append(f"{page}: an example from the rules without its source: {example.text()[:80]!r}")
        if origin == "ours" and sources:
            problems.append(f"{page}: an example written for this reference names a source: {example.text()[:80]!r}")
    for link in root.find_all("a", "kr-open-calculator"):
        holder = link.ancestor("div", "admonition")
        if holder is None or not any(holder.has_class(f"kr-example--{origin}") for origin in EXAMPLE_ORIGINS):
            problems.append(f"{page}: an 'open in the calculator' link outside an example: {link.attrs['href']}")
        elif not any(label[lang] in link.attrs.get("title", "") for label in book.example_labels.values()):
            problems.append(f"{page}: an 'open in the calculator' link whose title has no origin: {link.attrs['href']}")
    return problems


@pytest.fixture(scope="module")
def pages(rendered_pages) -> dict[str, dict[str, Element]]:
    """Every generated page of every language, rendered: language -> page path -> tree."""
    return rendered_pages


@pytest.mark.parametrize("lang", LANGS)
def test_no_example_is_shown_without_its_origin(pages, book, lang):
    problems = [problem for page, root in pages[lang].items() for problem in example_problems(page, root, book, lang)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_every_example_is_shown_under_its_rule_with_its_own_origin(pages, book, lang):
    """Each rule page shows its rule's examples, in order, each with the origin the data gives it, and
    the source texts' examples name their own section."""
    shown: dict[str, list[Element]] = {}
    for chapter in book.chapters:
        rule_id = ""
        for node in pages[lang][chapter.page].children:
            if isinstance(node, Element) and node.tag == "h2":
                rule_id = node.id
            elif isinstance(node, Element) and node.has_class("example"):
                shown.setdefault(rule_id, []).append(node)
    for rule in book.rules:
        examples = shown.get(rule.id, [])
        assert [next(o for o in EXAMPLE_ORIGINS if e.has_class(f"kr-example--{o}")) for e in examples] == [
            example.origin for example in rule.examples
        ], rule.id
        for element, example in zip(examples, rule.examples, strict=True):
            if example.source:
                source = " ".join(element.find_all("p", "kr-example__source")[0].text().split())
                assert example.source.section in source, (rule.id, example.id, source)


def test_the_source_texts_examples_and_ours_are_both_there(book):
    """Both origins are in use, and an example of the source texts cites the text its rule cites or
    another one (the loader checks that its section exists)."""
    origins = [example.origin for rule in book.rules for example in rule.examples]
    assert set(origins) == set(EXAMPLE_ORIGINS)
    for rule in book.rules:
        for example in rule.examples:
            assert example.source is None or example.source.text in {s.id for s in book.sources}


def test_the_two_origins_look_different():
    """A reader tells ours from the texts' at a glance, and without colour: a dashed frame and another icon."""
    css = (ROOT / "kensei_ref" / "site" / "assets" / "css" / "kensei.css").read_text(encoding="utf-8")
    ours = css[css.index(".admonition.kr-example--ours") :]
    assert "border-style: dashed" in ours.split("}")[0]
    assert "mask-image" in css[css.index(".kr-example--ours > .admonition-title::before") :].split("}")[0]


@pytest.mark.parametrize("lang", LANGS)
def test_a_calculator_opened_from_an_example_can_say_where_it_comes_from(pages, book, lang):
    """Each example's link names the example, and the calculator page it opens holds what it then shows
    (calculator.js unhides it): the example's origin, its source for the texts' own, and its rule."""
    examples = {f"{rule.id}--{example.id}": (rule, example) for rule in book.rules for example in rule.examples}
    linked = 0
    for chapter in book.chapters:
        for link in pages[lang][chapter.page].find_all("a", "kr-open-calculator"):
            url = urlparse(link.attrs["href"])
            key = parse_qs(url.query)["example"][0]
            rule, example = examples[key]
            calculator = f"calculators/{example.calculator}.md"
            assert url.path.rstrip("/").endswith(f"calculators/{example.calculator}"), url.path
            notices = [
                p for p in pages[lang][calculator].find_all("p", "kr-calc__example") if p.attrs["data-example"] == key
            ]
            assert len(notices) == 1 and "hidden" in notices[0].attrs, (lang, key)
            text = " ".join(notices[0].text().split())
            assert book.example_labels[example.origin][lang] in text, (lang, key, text)
            assert example.source is None or example.source.section in text, (lang, key, text)
            assert any(a.attrs["href"].endswith(f"#{rule.id}") for a in notices[0].find_all("a")), (lang, key)
            linked += 1
    assert linked >= 10

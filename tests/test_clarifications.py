"""The clarifications page lists every note of every rule (every place the texts are silent, unclear
or at odds, with the reading taken), grouped by chapter and rule, each linking to its rule; every rule
with a note, and every rule a note names, links to the note's entry there; and the page's older
anchors still lead to the same notes."""

from __future__ import annotations

import posixpath
from collections import Counter

import pytest
from page_tree import Element

from kensei_ref.languages import LANGUAGES
from kensei_ref.rules.references import REFERENCE
from kensei_ref.site.clarification_anchors import LEGACY_ANCHORS
from kensei_ref.site.pages import CLARIFICATIONS_PAGE, note_anchor

LANGS = LANGUAGES


@pytest.fixture(scope="module")
def pages(rendered_pages) -> dict[str, dict[str, Element]]:
    """The pages of every language (the rule pages and the clarifications page among them), rendered."""
    return rendered_pages


def _target(page: str, href: str) -> tuple[str, str]:
    """The page (docs path) and anchor a link of ``page`` leads to."""
    path, _, anchor = href.partition("#")
    return posixpath.normpath(posixpath.join(posixpath.dirname(page), path)) if path else page, anchor


def _entries(root: Element) -> dict[str, Element]:
    """The notes of the clarifications page, by each anchor they carry."""
    return {span.id: span.ancestor("div", "admonition") for span in root.find_all("span") if span.id}


@pytest.mark.parametrize("lang", LANGS)
def test_every_note_is_on_the_page_once(pages, book, lang):
    root = pages[lang][CLARIFICATIONS_PAGE]
    ids = Counter(element.id for element in root.find_all() if element.id)
    assert [anchor for anchor, count in ids.items() if count > 1] == []
    entries = _entries(root)
    missing = [note_anchor(r.id, n.id) for r in book.rules for n in r.notes if note_anchor(r.id, n.id) not in entries]
    assert not missing, f"{lang}: notes missing from the clarifications page: {missing}"
    assert len({id(entry) for entry in entries.values()}) == sum(len(rule.notes) for rule in book.rules)


@pytest.mark.parametrize("lang", LANGS)
def test_each_note_stands_under_its_chapter_and_a_heading_linking_to_its_rule(pages, book, lang):
    root = pages[lang][CLARIFICATIONS_PAGE]
    chapter, heading = "", None
    placed: dict[str, tuple[str, Element | None]] = {}
    for node in root.children:
        if not isinstance(node, Element):
            continue
        if node.tag == "h2":
            chapter = node.id
        elif node.tag == "h3":
            heading = node
        elif node.has_class("admonition"):
            for span in node.find_all("span"):
                placed[span.id] = (chapter, heading)
    chapters = [chapter_id for chapter_id, _ in placed.values()]
    assert list(dict.fromkeys(chapters)) == [c.id for c in book.chapters if any(r.notes for r in c.rules)]
    for rule in book.rules:
        for note in rule.notes:
            chapter_id, heading = placed[note_anchor(rule.id, note.id)]
            assert chapter_id == rule.chapter_id
            assert heading is not None
            links = [
                _target(CLARIFICATIONS_PAGE, a.attrs["href"]) for a in heading.find_all("a") if a.attrs.get("href")
            ]
            assert (book.chapter_of(rule.id).page, rule.id) in links, (lang, rule.id, note.id)


@pytest.mark.parametrize("lang", LANGS)
def test_every_rule_with_a_note_links_to_its_entry(pages, book, lang):
    entries = _entries(pages[lang][CLARIFICATIONS_PAGE])
    for chapter in book.chapters:
        root = pages[lang][chapter.page]
        for rule in chapter.rules:
            for note in rule.notes:
                anchor = note_anchor(rule.id, note.id)
                shown = next(span for span in root.find_all("span") if span.id == anchor)
                links = [a.attrs["href"] for a in shown.ancestor("div", "admonition").find_all("a")]
                assert (CLARIFICATIONS_PAGE, anchor) in [_target(chapter.page, href) for href in links], anchor
                assert anchor in entries


@pytest.mark.parametrize("lang", LANGS)
def test_a_rule_a_note_names_links_to_that_note(pages, book, lang):
    """A note on one rule that settles a question of another ("Stand" against Withstand and shoot, on the
    Defensive Position) is linked from that other rule too."""
    expected = {
        (match["target"], note_anchor(rule.id, note.id))
        for rule in book.rules
        for note in rule.notes
        for match in REFERENCE.finditer(note.text["en"])
        if match["kind"] == "rule" and match["target"] != rule.id
    }
    assert ("kensei.withstand-and-shoot", "kensei.defensive-position--stand-and-shoot") in expected
    for target, anchor in expected:
        page = book.chapter_of(target).page
        heading = next(h for h in pages[lang][page].find_all("h2") if h.id == target)
        section = pages[lang][page].children
        start = section.index(heading)
        end = next((i for i in range(start + 1, len(section)) if getattr(section[i], "tag", "") == "h2"), len(section))
        links = [
            _target(page, a.attrs.get("href", ""))
            for node in section[start:end]
            if isinstance(node, Element)
            for a in node.find_all("a")
        ]
        assert (CLARIFICATIONS_PAGE, anchor) in links, (lang, target, anchor)


def test_the_older_anchors_name_notes_that_exist(book):
    notes = {note_anchor(rule.id, note.id) for rule in book.rules for note in rule.notes}
    for lang in LEGACY_ANCHORS:  # a language added after the anchors changed has none to keep
        gone = sorted(old for old, anchor in LEGACY_ANCHORS[lang].items() if anchor not in notes)
        assert not gone, f"{lang}: older anchors of notes renamed or removed: {gone}"
    assert {len(table) for table in LEGACY_ANCHORS.values()} == {91}


@pytest.mark.parametrize("lang", list(LEGACY_ANCHORS))
def test_the_older_anchors_still_open_the_same_note(pages, lang):
    entries = _entries(pages[lang][CLARIFICATIONS_PAGE])
    for old, anchor in LEGACY_ANCHORS[lang].items():
        assert entries.get(old) is entries[anchor], (lang, old, anchor)

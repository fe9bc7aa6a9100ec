"""The built site: a strict build with no warning, links that resolve in every language, nothing remote."""

from __future__ import annotations

import functools
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlparse

import pytest

from kensei_ref.languages import LANGUAGES, TRANSLATED, site_folder

LANG_ROOTS = {lang: site_folder(lang).rstrip("/") for lang in LANGUAGES}


class _Links(HTMLParser):
    """Collects a page's ids, its links (a href) and the URLs it would fetch (src, link href)."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.fetches: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(values["id"])
        if tag == "a" and values.get("href"):
            self.links.append(values["href"])
        if values.get("src"):
            self.fetches.append(values["src"])
        if tag == "link" and values.get("href"):
            self.fetches.append(values["href"])


@functools.cache
def _parse(path: Path) -> _Links:
    """A page's ids, links and fetches, parsed once per run (pages are parsed again as link targets)."""
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def _html_pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def test_strict_build_has_no_warning(built_site):
    _, output = built_site
    assert "WARNING" not in output, output


@pytest.mark.parametrize("lang", LANG_ROOTS)
def test_every_language_has_the_rule_pages(built_site, book, lang):
    site, _ = built_site
    root = site / LANG_ROOTS[lang]
    for chapter in book.chapters:
        page = root / chapter.page.removesuffix(".md") / "index.html"
        assert page.exists(), page
        ids = _parse(page).ids
        missing = [rule.id for rule in chapter.rules if rule.id not in ids]
        assert not missing, f"{page}: no permalink anchor for {missing}"
        html = page.read_text(encoding="utf-8")
        assert f'<html lang="{lang}"' in html


@pytest.mark.parametrize("lang", LANG_ROOTS)
def test_internal_links_resolve(built_site, lang):
    site, _ = built_site
    root = site / LANG_ROOTS[lang]
    broken = []
    pages = [
        p
        for p in _html_pages(site)
        if p.is_relative_to(root) and (lang != "en" or not any(p.is_relative_to(site / r) for r in TRANSLATED))
    ]
    assert pages
    for page in pages:
        for href in _parse(page).links:
            url = urlparse(href)
            if url.scheme or href.startswith(("mailto:", "javascript:")):
                continue
            target_path, anchor = urldefrag(unquote(href))
            target_path = target_path.split("?", 1)[0]  # calculator links carry their inputs
            if target_path.startswith("/"):  # the 404 page links from the server's root
                target = (site / target_path.lstrip("/")).resolve()
            else:
                target = (page.parent / target_path).resolve() if target_path else page
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                broken.append(f"{page.relative_to(site)} -> {href}")
                continue
            if anchor and target.suffix == ".html" and anchor not in _parse(target).ids:
                broken.append(f"{page.relative_to(site)} -> {href} (no such anchor)")
    assert not broken, "\n".join(broken[:40])


def test_no_request_leaves_the_site(built_site):
    site, _ = built_site
    remote = []
    for page in _html_pages(site):
        for url in _parse(page).fetches:
            if urlparse(url).scheme in ("http", "https") or url.startswith("//"):
                remote.append(f"{page.relative_to(site)}: {url}")
    for css in site.rglob("*.css"):
        for url in re.findall(r"url\((['\"]?)(https?:)?//", css.read_text(encoding="utf-8")):
            remote.append(f"{css.relative_to(site)}: {url}")
    assert not remote, "\n".join(remote[:20])


def test_search_index_per_language(built_site):
    site, _ = built_site
    for lang, root in LANG_ROOTS.items():
        index = json.loads((site / root / "search" / "search_index.json").read_text(encoding="utf-8"))
        assert index["config"]["lang"][0] == lang  # the page's language first, then the others
        assert sorted(index["config"]["lang"]) == sorted(LANGUAGES)
        assert "stemmer" in index["config"]["pipeline"]
        rule_docs = [d for d in index["docs"] if "#kensei.regroup" in d["location"]]
        assert rule_docs and "перегруппировка" in (rule_docs[0]["text"] + rule_docs[0]["names"]).lower()


def test_rules_json_export(built_site, book):
    site, _ = built_site
    document = json.loads((site / "data" / "rules.json").read_text(encoding="utf-8"))
    ids = [rule["id"] for chapter in document["chapters"] for rule in chapter["rules"]]
    assert ids == [rule.id for rule in book.rules]


@pytest.mark.parametrize("lang", LANG_ROOTS)
def test_no_built_page_shows_an_example_without_its_origin(built_site, book, lang):
    """Every page of the built site (rules, calculators, digest, quick reference and the rest, the
    offline copy's too) marks each worked example as the texts' own, with its source, or as ours."""
    from page_tree import parse
    from test_example_origins import example_problems

    site, _ = built_site
    root = site / LANG_ROOTS[lang]
    others = [site / r for r in LANG_ROOTS.values() if r and site / r != root]
    pages = [p for p in _html_pages(root) if not any(p.is_relative_to(other) for other in others)]
    problems = []
    shown = 0
    for page in pages:
        tree = parse(page.read_text(encoding="utf-8"))
        shown += len([div for div in tree.find_all("div", "admonition") if div.has_class("example")])
        problems += example_problems(str(page.relative_to(site)), tree, book, lang)
    assert not problems, "\n".join(problems[:40])
    assert shown >= sum(len(rule.examples) for rule in book.rules)


@pytest.mark.parametrize("lang", LANG_ROOTS)
def test_the_clarifications_page_keeps_its_anchors(built_site, book, lang):
    """Each note has its anchor on the built clarifications page, and every anchor the page had before
    its notes were grouped by rule is still there."""
    from kensei_ref.site.clarification_anchors import LEGACY_ANCHORS
    from kensei_ref.site.pages import note_anchor

    site, _ = built_site
    ids = _parse(site / LANG_ROOTS[lang] / "clarifications" / "index.html").ids
    notes = [note_anchor(rule.id, note.id) for rule in book.rules for note in rule.notes]
    assert [anchor for anchor in [*notes, *LEGACY_ANCHORS.get(lang, {})] if anchor not in ids] == []


@pytest.mark.parametrize("lang", LANG_ROOTS)
def test_the_words_mkdocs_yml_gives_the_theme_are_in_the_pages_language(built_site, lang):
    """The colour toggle's names and the headings' permalink title: written in English in mkdocs.yml, shown in
    each language's own words."""
    from kensei_ref.languages import get_translations

    site, _ = built_site
    page = (site / LANG_ROOTS[lang] / "kensei" / "charging" / "index.html").read_text("utf-8")
    said = get_translations(lang).gettext
    for english in ("Permanent link", "Switch to dark mode", "Switch to light mode"):
        assert f'title="{said(english)}"' in page, english
        assert lang == "en" or f'"{english}"' not in page, english

"""Generate the site's Markdown pages from the rule data, one language at a time.

Templates (Jinja2, with the i18n extension for interface strings) only lay out what this module
hands them: every link, number and tooltip is resolved here, so a template never computes.
"""

from __future__ import annotations

import html
import posixpath
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from urllib.parse import urlencode

import jinja2

from kensei_ref.language_context import LanguageContext, language_context
from kensei_ref.languages import BY_CODE, LANGUAGE_NAMES, LANGUAGES, SOURCE_LANGUAGE
from kensei_ref.rules import freshness
from kensei_ref.rules.model import Chapter, Citation, Example, Note, Rule, RuleBook, Term
from kensei_ref.rules.references import REFERENCE, expand, plain, quote_rule_titles, value_text, written_numbers
from kensei_ref.rules.search import referenced_terms
from kensei_ref.site import quickref
from kensei_ref.site.clarification_anchors import LEGACY_ANCHORS
from kensei_ref.typography import french_spacing

TEMPLATES = Path(__file__).resolve().parent / "templates"


GLOSSARY_PAGE = "glossary.md"
SOURCES_PAGE = "sources.md"
CLARIFICATIONS_PAGE = "clarifications.md"
QUICK_REFERENCE_PAGE = "quick-reference.md"
BENCHMARKS_PAGE = "benchmarks.md"
GAME_NAMES = {"kensei": "Kensei", "ronin": "Ronin"}
"""The games' names, the same in every language (the navigation's sections, the calculators' game)."""


@cache
def environment(lang: str) -> jinja2.Environment:
    """A Jinja2 environment whose ``_``/``ngettext`` speak ``lang``; one per language, so that each
    template is compiled once (the loader still notices a template saved under ``mkdocs serve``)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        extensions=["jinja2.ext.i18n"],
        autoescape=False,  # the output is Markdown, escaped where needed by this module
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    env.install_gettext_translations(language_context(lang).translations, newstyle=True)  # type: ignore[attr-defined]
    env.filters["indent4"] = lambda text: "\n".join(("    " + line) if line else "" for line in text.split("\n"))
    return env


def _attribute(text: str) -> str:
    """Text made safe for a Markdown link title in double quotes."""
    return " ".join(text.replace("\\", "").replace('"', "\u201d").split())


@dataclass(frozen=True)
class PageContext:
    """Resolves references for one language and one page (links are relative to the page).

    ``directory_urls`` says how the page is served: as a folder (``kensei/orders/``, the site) or
    as a file (``kensei/orders.html``, the offline copy read from ``file://``). Markdown links are
    rewritten by MkDocs either way; addresses in raw HTML and scripts are made here.
    """

    book: RuleBook
    lang: str
    page: str
    directory_urls: bool = True

    def link(self, target_page: str, anchor: str = "") -> str:
        rel = posixpath.relpath(target_page, posixpath.dirname(self.page) or ".")
        return f"{rel}#{anchor}" if anchor else rel

    def rule_link(self, rule_id: str) -> str:
        return self.link(self.book.chapter_of(rule_id).page, rule_id)

    def served(self, path: str) -> str:
        """Where a file of the docs folder is served, from the language's root: ``kensei/orders.md`` is
        ``kensei/orders/`` (or ``kensei/orders.html``); other files keep their path."""
        if not path.endswith(".md"):
            return path
        stem = path.removesuffix(".md")
        if not self.directory_urls:
            return f"{stem}.html"
        if stem == "index" or stem.endswith("/index"):
            return stem.removesuffix("index")
        return f"{stem}/"

    def url(self, target: str, query: str = "", anchor: str = "") -> str:
        """The address of ``target`` (a docs path) relative to this page as served, for raw HTML and scripts."""
        here = self.served(self.page)
        there = self.served(target)
        rel = posixpath.relpath(there or ".", here.rpartition("/")[0] or ".")
        if there.endswith("/") or not there:
            rel = "./" if rel == "." else f"{rel}/"
        return rel + (f"?{query}" if query else "") + (f"#{anchor}" if anchor else "")

    def rule_url(self, rule_id: str) -> str:
        """The rule's address relative to this page as served (``../../kensei/orders/#kensei.regroup``)."""
        return self.url(self.book.chapter_of(rule_id).page, anchor=rule_id)

    def rule_label(self, rule: Rule) -> str:
        return f"{rule.number} {rule.title[self.lang]}" if rule.number else rule.title[self.lang]

    def reading_links(self, readings: tuple[str, ...]) -> list[str]:
        """A Markdown link to each rule that explains one of ``readings`` (``rule id # note id``), once
        per rule, in their order: what a page built on those readings lists under its tool."""
        ruled = dict.fromkeys(reading.partition("#")[0] for reading in readings)
        return [f"[{self.rule_label(self.book.rule(rule_id))}]({self.rule_link(rule_id)})" for rule_id in ruled]

    def value(self, rule: Rule | None, target: str) -> int:
        owner_id, _, key = target.rpartition("#")
        owner = self.book.rule(owner_id) if owner_id else rule
        assert owner is not None, target  # the loader guarantees the owner exists
        return owner.values[key]

    def plain(self, text: str, rule: Rule | None = None) -> str:
        """Text with references turned into words: for tooltips and other plain places."""

        def words(kind: str, target: str) -> str:
            if kind == "rule":
                return self.book.rule(target).title[self.lang]
            if kind == "term":
                return self.book.term(target).name[self.lang]
            number = self.value(rule, target)
            return value_text(kind, number, self.lang)

        return written_numbers(plain(quote_rule_titles(text, self.lang), words), self.lang)

    def markdown(self, text: str, rule: Rule | None = None) -> str:
        """Text with references turned into Markdown links, tooltips and numbers."""

        def resolve(kind: str, target: str, label: str | None) -> str:
            if kind == "rule":
                words = label or self.book.rule(target).title[self.lang]
                return f"[{words}]({self.rule_link(target)})"
            if kind == "term":
                term = self.book.term(target)
                words = label or term.name[self.lang]
                tooltip = _attribute(self.plain(term.definition[self.lang]))
                return f'[{words}]({self.link(GLOSSARY_PAGE, term.id)} "{tooltip}"){{: .kr-term }}'
            if label:  # a value's number in words, which the loader checked
                return label
            number = self.value(rule, target)
            return value_text(kind, number, self.lang)

        return written_numbers(expand(quote_rule_titles(text, self.lang), resolve), self.lang)

    @property
    def language(self) -> LanguageContext:
        """The page's language: its catalog, numbers, plural rules, quotation marks and order, bound once."""
        return language_context(self.lang)

    def quote(self, text: str) -> str:
        return self.language.quote(text)

    def citation(self, citation: Citation) -> str:
        if citation.ref:
            ref = self.book.reference(citation.ref)
            return f"[{ref.publisher}, {self.quote(ref.title)} ({ref.year})]({self.link(SOURCES_PAGE, ref.id)})"
        source = self.book.source(citation.text or "")
        section = self.quote(citation.section or "")
        return f"[{source.title[self.lang]}]({self.link(SOURCES_PAGE, 'source-' + source.id)}), {section}"


def search_keywords(book: RuleBook, rule: Rule) -> str:
    """Words that find a rule from any language: its id, its number, and the glossary names of the
    terms it uses in every language (a player may know a term only in another language)."""
    names = dict.fromkeys(term.name[lang] for term in referenced_terms(book, rule) for lang in LANGUAGES)
    names.update(dict.fromkeys(rule.title[lang] for lang in LANGUAGES))
    words = [rule.id, rule.number or "", *names]
    return " ".join(w for w in words if w)


def calculator_link(ctx: PageContext, name: str, inputs: dict) -> str:
    """The address of calculator ``name``'s page with ``inputs`` in its URL (lists as 2,2,1, booleans as 1)."""

    def text(value: object) -> str:
        if isinstance(value, bool):
            return "1" if value else ""
        if isinstance(value, list | tuple):
            return ",".join(str(v) for v in value)
        return str(value)

    query = urlencode({key: text(value) for key, value in inputs.items() if text(value) != ""}, safe=",")
    return ctx.url(f"calculators/{name}.md", query=query)


def rules_notes_anchor(rule_id: str) -> str:
    """The id of a rule's group of notes on the clarifications page (``notes-kensei.regroup``); not the
    rule's id, which names the rule itself (and search takes a section at a rule's id for the rule)."""
    return f"notes-{rule_id}"


def note_anchor(rule_id: str, note_id: str) -> str:
    """The id of a note on its rule's page and on the clarifications page (``kensei.movement--harasser-movement``):
    a calculator step that rests on a reading cites ``rule_id#note_id`` and links to its rule's page."""
    return f"{rule_id}--{note_id}"


EXAMPLE_PARAM = "example"
"""The parameter of a worked example's "open in the calculator" link that names the example: the
calculator's page then says where its inputs come from (calculator.js), until the player changes them."""


def example_key(rule: Rule, example: Example) -> str:
    """A worked example's name in links and on calculator pages (``kensei.shooting-dice--four-archers``)."""
    return f"{rule.id}--{example.id}"


def example_origin(ctx: PageContext, example: Example) -> dict[str, str]:
    """Where a worked example comes from, as its page shows it: ``origin`` (``rules`` or ``ours``, the
    class that styles it), ``label`` (said in its title), for an example of the source texts ``source``
    (the text and section, linked to the sources page), and ``origin_text``, all of it as plain text for
    the title of its "open in the calculator" link (escaped for an HTML attribute)."""
    label = ctx.book.example_labels[example.origin][ctx.lang]
    origin = f"{ctx.language.gettext('Worked example')} · {label}"
    if example.source:
        source = ctx.book.source(example.source.text or "")
        origin += f" · {source.title[ctx.lang]}, {ctx.quote(example.source.section or '')}"
    return {
        "origin": example.origin,
        "label": label,
        "source": ctx.citation(example.source) if example.source else "",
        "origin_text": html.escape(french_spacing(origin) if BY_CODE[ctx.lang].spaced_punctuation else origin),
    }


def notes_touching(book: RuleBook) -> dict[str, list[tuple[Rule, Note]]]:
    """The notes of other rules that name a rule in their text (``{rule:ID}``), by the id of the rule
    they name: a note on the Defensive Position that settles "Stand" against Withstand and shoot touches
    Withstand and shoot as well, and that rule's page links to it."""
    touching: dict[str, list[tuple[Rule, Note]]] = {}
    for rule in book.rules:
        for note in rule.notes:
            named = dict.fromkeys(
                match["target"] for match in REFERENCE.finditer(note.text[SOURCE_LANGUAGE]) if match["kind"] == "rule"
            )
            for target in named:
                if target != rule.id:
                    touching.setdefault(target, []).append((rule, note))
    return touching


def _touching_view(ctx: PageContext, notes: list[tuple[Rule, Note]]) -> list[str]:
    """Links to the clarifications page's entries of notes on other rules that concern a rule: each
    named by the rule it stands under, its kind (a reading, the sources silent or at odds) as its title."""
    _ = ctx.language.gettext
    kinds = {"silent": _("The sources are silent"), "conflict": _("The sources disagree")}
    return [
        f"[{ctx.rule_label(owner)}]({ctx.link(CLARIFICATIONS_PAGE, note_anchor(owner.id, note.id))}"
        f' "{_attribute(kinds.get(note.kind, _("Reading of the rules")))}")'
        for owner, note in notes
    ]


@cache
def _calculators_by_rule() -> dict[str, tuple[str, ...]]:
    """Each rule id -> the calculators that answer it: those that compute it, then those one of whose
    inputs comes from it (cover feeds the ranged attack and the melee), each once."""
    from calculators import CALCULATORS

    found: dict[str, list[str]] = {}
    for name, calculator in CALCULATORS.items():
        found.setdefault(calculator.rule_id, []).insert(0, name)
    for name, calculator in CALCULATORS.items():
        for param in calculator.params:
            if param.rule_id is not None and name not in found.setdefault(param.rule_id, []):
                found[param.rule_id].append(name)
    return {rule_id: tuple(names) for rule_id, names in found.items()}


def _answering(ctx: PageContext, rule: Rule, linked: frozenset[str]) -> list[str]:
    """Links to the calculators with a page that answer ``rule``, titled in the page's language."""
    from calculators import CALCULATORS

    tr = ctx.language.gettext
    return [
        f"[{tr(CALCULATORS[name].label)}]({ctx.link(f'calculators/{name}.md')})"
        for name in _calculators_by_rule().get(rule.id, ())
        if name in linked
    ]


def _rule_view(
    ctx: PageContext,
    rule: Rule,
    calculators: set[str],
    linked: frozenset[str] = frozenset(),
    touching: list[tuple[Rule, Note]] | None = None,
) -> dict:
    return {
        "touching": _touching_view(ctx, touching or []),
        "id": rule.id,
        "keywords": search_keywords(ctx.book, rule),
        "heading": ctx.rule_label(rule),
        "body": ctx.markdown(rule.body[ctx.lang], rule),
        "stale": ctx.lang != "en" and freshness.is_stale(rule, ctx.lang),
        "source": ctx.citation(rule.source),
        "see_also": [f"[{ctx.rule_label(ctx.book.rule(t))}]({ctx.rule_link(t)})" for t in rule.see_also],
        "calculators": _answering(ctx, rule, linked),
        "examples": [
            {
                "text": ctx.markdown(e.text[ctx.lang], rule),
                "verified": e.calculator in calculators,
                **example_origin(ctx, e),
                "open": calculator_link(ctx, e.calculator, {**e.inputs, EXAMPLE_PARAM: example_key(rule, e)})
                if e.calculator in linked
                else "",
            }
            for e in rule.examples
        ],
        "notes": [
            {
                "kind": n.kind,
                "anchor": note_anchor(rule.id, n.id),
                "text": ctx.markdown(n.text[ctx.lang], rule),
                "sources": [ctx.citation(c) for c in n.sources],
                "clarifications": ctx.link(CLARIFICATIONS_PAGE, note_anchor(rule.id, n.id)),
            }
            for n in rule.notes
        ],
    }


def chapter_page(
    book: RuleBook,
    chapter: Chapter,
    lang: str,
    calculators: set[str],
    linked: frozenset[str] = frozenset(),
    *,
    directory_urls: bool = True,
) -> str:
    """The Markdown of one chapter's page in ``lang``."""
    ctx = PageContext(book, lang, chapter.page, directory_urls)
    touching = notes_touching(book)
    title = chapter.title[lang]
    return (
        environment(lang)
        .get_template("chapter.md.j2")
        .render(
            title=f"{chapter.number}. {title}" if chapter.number else title,
            intro=ctx.markdown(chapter.intro[lang]) if chapter.intro else "",
            stale=lang != "en" and freshness.is_stale(chapter, lang),
            rules=[_rule_view(ctx, rule, calculators, linked, touching.get(rule.id)) for rule in chapter.rules],
        )
    )


def glossary_page(book: RuleBook, lang: str) -> str:
    """The glossary: each term's name in every language side by side, defined in ``lang``.

    The reader's own language comes first, with the definition beside it, so that on a phone the
    definition is on screen and the other languages' names follow to the right."""
    ctx = PageContext(book, lang, GLOSSARY_PAGE)
    others = [other for other in LANGUAGES if other != lang]

    def view(term: Term) -> dict:
        return {
            "id": term.id,
            "name": term.name[lang],
            "others": [term.name[other] for other in others],
            "definition": " ".join(ctx.markdown(term.definition[lang]).split()),
            "rule": f"[{ctx.rule_label(book.rule(term.rule))}]({ctx.rule_link(term.rule)})" if term.rule else "",
            "japanese": term.japanese,
            "stale": lang != "en" and freshness.is_stale(term, lang),
        }

    alphabetical = ctx.language.sort_key
    terms = sorted(book.terms, key=lambda t: alphabetical(t.name[lang]))
    return (
        environment(lang)
        .get_template("glossary.md.j2")
        .render(
            language=LANGUAGE_NAMES[lang],
            other_languages=[LANGUAGE_NAMES[o] for o in others],
            terms=[view(t) for t in terms],
        )
    )


def sources_page(book: RuleBook, lang: str) -> str:
    """The source texts and outside references, with how many rules cite each text."""
    cited: dict[str, int] = {}
    for rule in book.rules:
        if rule.source.text:
            cited[rule.source.text] = cited.get(rule.source.text, 0) + 1
    ctx = PageContext(book, lang, SOURCES_PAGE)
    return (
        environment(lang)
        .get_template("sources.md.j2")
        .render(
            texts=[
                {
                    "id": s.id,
                    "title": s.title[lang],
                    "file": s.file,
                    "language": s.language,
                    "game": s.game,
                    "sections": ", ".join(ctx.quote(section) for section in s.sections),
                    "rules": cited.get(s.id, 0),
                    "note": ctx.markdown(s.note[lang]) if s.note else "",
                }
                for s in book.sources
            ],
            references=[
                {
                    "id": r.id,
                    "publisher": r.publisher,
                    "title": ctx.quote(r.title),
                    "year": r.year,
                    "language": r.language,
                }
                for r in book.references
            ],
        )
    )


def clarifications_page(book: RuleBook, lang: str) -> str:
    """Every note on every rule: where the sources are silent or disagree, and the reading taken.

    The notes are grouped by chapter, then by rule, in the rules' order; each links to its rule, and has
    the anchor its rule's page gives it (``kensei.firing--range-bands``), with the page's older anchors
    (:mod:`kensei_ref.site.clarification_anchors`) beside it."""
    ctx = PageContext(book, lang, CLARIFICATIONS_PAGE)
    older: dict[str, list[str]] = {}
    for old, anchor in LEGACY_ANCHORS.get(lang, {}).items():
        older.setdefault(anchor, []).append(old)

    def note_view(rule: Rule, note: Note) -> dict:
        anchor = note_anchor(rule.id, note.id)
        spans = "".join(f'<span id="{name}"></span>' for name in [anchor, *older.get(anchor, [])])
        return {
            "kind": note.kind,
            "anchors": spans,
            "text": ctx.markdown(note.text[lang], rule),
            "sources": [ctx.citation(c) for c in note.sources],
        }

    chapters = [
        {
            "id": chapter.id,
            "title": _chapter_heading(chapter, lang),
            "rules": [
                {
                    "anchor": rules_notes_anchor(rule.id),
                    "link": f"[{ctx.rule_label(rule)}]({ctx.rule_link(rule.id)})",
                    "notes": [note_view(rule, note) for note in rule.notes],
                }
                for rule in chapter.rules
                if rule.notes
            ],
        }
        for chapter in book.chapters
        if any(rule.notes for rule in chapter.rules)
    ]
    return environment(lang).get_template("clarifications.md.j2").render(chapters=chapters)


def _chapter_heading(chapter: Chapter, lang: str) -> str:
    """A chapter named on a page that gathers several: its game, its number, its title (``Kensei · 8. Orders``)."""
    title = f"{chapter.number}. {chapter.title[lang]}" if chapter.number else chapter.title[lang]
    return f"{GAME_NAMES[chapter.game]} · {title}"


def quick_reference_tables(ctx: PageContext) -> list[dict]:
    """The quick-reference tables for the page of ``ctx``, each row's name linked to its rule
    (the quick reference and the printable digest show the same tables)."""
    views = quickref.tables(ctx.book, ctx.lang)
    for table in views:
        for row in table["rows"]:
            row["name"] = f"[{row['name']}]({ctx.rule_link(row['rule'])})"
    return views


def quick_reference_page(book: RuleBook, lang: str) -> str:
    """The quick-reference tables, each row's name linked to the rule its numbers come from."""
    ctx = PageContext(book, lang, QUICK_REFERENCE_PAGE)
    return environment(lang).get_template("quick-reference.md.j2").render(tables=quick_reference_tables(ctx))


def has_quick_reference(book: RuleBook) -> bool:
    """Whether the data holds every rule the quick reference reads (a sample data set may not)."""
    return all(_has_rule(book, rule_id) for rule_id in quickref.RULES_USED)


def _has_rule(book: RuleBook, rule_id: str) -> bool:
    try:
        book.rule(rule_id)
    except KeyError:
        return False
    return True


def site_pages(
    book: RuleBook,
    lang: str,
    calculators: set[str],
    linked: frozenset[str] = frozenset(),
    *,
    directory_urls: bool = True,
) -> dict[str, str]:
    """Every generated page of one language: path relative to the docs directory -> Markdown.

    Args:
        calculators: calculators that check worked examples (the examples show a mark).
        linked: calculators with a page of their own (the examples link to it with their inputs).
        directory_urls: whether pages are served as folders (see :class:`PageContext`).
    """
    pages = {
        chapter.page: chapter_page(book, chapter, lang, calculators, linked, directory_urls=directory_urls)
        for chapter in book.chapters
    }
    pages[GLOSSARY_PAGE] = glossary_page(book, lang)
    pages[SOURCES_PAGE] = sources_page(book, lang)
    pages[CLARIFICATIONS_PAGE] = clarifications_page(book, lang)
    if has_quick_reference(book):
        pages[QUICK_REFERENCE_PAGE] = quick_reference_page(book, lang)
    return pages

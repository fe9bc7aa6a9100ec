"""Tidy the search index Material writes for each language: findable rules, clean results, a light file.

Material's search plugin indexes every page section's text as the page shows it. For this site that
means: a rule's hidden keywords (its id and the glossary names of its terms in three languages) at
the head of its text, so that results showed them as the rule's first words; the labels around a
rule (source, related passages, "Open in the calculator") in every result; the calculators' form
labels run together; and pages that are not rules (calculators, benchmarks, data format, sources)
outranking the rules they cite. This step rewrites ``search/search_index.json`` after the build:

- a rule's hidden keywords (the glossary names of the terms it mentions) move to a field of their own,
  ``keywords``, searched but never shown; a second such field, ``names``, holds what names the rule:
  its game, its title in the other languages, the names of the terms it defines, and the players'
  words for both (``aliases.yaml``), the page's language's and the others'; and, not searched but
  read by the search worker (search_patch.py), the list of the players' words in the page's language
  that name the rule (a query that is one of them, or its title, word for word, ranks the rule first);
- the labelled lines that only cite (source, see also, passages involved) and the worked examples'
  labels leave the text; the rule's own text and examples stay;
- the glossary, one table that Material indexes as a single wall of text in three languages, becomes
  one entry per term: its name, its definition in the page's language, and its names in the other
  languages and players' words as ``names``;
- the pages in :data:`LEFT_OUT` leave the index: a search finds rules, terms and notes; the pages
  that repeat rules (quick reference, digest, clarifications) count less than the rules;
- the file is written as UTF-8, not with every Cyrillic letter escaped (six bytes each).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable
from pathlib import Path

from kensei_ref.languages import LANGUAGES, get_translations
from kensei_ref.rules.model import Rule, RuleBook
from kensei_ref.rules.search import plain_text, referenced_terms, rule_aliases

LEFT_OUT = ("calculators/", "advisor/", "benchmarks/", "data-format/", "sources/", "units/", "offline/")
"""Pages a search does not return: tools and pages about the project, not rules."""
FIELDS = {"names": 8, "keywords": 2}
"""The fields added to each rule, with their boosts between the text's (1) and the title's (10): what
names the rule counts almost as its title, the names of the terms it mentions twice a word of its
text."""
GLOSSARY_PAGE = "glossary/"
RULE_PAGES = ("kensei/", "ronin/", GLOSSARY_PAGE)
OTHER_PAGE_BOOST = 0.5
"""The other pages' sections (home, quick reference, digest, clarifications) count half: a rule, or a
term, comes before a table or a note that repeats it."""
GAME_NAMES = {"kensei": ("Kensei", "Кенсей"), "ronin": ("Ronin", "Ронин")}
"""The games as players name them in a query ("ronin movement", "движение кенсей")."""
PARAGRAPH = re.compile(r"<p>(.*?)</p>", re.DOTALL)
TAG = re.compile(r"<[^>]+>")
CITING_LABELS = ("Source:", "See also:", "Rule id:", "Passages involved:")
"""Labels of the lines that only cite; a result never shows them (msgids of the site's catalogs)."""
EXAMPLE_LABELS = (
    "Worked example",
    "Open in the calculator",
    "Clarifications and conflicts",
    "The sources are silent",
    "The sources disagree",
    "Reading of the rules",
    "Translation may be out of date",
    "The English text changed after this translation was made; the English page is the reference until the "
    "translation is checked.",
)
"""Labels of examples, notes and notices, and a note's link to the clarifications page: a result shows
what they label, not them."""


def tidy(site_dir: Path, book: RuleBook, lang: str) -> int:
    """Rewrite the search index of the language built in ``site_dir``; return its size in bytes.

    The offline copy's index (``search_index.js``, written by Material's offline plugin from the
    JSON) is rewritten the same way when there is one."""
    folder = site_dir / "search"
    index = json.loads((folder / "search_index.json").read_text(encoding="utf-8"))
    rules = {rule.id: rule for rule in book.rules}
    labels = _labels(lang)
    docs = []
    for doc in index["docs"]:
        page, _, anchor = doc["location"].partition("#")
        if page.startswith(LEFT_OUT) or (page == GLOSSARY_PAGE and anchor):
            continue  # the glossary's entries are written below, from the rule data
        if page == GLOSSARY_PAGE:
            docs += _glossary(doc, book, lang)
            continue
        if not page.startswith(RULE_PAGES):
            doc["boost"] = OTHER_PAGE_BOOST
        text, keywords = _split(doc.get("text", ""), rules.get(anchor), labels)
        doc["text"] = text
        if anchor in rules and "names" not in doc:  # not yet tidied (``mkdocs serve`` keeps the files)
            doc["names"] = " ".join(_names(book, rules[anchor], lang))
            doc["keywords"] = " ".join([keywords, *_other_aliases(book, rules[anchor], lang)])
            doc["aliases"] = list(dict.fromkeys(rule_aliases(book, rules[anchor], lang)))
        docs.append(doc)
    index["docs"] = docs
    index["config"]["fields"].update({field: {"boost": boost} for field, boost in FIELDS.items()})
    data = json.dumps(index, ensure_ascii=False, separators=(",", ":"))
    (folder / "search_index.json").write_text(data, encoding="utf-8")
    if (folder / "search_index.js").is_file():
        (folder / "search_index.js").write_text(f"var __index = {data}", encoding="utf-8")
    return len(data.encode("utf-8"))


def _labels(lang: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The citing labels and the examples' labels as the pages of ``lang`` show them, spaces made plain
    (French puts a no-break space before a colon) as :func:`_split` reads paragraphs."""

    def shown(labels: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(" ".join(get_translations(lang).gettext(label).split()) for label in labels)

    return shown(CITING_LABELS), shown(EXAMPLE_LABELS)


def _split(text: str, rule: Rule | None, labels: tuple[tuple[str, ...], tuple[str, ...]]) -> tuple[str, str]:
    """A section's text without its citing lines and labels, and, for a rule, its hidden keywords (the
    paragraph that opens its text with its id). Everything else stays as Material wrote it."""
    citing, examples = labels
    keywords: list[str] = []

    def kept(paragraph: re.Match[str]) -> str:
        words = " ".join(TAG.sub(" ", paragraph[1]).split())
        if rule is not None and paragraph.start() == 0 and words.startswith(rule.id + " "):
            keywords.append(words)
            return ""
        return "" if words.startswith(citing + examples) else paragraph[0]

    return " ".join(PARAGRAPH.sub(kept, text).split()), " ".join(keywords)


def _glossary(page: dict, book: RuleBook, lang: str) -> list[dict]:
    """The glossary page (its introduction only) and one entry per term, at the term's anchor."""
    intro = PARAGRAPH.search(page.get("text", ""))
    entries = [{**page, "text": intro[0] if intro else ""}]
    for term in book.terms:
        names = [term.name[x] for x in LANGUAGES if x != lang]
        names += [alias for x in LANGUAGES for alias in book.aliases_of(term.id, x)]
        definition = " ".join(plain_text(book, term.definition, lang).split())
        entries.append(
            {
                "location": f"{GLOSSARY_PAGE}#{term.id}",
                "title": term.name[lang],
                "text": f"<p>{html.escape(definition, quote=False)}</p>",
                "names": " ".join(dict.fromkeys(names)),
            }
        )
    return entries


def _names(book: RuleBook, rule: Rule, lang: str) -> Iterable[str]:
    """What names ``rule`` besides its title: its game, its title in the other languages, the names of
    the terms it defines, and the players' words for it and them in the page's language."""
    defined = [term for term in book.terms if term.rule == rule.id]
    names = [*GAME_NAMES[rule.id.split(".", 1)[0]], *(rule.title[x] for x in LANGUAGES if x != lang)]
    names += [term.name[x] for term in defined for x in LANGUAGES]
    names += rule_aliases(book, rule, lang)
    return dict.fromkeys(names)


def _other_aliases(book: RuleBook, rule: Rule, lang: str) -> Iterable[str]:
    """The players' words, in the other languages, for ``rule`` and the terms it defines, and in the
    page's language for the terms it mentions: they find the rule, below its own names."""
    others = [alias for x in LANGUAGES if x != lang for alias in rule_aliases(book, rule, x)]
    mentioned = [alias for term in referenced_terms(book, rule) for alias in book.aliases_of(term.id, lang)]
    return dict.fromkeys(others + mentioned)

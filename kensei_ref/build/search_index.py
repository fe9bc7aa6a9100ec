"""Tidy the search index Material writes for each language: findable rules, clean results, a light file.

Material's search plugin indexes every page section's text as the page shows it. For this site that
means: a rule's hidden keywords (its id and the glossary names of its terms in every language) at
the head of its text, so that results showed them as the rule's first words; the labels around a
rule (source, related passages, "Open in the calculator") in every result; the calculators' form
labels run together; and pages that are not rules (calculators, benchmarks, data format, sources)
outranking the rules they cite. This step rewrites ``search/search_index.json`` after the build:

- a rule's hidden keywords (its id and the glossary names of the terms it mentions) leave its text;
  its entry gains the fields of the terminal's search (``rules.search.rule_fields``): ``names`` (its
  title in the other languages, the names of the terms it defines, and the players' words for those
  terms in the other languages) and ``keywords`` (its id, the names of the terms it mentions, and the players'
  words for them), one name a line, searched but never shown; and, not searched by lunr, ``aliases``,
  the players' words in the page's language for it and for the terms it defines (``aliases.yaml``).
  The search worker ranks the rules from these fields and the text as the terminal does
  (rule_ranking.js);
- the labelled lines that only cite (source, see also, passages involved) and the worked examples'
  labels leave the text; the rule's own text and examples stay;
- the glossary, one table that Material indexes as a single wall of text in every language, becomes
  one entry per term: its name, its definition in the page's language, and its names in the other
  languages and players' words as ``names``;
- the pages in :data:`LEFT_OUT` leave the index, and the sections of those in :data:`SECTIONS_LEFT_OUT`: a
  search finds rules, terms and notes; the pages that repeat rules (quick reference, digest, the
  clarifications' opening) count less than the rules;
- the file is written as UTF-8, not with every Cyrillic letter escaped (six bytes each).
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from kensei_ref.build.search_patch import LANGUAGE_KEY
from kensei_ref.language_context import language_context
from kensei_ref.languages import LANGUAGES
from kensei_ref.rules.model import Rule, RuleBook
from kensei_ref.rules.search import plain_text, rule_fields

LEFT_OUT = (
    "calculators/",
    "advisor/",
    "plan/",
    "benchmarks/",
    "data-format/",
    "translating/",
    "sources/",
    "units/",
    "offline/",
)
"""Pages a search does not return: tools and pages about the project, not rules."""
SECTIONS_LEFT_OUT = ("clarifications/",)
"""Pages whose sections repeat the rules' notes word for word: a search finds the page by its opening and each
note in its rule's entry (the ``extra`` part of its text), not twice. The clarifications were a fifth of the
Russian index."""
FIELDS = {"names": 8, "keywords": 2}
"""The fields added to each rule, with their boosts between the text's (1) and the title's (10): what
names the rule counts almost as its title, the names of the terms it mentions twice a word of its
text."""
BODY_END = "bodyEnd"
"""A rule's entry: where its worked examples and notes begin in its text (rule_ranking.js reads them
apart, as the terminal's ``extra`` field)."""
GLOSSARY_PAGE = "glossary/"
RULE_PAGES = ("kensei/", "ronin/", GLOSSARY_PAGE)
OTHER_PAGE_BOOST = 0.5
"""The other pages' sections (home, quick reference, digest, clarifications) count half: a rule, or a
term, comes before a table or a note that repeats it."""
PARAGRAPH = re.compile(r"<p>(.*?)</p>", re.DOTALL)
TAG = re.compile(r"<[^>]+>")
CITING_LABELS = ("Source:", "See also:", "Rule id:", "Passages involved:")
"""Labels of the lines that only cite; a result never shows them (msgids of the site's catalogs)."""
EXTRA_LABELS = (
    "Worked example",
    "Clarifications and conflicts",
    "The sources are silent",
    "The sources disagree",
    "Reading of the rules",
)
"""The labels that open a rule's worked examples and notes: what follows the first of them is what the
terminal's search weighs as the rule's ``extra`` field, and what comes before, its ``body``."""
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
        if page.startswith(LEFT_OUT) or (anchor and (page == GLOSSARY_PAGE or page.startswith(SECTIONS_LEFT_OUT))):
            continue  # the glossary's entries are written below, from the rule data
        if page == GLOSSARY_PAGE:
            docs += _glossary(doc, book, lang)
            continue
        if not page.startswith(RULE_PAGES):
            doc["boost"] = OTHER_PAGE_BOOST
        if "names" in doc:  # already tidied (``mkdocs serve`` keeps the files)
            docs.append(doc)
            continue
        doc["text"], body_end = _shown_text(doc.get("text", ""), rules.get(anchor), labels)
        if anchor in rules:
            fields = rule_fields(book, rules[anchor], lang)
            doc["names"] = "\n".join(dict.fromkeys(fields["names"]))
            doc["keywords"] = "\n".join(dict.fromkeys(fields["keywords"]))
            doc["aliases"] = fields["aliases"]
            if body_end is not None:
                doc[BODY_END] = body_end
        docs.append(doc)
    index["docs"] = docs
    index["config"]["fields"].update({field: {"boost": boost} for field, boost in FIELDS.items()})
    index["config"][LANGUAGE_KEY] = lang  # the search worker ranks the rules with this language's stemmer
    data = json.dumps(index, ensure_ascii=False, separators=(",", ":"))
    (folder / "search_index.json").write_text(data, encoding="utf-8")
    if (folder / "search_index.js").is_file():
        (folder / "search_index.js").write_text(f"var __index = {data}", encoding="utf-8")
    return len(data.encode("utf-8"))


Labels = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]
"""The citing labels, the examples' and notes' labels, and those that open a rule's ``extra`` field."""


def _labels(lang: str) -> Labels:
    """The citing labels, the examples' labels and the labels that open a rule's examples and notes as the
    pages of ``lang`` show them, spaces made plain (French puts a no-break space before a colon) as
    :func:`_shown_text` reads paragraphs."""

    def shown(labels: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(" ".join(language_context(lang).gettext(label).split()) for label in labels)

    return shown(CITING_LABELS), shown(EXAMPLE_LABELS), shown(EXTRA_LABELS)


_EXTRA_START = "\ue001"
"""Stands, while a text is cleaned, where a rule's examples and notes begin."""


def _shown_text(text: str, rule: Rule | None, labels: Labels) -> tuple[str, int | None]:
    """A section's text without its citing lines and labels, and, for a rule, without its hidden
    keywords (the paragraph that opens its text with its id: the terminal's ``keywords`` field holds
    them). Everything else stays as Material wrote it. With it, where the rule's worked examples and
    notes begin in it (None when it has none), counted as the search worker counts, in UTF-16 units."""
    citing, examples, extra = labels

    def kept(paragraph: re.Match[str]) -> str:
        words = " ".join(TAG.sub(" ", paragraph[1]).split())
        if rule is not None and paragraph.start() == 0 and words.startswith(rule.id + " "):
            return ""
        if rule is not None and words.startswith(extra):
            return _EXTRA_START
        return "" if words.startswith(citing + examples) else paragraph[0]

    body, start, rest = PARAGRAPH.sub(kept, text).partition(_EXTRA_START)
    body, rest = " ".join(body.split()), " ".join(rest.replace(_EXTRA_START, " ").split())
    if not start or not rest:
        return " ".join(f"{body} {rest}".split()), None
    return f"{body} {rest}", len(f"{body} ".encode("utf-16-le")) // 2


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

"""The words of the search: how rules and queries are cut into words, normalised and stemmed, and the
texts of each field of a rule that the index reads (the same for the terminal and the site)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator
from functools import cache, lru_cache
from itertools import pairwise

from kensei_ref.languages import LANGUAGE_RECORDS, SOURCE_LANGUAGE
from kensei_ref.languages import LANGUAGES as LANGS
from kensei_ref.rules.references import REFERENCE, plain, quote_rule_titles, value_text, written_numbers

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a few ms a command)
if TYPE_CHECKING:  # the model only names types here: a search of a compiled index builds no rule
    import snowballstemmer

    from kensei_ref.rules.model import Rule, RuleBook, Term, Text


STEMMERS = {language.code: language.stemmer for language in LANGUAGE_RECORDS}
"""Snowball algorithm of each language. Cyrillic words always take the Russian one."""

LATIN_STEMMER = {
    language.code: language.code if language.script == "latin" else SOURCE_LANGUAGE for language in LANGUAGE_RECORDS
}
"""Which stemmer reduces a Latin-script word in each language's index: a French word typed into
the Russian reference is most likely a glossary name, and names are stemmed like the query."""

WORD = re.compile(r"[^\W_]+")
WHOLE = re.compile(r"(?<![\w.])(?:\d+(?:\.\d+)+|(?:kensei|ronin)\.[a-z0-9]+(?:-[a-z0-9]+)*)(?![\w-])")
"""Tokens kept whole: rule numbers (8.3.2) and rule ids (kensei.regroup)."""
NUMBER = re.compile(r"^\d+(?:\.\d+)+$")
HYPHENATED = re.compile(r"(?<![\w.-])[a-z0-9]+(?:-[a-z0-9]+)+(?![\w-])")
"""A rule id without its game prefix (five-cm-rule, counter-charge)."""
CYRILLIC = re.compile(r"[\u0400-\u04ff]")
CYRILLIC_STEMMER = next(language.code for language in LANGUAGE_RECORDS if language.script == "cyrillic")
"""The language whose stemmer reduces a Cyrillic word in any language's index: a glossary name typed in
Russian into the French reference is stemmed as Russian."""
MARKUP = re.compile(r"\*\*|__|`|^\s*\|?\s*:?-{3,}.*$|^\s*[-*+]\s", re.MULTILINE)
"""Markdown that a snippet leaves out: bold, code, table rules, list markers."""

STOP_WORDS = frozenset().union(*(language.words.stop for language in LANGUAGE_RECORDS))
"""Words that carry no meaning for a search, in every language (:attr:`kensei_ref.languages.Words.stop`): a
query ignores them (unless it has nothing else) and phrases are paired over the words between them."""

QUESTION_WORDS = frozenset().union(*(language.words.question for language in LANGUAGE_RECORDS))
"""Question and filler words ("how", "comment", "можно"): a query keeps them, at
:data:`QUESTION_WEIGHT`, so that they never outweigh its terms yet still favour a title that has
them ("When to test Morale"); they are not needed for the bonus of rules that have every word."""

GAME_NAMES = {"kensei": ("kensei", "кенсей", "кэнсэй", "кенсэй"), "ronin": ("ronin", "ронин")}
"""The games as players name them in a query ("ronin movement", "движение в ронине")."""


def normalise(text: str) -> str:
    """Case-folded text with ё written е, as Russian is usually typed."""
    return text.casefold().replace("ё", "е")


def fold_accents(word: str) -> str:
    """Latin letters without diacritics: players type "defense" for "défense"."""
    decomposed = unicodedata.normalize("NFD", word)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@cache
def _stemmer(lang: str) -> snowballstemmer.BaseStemmer:
    import snowballstemmer  # here: looking a rule up by its number needs no stemmer, and it loads 36 languages

    return snowballstemmer.stemmer(STEMMERS[lang])


@lru_cache(maxsize=65536)
def stem(word: str, lang: str) -> str:
    """The index term of a normalised ``word`` in the index of ``lang``.

    Cyrillic words take the Russian stemmer; Latin words take that of ``lang`` (English in the
    Russian index); digits are kept as they are. Latin stems lose their accents afterwards; the stem
    of a number word that names a die's face is its digit (:func:`number_stems`).

    >>> stem("regroupées", "fr"), stem("перегруппировки", "ru"), stem("regrouping", "en")
    ('regroup', 'перегруппировк', 'regroup')
    """
    if word.isdigit():
        return word
    by = CYRILLIC_STEMMER if CYRILLIC.search(word) else LATIN_STEMMER[lang]
    found = _plain_stem(word, by)
    return number_stems()[by].get(found, found)


def _plain_stem(word: str, by: str) -> str:
    """``word`` stemmed by the stemmer of the language ``by``; a Latin stem without its accents."""
    found = _stemmer(by).stemWord(word)
    return found if by == CYRILLIC_STEMMER else fold_accents(found)


@cache
def number_stems() -> dict[str, dict[str, str]]:
    """Stems of each language's word for a die's ten (:attr:`kensei_ref.languages.Words.ten`), as the digit,
    by the language whose stemmer makes them: "a ten" on a shooting die is "a 10" (the rules write either,
    Russian «десятка» most), so a question about a roll of 10 finds the rule that names it in words, and the
    other way round. By stemmer, since the French stem of "tenir" is "ten", which English would take for ten.

    >>> number_stems()["en"], number_stems()["ru"]
    ({'ten': '10'}, {'деся': '10', 'десят': '10', 'десятк': '10'})
    """
    return {
        language.code: {_plain_stem(word, language.code): "10" for word in language.words.ten}
        for language in LANGUAGE_RECORDS
    }


def words(text: str) -> list[str]:
    """The words of ``text``, normalised, in order."""
    return WORD.findall(normalise(text))


def tokenize(text: str, lang: str) -> list[str]:
    """Index terms of ``text`` for the index of ``lang``: whole numbers and ids, then word stems.

    The same function reads the rules and the queries, so that both meet on the same terms.

    >>> tokenize("See 8.3.2 (kensei.regroup): Regrouping", "en")
    ['8.3.2', 'kensei.regroup', 'see', '8', '3', '2', 'kensei', 'regroup', 'regroup']
    """
    whole = WHOLE.findall(normalise(text))
    return whole + [stem(word, lang) for word in words(text)]


def edit_distance(a: str, b: str, limit: int) -> int:
    """Optimal string alignment distance (a swap of neighbours is one edit), or ``limit + 1``
    as soon as it is certain to exceed ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous_previous: list[int] = []
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, char_b in enumerate(b, 1):
            cost = 0 if char_a == char_b else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and char_a == b[j - 2] and a[i - 2] == char_b:
                current[j] = min(current[j], previous_previous[j - 2] + 1)
        if min(current) > limit:
            return limit + 1
        previous_previous, previous = previous, current
    return previous[-1]


def plain_text(book: RuleBook, text: Text, lang: str, rule: Rule | None = None) -> str:
    """``text`` in ``lang`` with references reduced to words: rule titles, glossary names, numbers
    (as :meth:`kensei_ref.site.pages.PageContext.plain`, without the page machinery)."""

    def resolve(kind: str, target: str) -> str:
        if kind == "rule":
            return book.rule(target).title[lang]
        if kind == "term":
            return book.term(target).name[lang]
        owner_id, _, key = target.rpartition("#")
        owner = book.rule(owner_id) if owner_id else rule
        number = owner.values[key] if owner is not None else 0  # the loader checks every reference
        return value_text(kind, number, lang)

    return written_numbers(plain(quote_rule_titles(text[lang], lang), resolve), lang)


def referenced_terms(book: RuleBook, rule: Rule) -> list[Term]:
    """The glossary terms that ``rule`` mentions in any language (body, examples, notes)."""
    texts = [rule.body, *(e.text for e in rule.examples), *(n.text for n in rule.notes)]
    ids = dict.fromkeys(
        match["target"]
        for text in texts
        for lang in LANGS
        for match in REFERENCE.finditer(text[lang])
        if match["kind"] == "term"
    )
    return [book.term(term_id) for term_id in ids]


def rule_aliases(book: RuleBook, rule: Rule, lang: str) -> Iterator[str]:
    """The players' words in ``lang`` for ``rule`` and for the glossary terms it defines: with its
    title, what a query may name it by word for word (the site's search reads them too)."""
    yield from book.aliases_of(rule.id, lang)
    for term in book.terms:
        if term.rule == rule.id:
            yield from book.aliases_of(term.id, lang)


def readable_body(book: RuleBook, rule: Rule, lang: str) -> str:
    """The rule's body as one line of plain words, for snippets."""
    text = MARKUP.sub(" ", plain_text(book, rule.body, lang, rule)).replace("|", " ")
    return " ".join(text.split())


def rule_fields(book: RuleBook, rule: Rule, lang: str, body: str | None = None) -> dict[str, list[str]]:
    """The texts of each field of ``rule`` in the index of ``lang`` (:data:`FIELD_WEIGHTS`), each text
    read separately (word pairs never span two texts). ``body``: the rule's :func:`readable_body`, when
    the caller has it. The site's search ranks the rules from the same fields (its search index holds
    them, kensei_ref/build/search_index.py)."""
    defined = [term for term in book.terms if term.rule == rule.id]
    mentioned = referenced_terms(book, rule)
    others = [x for x in LANGS if x != lang]
    return {
        "title": [f"{rule.number or ''} {rule.title[lang]}"],
        "aliases": list(rule_aliases(book, rule, lang)),
        "names": [
            *(rule.title[x] for x in others),
            *(t.name[x] for t in defined for x in LANGS),
            *(alias for t in defined for x in others for alias in book.aliases_of(t.id, x)),
        ],
        "keywords": [
            rule.id,
            *(t.name[x] for t in mentioned for x in LANGS),
            *(alias for t in mentioned for alias in book.aliases_of(t.id, lang)),
        ],
        "body": [readable_body(book, rule, lang) if body is None else body],
        "extra": [plain_text(book, item.text, lang, rule) for item in rule.examples]
        + [plain_text(book, item.text, lang, rule) for item in rule.notes],
    }


def word_pairs(text_words: list[str], lang: str, stem_of: Callable[[str], str] | None = None) -> list[str]:
    """Stems of neighbouring words, skipping stop words, as one term ("long rang", "capac taisho"):
    a phrase scores above its scattered words. ``stem_of`` stems a word (:func:`stem` by default)."""
    stemmed = stem_of or (lambda word: stem(word, lang))
    stems = [stemmed(word) for word in text_words if word not in STOP_WORDS]
    return [f"{a} {b}" for a, b in pairwise(stems)]

"""Find rules and glossary terms from what a player types: ids, numbers, words in any form.

One :class:`SearchIndex` per language ranks the rules with BM25F: a rule is a document whose fields
(its number and title, above the glossary names it uses, above its text) count a word each with its
weight, and the weighted counts are summed before BM25 saturates them, so that a word in a title
outweighs the same word repeated in a long text, and a word found in every field does not count
many times over. Every word is reduced to its Snowball stem, so that
"перегруппировки", "regroupées" and "regrouping" find the rule whose title says
"Перегруппировка", "Regrouper", "Regrouping". A rule's keywords hold the glossary names of its
terms in all three languages, so a player who knows a term only in English finds it from the
French or the Russian reference.

Players' own words for a rule (``aliases.yaml``: "AP", "rally", "спасбросок") count as much as its
title, and a query that is a rule's title or alias word for word ranks that rule first. Question
and filler words ("how", "comment", "можно") count for little, so that they never outweigh the
terms; a game named in the query ("ronin movement") puts that game's rules first.

Query words that the index does not know are matched, at a lower score, to known words a
typing mistake away; words of four letters or more also match as the beginning of longer words,
and long stems match known stems that share most of their letters. Words found side by side
score as a phrase, and a rule that has every word of the query scores more. A rule number
(``8.3.2``) or id (``kensei.regroup``) in the query puts that rule first.

Indexes are immutable and built once per process and language (:func:`index_for`).
"""

from __future__ import annotations

import bisect
import difflib
import math
import re
import unicodedata
from collections import Counter, namedtuple
from collections.abc import Callable, Iterable, Iterator
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
MARKUP = re.compile(r"\*\*|__|`|^\s*\|?\s*:?-{3,}.*$|^\s*[-*+]\s", re.MULTILINE)
"""Markdown that a snippet leaves out: bold, code, table rules, list markers."""

STOP_WORDS = frozenset(
    {
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "for",
        "from",
        "in",
        "into",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "than",
        "that",
        "the",
        "this",
        "to",
        "with",
        "à",
        "au",
        "aux",
        "avec",
        "ce",
        "ces",
        "d",
        "de",
        "des",
        "du",
        "en",
        "est",
        "et",
        "il",
        "l",
        "la",
        "le",
        "les",
        "leur",
        "leurs",
        "ne",
        "ou",
        "par",
        "pas",
        "pour",
        "qu",
        "que",
        "qui",
        "sa",
        "se",
        "ses",
        "son",
        "sur",
        "un",
        "une",
        "y",
        "а",
        "в",
        "во",
        "для",
        "до",
        "за",
        "и",
        "из",
        "или",
        "к",
        "как",
        "ко",
        "на",
        "не",
        "ни",
        "о",
        "об",
        "от",
        "по",
        "при",
        "с",
        "со",
        "то",
        "у",
        "что",
        "это",
    }
)
"""Words that carry no meaning for a search, in the three languages: a query ignores them (unless
it has nothing else) and phrases are paired over the words between them."""

QUESTION_WORDS = frozenset(
    {
        "about",
        "any",
        "are",
        "can",
        "could",
        "did",
        "do",
        "does",
        "get",
        "gets",
        "happen",
        "happens",
        "have",
        "has",
        "how",
        "i",
        "if",
        "many",
        "me",
        "much",
        "my",
        "should",
        "there",
        "they",
        "their",
        "what",
        "whats",
        "when",
        "where",
        "which",
        "who",
        "why",
        "will",
        "you",
        "your",
        "we",
        "ça",
        "cela",
        "combien",
        "comment",
        "dois",
        "doit",
        "elle",
        "faire",
        "fait",
        "faut",
        "je",
        "j",
        "ma",
        "mes",
        "moi",
        "mon",
        "nous",
        "on",
        "où",
        "peut",
        "peuvent",
        "peux",
        "pourquoi",
        "quand",
        "quel",
        "quelle",
        "quelles",
        "quels",
        "quoi",
        "si",
        "tu",
        "vous",
        "бы",
        "будет",
        "где",
        "его",
        "ее",
        "если",
        "есть",
        "же",
        "зачем",
        "их",
        "какая",
        "какие",
        "каким",
        "какое",
        "какой",
        "когда",
        "кто",
        "куда",
        "ли",
        "меня",
        "мне",
        "можно",
        "мои",
        "мой",
        "моя",
        "мы",
        "надо",
        "нужно",
        "он",
        "она",
        "они",
        "почему",
        "происходит",
        "сколько",
        "ты",
        "чем",
        "я",
    }
)
"""Question and filler words ("how", "comment", "можно"): a query keeps them, at
:data:`QUESTION_WEIGHT`, so that they never outweigh its terms yet still favour a title that has
them ("When to test Morale"); they are not needed for the bonus of rules that have every word."""
QUESTION_WEIGHT = 0.25

GAME_NAMES = {"kensei": ("kensei", "кенсей", "кэнсэй", "кенсэй"), "ronin": ("ronin", "ронин")}
"""The games as players name them in a query ("ronin movement", "движение в ронине")."""
OTHER_GAME_WEIGHT = 0.25
"""A query that names a game keeps the other game's rules at this share of their score: they come
after the named game's rules, yet still answer when that game has nothing."""

FIELD_WEIGHTS = {"title": 2.5, "aliases": 2.5, "names": 1.8, "keywords": 1.2, "body": 1.0, "extra": 0.4}
"""How much a word counts in each field of a rule: its number and title; the players' words for it
and for the terms it defines, in the language searched (aliases.yaml); its title and the glossary
names of the terms it defines in the other languages, with those terms' players' words there (AP, PA,
ОД: a player types an abbreviation of another language; a rule's own players' phrases in another
language found nothing more and weighed down each language's search index); its id and the names of
the terms it mentions; its text; its worked examples and notes."""
FIELD_B = {"title": 0.3, "aliases": 0.3, "names": 0.3, "keywords": 0.5, "body": 0.75, "extra": 0.75}
"""BM25 length normalisation per field: short fields are hardly normalised."""
K1 = 2.0
"""BM25's saturation of the summed term frequency: a rule's score for a word approaches ``K1 + 1``
times the word's idf however often the word appears. Chosen over the query files' top-three rates (1.2
to 5 all scored within a query or two of each other)."""

PREFIX_WEIGHT = 0.5
"""A query word that begins a longer known word counts half as much as the word itself."""
STEM_PREFIX_WEIGHT = 0.4
"""A known stem sharing its beginning with a long query stem: PREFIX_WEIGHT plus this much times
the share of letters in common."""
PAIR_WEIGHT = 1.0
"""Two query words found side by side score as one more word (phrases)."""
TYPO_WEIGHTS = {0: 1.0, 1: 0.6, 2: 0.4}
"""A query word a typing mistake away from a known word: weight by edit distance (0: the same
word typed without its accents, which its stem may not show: "superiorite")."""
PREFIX_MIN_LETTERS = 4
TYPO_MIN_LETTERS = 4
"""Shorter words are not corrected: one edit away from a short word lies another real word."""
SHARED_STEM_LETTERS = 6
STEM_SHARE = 0.6
"""A query stem of SHARED_STEM_LETTERS letters or more also matches known stems that share their
first STEM_SHARE of its letters."""
LONG_WORD_LETTERS = 7
"""Words this long tolerate two typing mistakes, shorter ones one."""
ALL_TERMS_BONUS = 0.5
"""A rule that matches every meaningful word of a multi-word query scores this much more (x1.5)."""
COMMON_DOCUMENT_SHARE = 0.5
"""A query word found in more than this share of the rules is not required for that bonus."""
NAME_BONUS = 1.0
"""A query that is a rule's title or one of its aliases, word for word (in any form and order,
without stop words), scores this much more (x2)."""
EXACT_SCORE = 1000.0
"""Score of a rule named by its number or id in the query: above any word score."""
SNIPPET_LETTERS = 110
"""The passage shown of a sentence too long to show whole."""
SENTENCE_LETTERS = 220
"""The longest sentence a result shows whole: two lines of a terminal, three of a phone."""
SENTENCE = re.compile(r"\S(?:.*?)(?:[.!?…](?=\s|$)|$)")
"""A sentence of a rule's one-line text: up to a full stop, a question or exclamation mark or an
ellipsis followed by a space, or the end (a number such as 8.3.2 or 1.5 does not end one)."""
ENDED = re.compile(r"[.!?…]$")
QUERY_WORDS = 16
"""Words of a query beyond this many are ignored: no pasted text can make a search slow."""


def normalise(text: str) -> str:
    """Case-folded text with ё written е, as Russian is usually typed."""
    return text.casefold().replace("ё", "е")


def _fold_accents(word: str) -> str:
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
    Russian index); digits are kept as they are. Latin stems lose their accents afterwards.

    >>> stem("regroupées", "fr"), stem("перегруппировки", "ru"), stem("regrouping", "en")
    ('regroup', 'перегруппировк', 'regroup')
    """
    if word.isdigit():
        return word
    if CYRILLIC.search(word):
        return _stemmer("ru").stemWord(word)
    return _fold_accents(_stemmer(LATIN_STEMMER[lang]).stemWord(word))


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


class Hit:
    """One rule found by a search: its id, number and title, its score, and a short passage around the
    words found.

    A plain class rather than a dataclass: the terminal's search prints hits from a compiled index
    without building a rule, and importing :mod:`dataclasses` alone (through :mod:`inspect`) takes a
    fifth of the command's time. The rule itself (:attr:`rule`) is read from the index when asked."""

    __slots__ = ("_doc", "_index", "id", "number", "score", "snippet", "title")

    def __init__(self, index: SearchIndex, doc: int, score: float, snippet: str) -> None:
        self.id, self.number, self.title = index.labels[doc]
        self.score, self.snippet = score, snippet
        self._index, self._doc = index, doc

    @property
    def rule(self) -> Rule:
        """The rule found (the index's rule book is read when it is first asked for)."""
        return self._index.rules[self._doc]

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "number": self.number, "title": self.title, "score": round(self.score, 4)}

    def __repr__(self) -> str:
        return f"Hit(id={self.id!r}, score={self.score:.4f}, title={self.title!r})"


_Candidate = namedtuple("_Candidate", "term weight idf")
"""A known index term standing for a query word, how much it counts, and the idf it is scored
with: never above that of the query word's own stem when the index knows it, so that a rare
longer word does not outscore the word typed ("units" finding "united"), else never above that
of the most common word it begins, so that a word half typed ("marc") does not outscore itself
typed in full ("march") through a rare longer word ("marcher")."""


class SearchIndex:
    """The rules of one language, ready to be searched. Build it once; searching is read-only.

    Everything a search reads is plain data (numbers, strings, lists and dicts), so that a compiled copy
    (:mod:`kensei_ref.cli.compiled`) answers without the rule book: that copy leaves :attr:`book` to a
    function that reads it on first use (``_read_book``)."""

    def __init__(self, book: RuleBook, lang: str):
        if lang not in LANGS:
            raise ValueError(f"language: must be one of {', '.join(LANGS)}, got {lang!r}")
        self._book: RuleBook | None = book
        self._read_book: Callable[[], RuleBook] | None = None
        self.lang = lang
        self.labels = [(rule.id, rule.number, rule.title[lang]) for rule in book.rules]
        """Each rule's id, number and title in the index's language, in the rule book's order."""
        self.texts = [readable_body(book, rule, lang) for rule in self.rules]
        texts = [rule_fields(book, rule, lang, text) for rule, text in zip(self.rules, self.texts, strict=True)]
        self._surface: dict[str, set[str]] = {}
        self._stems: dict[str, str] = {}
        self._question_stems: frozenset[str] | None = None
        """The stem of every word the index has read: a snippet finds its words without stemming them again."""
        fields = [{name: self._terms(text) for name, text in doc.items()} for doc in texts]
        self._postings = _weigh(fields)
        self._idf = {
            term: math.log(1 + (len(self.rules) - len(docs) + 0.5) / (len(docs) + 0.5))
            for term, docs in self._postings.items()
        }
        self._vocabulary = sorted(term for term in self._postings if " " not in term)
        self._stems_by_length = _by_length(self._vocabulary)
        self._surface_by_length = _by_length(self._surface)
        self._names_of = [self._names(rule) for rule in self.rules]
        self._games = [rule.id.split(".", 1)[0] for rule in self.rules]
        self._numbers = [rule.number or "" for rule in self.rules]
        self._game_stems = {stem(name, lang): game for game, names in GAME_NAMES.items() for name in names}
        self._exact = {rule.id: i for i, rule in enumerate(self.rules)}
        self._exact.update({rule.number: i for i, rule in enumerate(self.rules) if rule.number})

    @property
    def book(self) -> RuleBook:
        """The rule book the index was built from."""
        if self._book is None:
            if self._read_book is None:
                raise ValueError("a search index without its rule book")
            self._book = self._read_book()
        return self._book

    @property
    def rules(self) -> tuple[Rule, ...]:
        return self.book.rules

    # -- building ---------------------------------------------------------------------------

    def _names(self, rule: Rule) -> set[frozenset[str]]:
        """The stems of the rule's title and of each of its aliases in this language, without stop
        words: a query with exactly these stems names the rule."""
        names = [rule.title[self.lang], *rule_aliases(self.book, rule, self.lang)]
        return {frozenset(stem(word, self.lang) for word in words(name) if word not in STOP_WORDS) for name in names}

    def _terms(self, texts: list[str]) -> list[str]:
        """Index terms of ``texts``: whole tokens, word stems and pairs of neighbouring stems."""
        terms: list[str] = []
        for text in texts:
            text_words = words(text)
            for word in text_words:
                self._stems[word] = stem(word, self.lang)
                self._surface.setdefault(_fold_accents(word), set()).add(self._stems[word])
            terms += tokenize(text, self.lang) + _pairs(text_words, self.lang)
        return terms

    # -- matching query words to index terms ------------------------------------------------

    def _stem(self, word: str) -> str:
        """:func:`stem` of a normalised ``word``, from the stems the index read when it has the word: a
        query of known words needs no stemmer (loading Snowball's takes longer than a search)."""
        return self._stems.get(word) or stem(word, self.lang)

    def _prefixed(self, prefix: str) -> Iterator[str]:
        """Known stems that begin with ``prefix``, itself included."""
        start = bisect.bisect_left(self._vocabulary, prefix)
        for term in self._vocabulary[start:]:
            if not term.startswith(prefix):
                break
            yield term

    def _sharing_stem(self, term: str) -> Iterator[tuple[str, float]]:
        """Known stems that share most of their beginning with a long stem ``term``, weighted by
        how much they share: forms Snowball reduces to different stems (знамя, знамени; chargent,
        charge; перегруппировать, перегруппировка)."""
        if len(term) < SHARED_STEM_LETTERS:
            return
        shared = max(PREFIX_MIN_LETTERS, math.ceil(STEM_SHARE * len(term)))
        for known in self._prefixed(term[:shared]):
            common = next(
                (i for i, (a, b) in enumerate(zip(term, known, strict=False)) if a != b), min(len(term), len(known))
            )
            if common >= shared and known != term and not known.startswith(term):
                yield known, PREFIX_WEIGHT + STEM_PREFIX_WEIGHT * common / max(len(term), len(known))

    def _misspelt(self, word: str, term: str) -> dict[str, float]:
        """Known stems a typing mistake away from the query ``word`` or from its stem ``term``."""
        limit = 2 if len(word) >= LONG_WORD_LETTERS else 1
        found: dict[str, float] = {}
        for known, distance in _near(term, self._stems_by_length, limit):
            found[known] = max(found.get(known, 0.0), TYPO_WEIGHTS[distance])
        for surface, distance in _near(_fold_accents(word), self._surface_by_length, limit):
            for known in self._surface[surface]:
                found[known] = max(found.get(known, 0.0), TYPO_WEIGHTS[distance])
        return found

    def candidates(self, word: str) -> list[_Candidate]:
        """The index terms a normalised query ``word`` stands for, each with its weight: its stem
        (1); lower, longer known words that it begins and known stems that share most of its letters;
        and, when it is neither a known stem nor the beginning of one (a word still being typed, as
        "regr"), known words a typing mistake away."""
        term = self._stem(word)
        prefixes = {term, _fold_accents(word)} if len(word) >= PREFIX_MIN_LETTERS else set()
        begun = {known for prefix in prefixes for known in self._prefixed(prefix) if known != prefix}
        found = dict.fromkeys(begun, PREFIX_WEIGHT)
        if term in self._postings:
            found[term] = 1.0
        elif not begun and len(word) >= TYPO_MIN_LETTERS and not word.isdigit():
            found.update(self._misspelt(word, term))
        for known, weight in self._sharing_stem(term):
            found[known] = max(found.get(known, 0.0), weight)
        cap = self._idf.get(term, min((self._idf[known] for known in begun), default=math.inf))
        return [_Candidate(known, weight, min(cap, self._idf[known])) for known, weight in found.items()]

    def _named(self, query: str) -> list[int]:
        """Rules the query names by number or id, in the order named; numbers also name the rules
        numbered below them (8.3 names 8.3.1 ... after 8.3 itself)."""
        text = normalise(query)
        named: dict[int, None] = {}
        for token in WHOLE.findall(text) + HYPHENATED.findall(text):
            keys = [token] if "." in token else [f"{game}.{token}" for game in ("kensei", "ronin")]
            named.update((self._exact[key], None) for key in keys if key in self._exact)
        for token in WHOLE.findall(text):
            if NUMBER.match(token):
                named.update((i, None) for i, number in enumerate(self._numbers) if number.startswith(token + "."))
        return list(named)

    # -- searching --------------------------------------------------------------------------

    def _bm25(self, term: str, weight: float, idf: float | None = None) -> dict[int, float]:
        idf = self._idf[term] if idf is None else idf
        return {doc: weight * idf * tf for doc, tf in self._postings[term].items()}

    def search(self, query: str, limit: int = 10) -> list[Hit]:
        """The rules that best match ``query``, best first, at most ``limit`` of them.

        Args:
            query: words in any form and language, rule numbers, rule ids.
            limit: how many rules to return at most.
        """
        query_words = words(WHOLE.sub(" ", normalise(query)))
        query_words = [word for word in query_words if word not in STOP_WORDS] or query_words
        query_words = list(dict.fromkeys(query_words))[:QUERY_WORDS]
        query_words, game = self._game_named(query_words)
        scores, matched = self._score_words(query_words)
        for pair in dict.fromkeys(_pairs(query_words, self.lang, self._stem)):
            if pair in self._postings:
                for doc, score in self._bm25(pair, PAIR_WEIGHT).items():
                    scores[doc] = scores.get(doc, 0.0) + score
        self._favour_names(query_words, scores)
        if game:
            for doc in scores:
                if self._games[doc] != game:
                    scores[doc] *= OTHER_GAME_WEIGHT
        for rank, doc in enumerate(self._named(query)):
            scores[doc] = scores.get(doc, 0.0) + EXACT_SCORE - rank
        ranked = sorted(scores, key=lambda doc: (-scores[doc], doc))[:limit]
        return [self._hit(doc, scores[doc], matched.get(doc, set())) for doc in ranked]

    def _game_named(self, query_words: list[str]) -> tuple[list[str], str | None]:
        """The query's words without the name of a game, and the game it names (None when it names
        none, or nothing else)."""
        games = {self._game_stems.get(self._stem(word)) for word in query_words} - {None}
        rest = [word for word in query_words if self._stem(word) not in self._game_stems]
        if len(games) != 1 or not rest:
            return query_words, None
        return rest, games.pop()

    def _favour_names(self, query_words: list[str], scores: dict[int, float]) -> None:
        """Raise the rules whose title or alias the query is, word for word: with its question
        words when a title has them ("When to test Morale"), else without ("how do I rally" is
        "rally")."""
        stems = frozenset(self._stem(word) for word in query_words)
        meaning = frozenset(self._stem(word) for word in query_words if word not in QUESTION_WORDS)
        named = [doc for doc in scores if stems in self._names_of[doc]]
        for doc in named or [doc for doc in scores if meaning in self._names_of[doc]]:
            scores[doc] *= 1 + NAME_BONUS

    def _score_words(self, query_words: list[str]) -> tuple[dict[int, float], dict[int, set[str]]]:
        """Each rule's score for the query words (each word counted once, by its best index term,
        with the bonus for rules that have every meaningful word), and the index terms it matched."""
        scores: dict[int, float] = {}
        matched_words: dict[int, set[str]] = {}
        matched_terms: dict[int, set[str]] = {}
        meaningful: set[str] = set()
        asked = [word for word in query_words if word not in QUESTION_WORDS]
        for word in query_words:
            weight = 1.0 if word in asked or not asked else QUESTION_WEIGHT
            best: dict[int, tuple[float, str]] = {}
            for candidate in self.candidates(word):
                for doc, score in self._bm25(candidate.term, weight * candidate.weight, candidate.idf).items():
                    if score > best.get(doc, (0.0, ""))[0]:
                        best[doc] = (score, candidate.term)
            if len(best) <= COMMON_DOCUMENT_SHARE * len(self.labels) and weight == 1.0:
                meaningful.add(word)
            for doc, (score, term) in best.items():
                scores[doc] = scores.get(doc, 0.0) + score
                matched_words.setdefault(doc, set()).add(word)
                matched_terms.setdefault(doc, set()).add(term)
        if len(meaningful) > 1:
            for doc, found in matched_words.items():
                if meaningful <= found:
                    scores[doc] *= 1 + ALL_TERMS_BONUS
        return scores, matched_terms

    def _hit(self, doc: int, score: float, terms: set[str]) -> Hit:
        return Hit(self, doc, score, self.snippet(doc, terms))

    def snippet(self, doc: int, terms: Iterable[str]) -> str:
        """The sentence of the rule's text that answers the query: the one holding the query's words
        that weigh most (each counted once, by its idf), the first of equals; whole when it is short
        enough to read at a glance, else the passage of it around those words."""
        text = self.texts[doc]
        wanted = set(terms)
        best, best_weight = (0, len(text)), 0.0
        for sentence in SENTENCE.finditer(text):
            found = {
                term for match in WORD.finditer(sentence[0]) if (term := self._stem(normalise(match[0]))) in wanted
            }
            weight = sum(self._idf.get(term, 0.0) * self._term_weight(term) for term in found)
            if weight > best_weight:
                best, best_weight = sentence.span(), weight
        start, end = best
        if end - start > SENTENCE_LETTERS:
            start, end = self._passage(text, wanted, start, end)
        snippet = text[start:end].strip()
        return ("…" if start > 0 else "") + snippet + ("…" if end < len(text) and not ENDED.search(snippet) else "")

    def _term_weight(self, term: str) -> float:
        """A question or filler word ("can", "comment") counts for a sentence as it counts for a rule."""
        if self._question_stems is None:
            self._question_stems = frozenset(self._stem(word) for word in QUESTION_WORDS)
        return QUESTION_WEIGHT if term in self._question_stems else 1.0

    def _passage(self, text: str, wanted: set[str], low: int, high: int) -> tuple[int, int]:
        """The ``SNIPPET_LETTERS`` of ``text[low:high]`` where most of ``wanted`` appear, cut at spaces."""
        found = [
            (low + match.start(), term)
            for match in WORD.finditer(text[low:high])
            if (term := self._stem(normalise(match[0]))) in wanted
        ]
        reach = SNIPPET_LETTERS * 2 // 3
        start = max(
            found,
            default=(low, ""),
            key=lambda hit: (len({t for p, t in found if hit[0] <= p < hit[0] + reach}), -hit[0]),
        )[0]
        lead = SNIPPET_LETTERS // 4
        start = text.rfind(" ", low, start - lead) + 1 if start - lead > low else low
        end = min(high, start + SNIPPET_LETTERS)
        if end < high:
            end = text.rfind(" ", start, end) if " " in text[start:end] else end
        return start, end


def _pairs(text_words: list[str], lang: str, stem_of: Callable[[str], str] | None = None) -> list[str]:
    """Stems of neighbouring words, skipping stop words, as one term ("long rang", "capac taisho"):
    a phrase scores above its scattered words. ``stem_of`` stems a word (:func:`stem` by default)."""
    stemmed = stem_of or (lambda word: stem(word, lang))
    stems = [stemmed(word) for word in text_words if word not in STOP_WORDS]
    return [f"{a} {b}" for a, b in pairwise(stems)]


def _by_length(terms: Iterable[str]) -> dict[int, list[str]]:
    buckets: dict[int, list[str]] = {}
    for term in terms:
        buckets.setdefault(len(term), []).append(term)
    return buckets


def _near(word: str, by_length: dict[int, list[str]], limit: int) -> Iterator[tuple[str, int]]:
    """Known words within ``limit`` edits of ``word``, with their distance."""
    for length in range(len(word) - limit, len(word) + limit + 1):
        for known in by_length.get(length, ()):
            distance = edit_distance(word, known, limit)
            if distance <= limit:
                yield known, distance


def _weigh(fields: list[dict[str, list[str]]]) -> dict[str, dict[int, float]]:
    """Per term and rule, its BM25F term frequency: the count in each field, length-normalised and
    times the field's weight, summed over the fields, then saturated once; a query multiplies it by the
    term's idf. Saturating the sum rather than each field (Robertson, Zaragoza and Taylor, "Simple BM25
    extension to multiple weighted fields", 2004) keeps a rule that repeats a word in every field (a
    title "Withstand and shoot", its aliases, its text) from outscoring, many times over, a rule that
    has the word once where it counts."""
    average = {name: max(1.0, sum(len(doc[name]) for doc in fields) / len(fields)) for name in FIELD_WEIGHTS}
    postings: dict[str, dict[int, float]] = {}
    for i, doc in enumerate(fields):
        for name, terms in doc.items():
            norm = 1 - FIELD_B[name] + FIELD_B[name] * len(terms) / average[name]
            for term, count in Counter(terms).items():
                per_doc = postings.setdefault(term, {})
                per_doc[i] = per_doc.get(i, 0.0) + FIELD_WEIGHTS[name] * count / norm
    for per_doc in postings.values():
        for i, tf in per_doc.items():
            per_doc[i] = tf * (K1 + 1) / (tf + K1)
    return postings


@cache
def index_for(lang: str) -> SearchIndex:
    """The search index of ``lang`` over the bundled rule data, built on first use."""
    return SearchIndex(bundled_book(), lang)


@cache
def bundled_book() -> RuleBook:
    """The rule data shipped with the package, loaded and validated once."""
    from kensei_ref.rules.loader import load

    return load()


def search(query: str, lang: str = "en", limit: int = 10) -> list[Hit]:
    """Search the bundled rules of ``lang`` (see :meth:`SearchIndex.search`)."""
    return index_for(lang).search(query, limit)


# -- looking a rule up by id or number -------------------------------------------------------


GAME_PREFIXES = ("kensei.", "ronin.")
SUGGESTIONS = 5
"""At most this many nearest ids or names are suggested when nothing is found."""


class NotFound(LookupError):
    """Nothing answers to what was asked; ``suggestions`` are the nearest names, best first."""

    def __init__(self, wanted: str, suggestions: list[str], ambiguous: bool = False):
        self.wanted = wanted
        self.suggestions = suggestions
        self.ambiguous = ambiguous
        super().__init__(wanted)


def find_rule(book: RuleBook, wanted: str) -> Rule:
    """The rule named by ``wanted``: an id (``kensei.regroup``), a number (``8.3.2``) or an id
    without its game prefix when only one game has it (``regroup``).

    Raises:
        NotFound: with the nearest ids; ``ambiguous`` when the id exists in both games.
    """
    key = normalise(wanted.strip()).rstrip(".")
    by_key = {rule.id: rule for rule in book.rules}
    by_key.update({rule.number: rule for rule in book.rules if rule.number})
    if key in by_key:
        return by_key[key]
    unprefixed = [rule for rule in book.rules if rule.id.split(".", 1)[1] == key]
    if len(unprefixed) == 1:
        return unprefixed[0]
    if unprefixed:
        raise NotFound(wanted, [rule.id for rule in unprefixed], ambiguous=True)
    by_short: dict[str, list[str]] = {}
    for rule in book.rules:
        by_short.setdefault(rule.id.split(".", 1)[1], []).append(rule.id)
    short_key = key.split(".", 1)[1] if key.startswith(GAME_PREFIXES) else key
    near = [
        rule_id
        for short in difflib.get_close_matches(short_key, list(by_short), n=5, cutoff=0.6)
        for rule_id in by_short[short]
    ]
    if NUMBER.match(key) or key.isdigit():
        numbers = {rule.number: rule.id for rule in book.rules if rule.number}
        near += [numbers[n] for n in difflib.get_close_matches(key, list(numbers), n=3, cutoff=0.6)]
    raise NotFound(wanted, list(dict.fromkeys(near))[:SUGGESTIONS])


# -- looking a glossary term up by name ------------------------------------------------------

NEAREST_NAME_CUTOFF = 0.75
"""How alike a name must be (difflib ratio) to be taken for a misspelt glossary name."""
NAME_LETTERS = 80
"""The longest text looked up as a glossary name (the longest name has 26 letters): a longer one
names no term, and is not compared with every name (a pasted page would take minutes)."""


def _name_stems(name: str, lang: str) -> tuple[str, ...]:
    return tuple(stem(word, lang) for word in words(re.sub(r"\(.*?\)", "", name)))


def find_terms(book: RuleBook, wanted: str) -> list[Term]:
    """The glossary terms named ``wanted`` in any of the three languages.

    Tried in turn: the exact name or alias (ignoring case and accents: "AP", "ОД"), the same words
    in another form (Snowball stems: "regroupements", "перегруппировки"), then the nearest name
    when it is close.

    Raises:
        NotFound: with the nearest names, when none is close enough.
    """
    key = _fold_accents(normalise(" ".join(wanted.split())))
    if not key or len(key) > NAME_LETTERS:
        raise NotFound(wanted, [])
    exact = [
        t
        for t in book.terms
        if any(_fold_accents(normalise(name)) == key for x in LANGS for name in (t.name[x], *book.aliases_of(t.id, x)))
    ]
    if exact:
        return exact
    wanted_stems = {x: _name_stems(wanted, x) for x in LANGS}
    same_stems = [t for t in book.terms if any(wanted_stems[x] == _name_stems(t.name[x], x) != () for x in LANGS)]
    if same_stems:
        return same_stems
    names = {_fold_accents(normalise(t.name[x])): (t, t.name[x]) for t in book.terms for x in LANGS}
    near = difflib.get_close_matches(key, list(names), n=SUGGESTIONS, cutoff=0.6)
    if near and difflib.SequenceMatcher(None, key, near[0]).ratio() >= NEAREST_NAME_CUTOFF:
        return [names[near[0]][0]]
    raise NotFound(wanted, [names[n][1] for n in near])

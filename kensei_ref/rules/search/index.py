"""One language's index of the rules, its search and the snippets of its results."""

from __future__ import annotations

import bisect
import math
import re
from collections import namedtuple
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from itertools import pairwise

from kensei_ref.languages import LANGUAGES as LANGS
from kensei_ref.rules.search.ranking import (
    ALL_TERMS_BONUS,
    COMMON_DOCUMENT_SHARE,
    EXACT_SCORE,
    LONG_WORD_LETTERS,
    NAME_BONUS,
    OTHER_GAME_WEIGHT,
    PAIR_WEIGHT,
    PREFIX_MIN_LETTERS,
    PREFIX_WEIGHT,
    QUERY_WORDS,
    QUESTION_WEIGHT,
    SHARED_STEM_LETTERS,
    STEM_PREFIX_WEIGHT,
    STEM_SHARE,
    TYPO_MIN_LETTERS,
    TYPO_WEIGHTS,
    by_length,
    near,
    weighed_postings,
)
from kensei_ref.rules.search.text import (
    GAME_NAMES,
    HYPHENATED,
    NUMBER,
    QUESTION_WORDS,
    STOP_WORDS,
    WHOLE,
    WORD,
    fold_accents,
    normalise,
    readable_body,
    rule_aliases,
    rule_fields,
    stem,
    tokenize,
    word_pairs,
    words,
)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a few ms a command)
if TYPE_CHECKING:  # the model only names types here: a search of a compiled index builds no rule
    from kensei_ref.rules.model import Rule, RuleBook


SNIPPET_LETTERS = 110
"""The passage shown of a sentence too long to show whole."""
SENTENCE_LETTERS = 220
"""The longest sentence a result shows whole: two lines of a terminal, three of a phone."""
SENTENCE = re.compile(r"\S(?:.*?)(?:[.!?…](?=\s|$)|$)")
"""A sentence of a rule's one-line text: up to a full stop, a question or exclamation mark or an
ellipsis followed by a space, or the end (a number such as 8.3.2 or 1.5 does not end one)."""
ENDED = re.compile(r"[.!?…]$")


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
        self._postings = weighed_postings(fields)
        self._idf = {
            term: math.log(1 + (len(self.rules) - len(docs) + 0.5) / (len(docs) + 0.5))
            for term, docs in self._postings.items()
        }
        self._vocabulary = sorted(term for term in self._postings if " " not in term)
        self._stems_by_length = by_length(self._vocabulary)
        self._surface_by_length = by_length(self._surface)
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
                self._surface.setdefault(fold_accents(word), set()).add(self._stems[word])
            terms += tokenize(text, self.lang) + word_pairs(text_words, self.lang)
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
        for known, distance in near(term, self._stems_by_length, limit):
            found[known] = max(found.get(known, 0.0), TYPO_WEIGHTS[distance])
        for surface, distance in near(fold_accents(word), self._surface_by_length, limit):
            for known in self._surface[surface]:
                found[known] = max(found.get(known, 0.0), TYPO_WEIGHTS[distance])
        return found

    def candidates(self, word: str) -> list[_Candidate]:
        """The index terms a normalised query ``word`` stands for, each with its weight: its stem
        (1); lower, longer known words that it begins and known stems that share most of its letters;
        and, when it is neither a known stem nor the beginning of one (a word still being typed, as
        "regr"), known words a typing mistake away."""
        term = self._stem(word)
        prefixes = {term, fold_accents(word)} if len(word) >= PREFIX_MIN_LETTERS else set()
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
        for pair, weight in self._query_pairs(query_words).items():
            if pair in self._postings:
                for doc, score in self._bm25(pair, weight).items():
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

    def _query_pairs(self, query_words: list[str]) -> dict[str, float]:
        """The query's pairs of neighbouring words (:func:`word_pairs`), each with its weight: a pair
        with a question word counts a quarter, as the word does ("when shoot" in "what happens on a
        10 when shooting" is no phrase of the answer), unless the query is only question words."""
        kept = [word for word in query_words if word not in STOP_WORDS]
        asked = any(word not in QUESTION_WORDS for word in kept)
        pairs = word_pairs(kept, self.lang, self._stem)
        weights: dict[str, float] = {}
        for pair, (first, second) in zip(pairs, pairwise(kept), strict=True):
            question = asked and (first in QUESTION_WORDS or second in QUESTION_WORDS)
            weight = PAIR_WEIGHT * (QUESTION_WEIGHT if question else 1.0)
            weights[pair] = max(weights.get(pair, 0.0), weight)
        return weights

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

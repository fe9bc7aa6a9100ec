"""How much each match counts: the BM25F weights of a rule's fields, the shares of near matches
(beginnings, shared stems, typing mistakes), the bonuses of phrases and names. The site's search worker
ranks with the same figures (rule_ranking.js, beside this file, reads them from the build's settings)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator

from kensei_ref.rules.search.text import edit_distance

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a few ms a command)
if TYPE_CHECKING:  # the model only names types here: a search of a compiled index builds no rule
    pass


QUESTION_WEIGHT = 0.25
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
QUERY_WORDS = 16
"""Words of a query beyond this many are ignored: no pasted text can make a search slow."""


def by_length(terms: Iterable[str]) -> dict[int, list[str]]:
    buckets: dict[int, list[str]] = {}
    for term in terms:
        buckets.setdefault(len(term), []).append(term)
    return buckets


def near(word: str, by_length: dict[int, list[str]], limit: int) -> Iterator[tuple[str, int]]:
    """Known words within ``limit`` edits of ``word``, with their distance."""
    for length in range(len(word) - limit, len(word) + limit + 1):
        for known in by_length.get(length, ()):
            distance = edit_distance(word, known, limit)
            if distance <= limit:
                yield known, distance


def weighed_postings(fields: list[dict[str, list[str]]]) -> dict[str, dict[int, float]]:
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

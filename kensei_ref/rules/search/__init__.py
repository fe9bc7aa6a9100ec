"""Find rules and glossary terms from what a player types: ids, numbers, words in any form.

One :class:`SearchIndex` per language ranks the rules with BM25F: a rule is a document whose fields
(its number and title, above the glossary names it uses, above its text) count a word each with its
weight, and the weighted counts are summed before BM25 saturates them, so that a word in a title
outweighs the same word repeated in a long text, and a word found in every field does not count
many times over. Every word is reduced to its Snowball stem, so that
"перегруппировки", "regroupées" and "regrouping" find the rule whose title says
"Перегруппировка", "Regrouper", "Regrouping". A rule's keywords hold the glossary names of its
terms in every language, so a player who knows a term only in English finds it from the
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

The package is split by concern: :mod:`.text` (words, stems, the texts of a rule's fields),
:mod:`.ranking` (the weights of BM25F and of near matches; ``rule_ranking.js`` beside it ranks the
same way in the site's search worker, from the same figures), :mod:`.index` (a language's index, its
search and its snippets) and :mod:`.lookup` (a rule by its id or number, a term by its name). Their
names are all here, so that ``search.search(...)`` reads as before.
"""

from __future__ import annotations

from kensei_ref.rules.search.index import (
    ENDED,
    SENTENCE,
    SENTENCE_LETTERS,
    SNIPPET_LETTERS,
    Hit,
    SearchIndex,
    bundled_book,
    index_for,
    search,
)
from kensei_ref.rules.search.lookup import (
    GAME_PREFIXES,
    NAME_LETTERS,
    NEAREST_NAME_CUTOFF,
    SUGGESTIONS,
    NotFound,
    find_rule,
    find_terms,
)
from kensei_ref.rules.search.ranking import (
    ALL_TERMS_BONUS,
    COMMON_DOCUMENT_SHARE,
    EXACT_SCORE,
    FIELD_B,
    FIELD_WEIGHTS,
    K1,
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
    CYRILLIC,
    CYRILLIC_STEMMER,
    GAME_NAMES,
    HYPHENATED,
    LATIN_STEMMER,
    MARKUP,
    NUMBER,
    QUESTION_WORDS,
    STEMMERS,
    STOP_WORDS,
    WHOLE,
    WORD,
    edit_distance,
    fold_accents,
    normalise,
    number_stems,
    plain_text,
    readable_body,
    referenced_terms,
    rule_aliases,
    rule_fields,
    stem,
    tokenize,
    word_pairs,
    words,
)

__all__ = [
    "ALL_TERMS_BONUS",
    "COMMON_DOCUMENT_SHARE",
    "CYRILLIC",
    "CYRILLIC_STEMMER",
    "ENDED",
    "EXACT_SCORE",
    "FIELD_B",
    "FIELD_WEIGHTS",
    "GAME_NAMES",
    "GAME_PREFIXES",
    "HYPHENATED",
    "K1",
    "LATIN_STEMMER",
    "LONG_WORD_LETTERS",
    "MARKUP",
    "NAME_BONUS",
    "NAME_LETTERS",
    "NEAREST_NAME_CUTOFF",
    "NUMBER",
    "OTHER_GAME_WEIGHT",
    "PAIR_WEIGHT",
    "PREFIX_MIN_LETTERS",
    "PREFIX_WEIGHT",
    "QUERY_WORDS",
    "QUESTION_WEIGHT",
    "QUESTION_WORDS",
    "SENTENCE",
    "SENTENCE_LETTERS",
    "SHARED_STEM_LETTERS",
    "SNIPPET_LETTERS",
    "STEMMERS",
    "STEM_PREFIX_WEIGHT",
    "STEM_SHARE",
    "STOP_WORDS",
    "SUGGESTIONS",
    "TYPO_MIN_LETTERS",
    "TYPO_WEIGHTS",
    "WHOLE",
    "WORD",
    "Hit",
    "NotFound",
    "SearchIndex",
    "bundled_book",
    "by_length",
    "edit_distance",
    "find_rule",
    "find_terms",
    "fold_accents",
    "index_for",
    "near",
    "normalise",
    "number_stems",
    "plain_text",
    "readable_body",
    "referenced_terms",
    "rule_aliases",
    "rule_fields",
    "search",
    "stem",
    "tokenize",
    "weighed_postings",
    "word_pairs",
    "words",
]

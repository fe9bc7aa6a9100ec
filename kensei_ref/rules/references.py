"""Inline references inside rule texts: ``{rule:ID}``, ``{term:ID}``, ``{value:KEY}``, ``{signed:KEY}``,
``{percent:KEY}``; a ``{value:KEY|words}`` gives its number in words (checked against the value).

The data writes numbers and links symbolically so that a number lives once (in a rule's
``values``) and a title is never repeated by hand; this module turns them into Markdown for a
given language and page.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from kensei_ref.languages import BY_CODE

REFERENCE = re.compile(r"\{(?P<kind>rule|term|value|signed|percent):(?P<target>[^}|\s]+)(?:\|(?P<label>[^}]*))?\}")
"""``{kind:target}`` or ``{kind:target|label}``; values name ``key`` or ``rule.id#key``."""

VALUE_KINDS = ("value", "signed", "percent")
"""The references that show one of a rule's values: as it is, signed, or as a percent of 100."""


def number_in_words(label: str, number: int, lang: str) -> bool:
    """Whether ``label`` writes ``number`` in ``lang``'s words.

    >>> number_in_words("une", 1, "fr"), number_in_words("deux", 1, "fr"), number_in_words("одну", 1, "ru")
    (True, False, True)
    """
    return label.casefold() in BY_CODE[lang].words.small_numbers.get(number, frozenset())


WRITTEN_PERCENT = re.compile(r"(?<=\d)[ \u00a0\u202f]?%")
"""A percent sign after a number in prose, with or without a space before it."""


def value_text(kind: str, number: int, lang: str) -> str:
    """The number of a ``{value:…}`` (3, −1), ``{signed:…}`` (+1, 0, −2) or ``{percent:…}`` (50 %, a value of 50)
    reference as ``lang`` writes it.

    >>> value_text("percent", 50, "en"), value_text("percent", 50, "fr"), value_text("signed", -2, "ru")
    ('50%', '50\\xa0%', '\\u22122')
    """
    from fractions import Fraction

    from kensei_ref.numbers import numbers_for  # here: finding a rule formats no number, and Babel takes long to load

    numbers = numbers_for(lang)
    if kind == "percent":
        return numbers.percent(Fraction(number, 100))
    return numbers.signed(number) if kind == "signed" else numbers.decimal(number)


def written_numbers(text: str, lang: str) -> str:
    """``text`` with the percents its prose writes by hand ("a 60% chance", "60 % de chances") spaced as
    Babel spaces ``lang``'s: the rule data types an ordinary space, or none, and the page shows what
    :meth:`kensei_ref.numbers.Numbers.percent` would (the sign after a no-break space in the languages that space it,
    so that it never starts a line).

    >>> written_numbers("soit 60 % de chances", "fr"), written_numbers("a 94 % chance", "en")
    ('soit 60\\xa0% de chances', 'a 94% chance')
    """
    from kensei_ref.numbers import numbers_for

    symbols = numbers_for(lang).symbols()
    if symbols["percent_prefix"] or not str(symbols["percent_suffix"]).endswith("%"):
        return text  # a language that writes %60 reads its prose as written
    return WRITTEN_PERCENT.sub(str(symbols["percent_suffix"]), text)


BARE_RULE = re.compile(r"(?<!«)\{rule:[^}|\s]+\}(?!»)")
"""A rule reference that shows the rule's title (no label of its own) and stands in no quotation marks."""


def quote_rule_titles(text: str, lang: str) -> str:
    """``text`` with each rule title it cites in ``lang``'s quotation marks, where the language quotes them
    (Russian does; a reference with a label of its own is ordinary words, and stays as it is):

    >>> quote_rule_titles("см. {rule:kensei.run-away}; «{rule:kensei.regroup}»", "ru")
    'см. «{rule:kensei.run-away}»; «{rule:kensei.regroup}»'
    >>> quote_rule_titles("see {rule:kensei.run-away}", "en")
    'see {rule:kensei.run-away}'
    """
    language = BY_CODE[lang]
    if not language.quoted_titles:
        return text
    opening, closing = language.quotes
    return BARE_RULE.sub(lambda match: f"{opening}{match[0]}{closing}", text)


def expand(text: str, resolve: Callable[[str, str, str | None], str]) -> str:
    """Replace every inline reference in ``text`` with ``resolve(kind, target, label)``."""
    return REFERENCE.sub(lambda m: resolve(m["kind"], m["target"], m["label"]), text)


def plain(text: str, resolve_title: Callable[[str, str], str]) -> str:
    """The text with references reduced to their words (for tooltips, search and the terminal).

    Args:
        resolve_title: gives the words for a ``rule`` or ``term`` reference without a label, and
            the number for a ``value``, ``signed`` or ``percent`` reference.
    """

    def words(kind: str, target: str, label: str | None) -> str:
        if label:
            return label
        return resolve_title(kind, target)

    return expand(text, words)

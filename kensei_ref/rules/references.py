"""Inline references inside rule texts: ``{rule:ID}``, ``{term:ID}``, ``{value:KEY}``, ``{signed:KEY}``.

The data writes numbers and links symbolically so that a number lives once (in a rule's
``values``) and a title is never repeated by hand; this module turns them into Markdown for a
given language and page.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from kensei_ref.numbers import numbers_for

REFERENCE = re.compile(r"\{(?P<kind>rule|term|value|signed):(?P<target>[^}|\s]+)(?:\|(?P<label>[^}]*))?\}")
"""``{kind:target}`` or ``{kind:target|label}``; values name ``key`` or ``rule.id#key``."""


def value_text(kind: str, number: int, lang: str) -> str:
    """The number of a ``{value:…}`` (3, −1) or ``{signed:…}`` (+1, 0, −2) reference as ``lang`` writes it."""
    numbers = numbers_for(lang)
    return numbers.signed(number) if kind == "signed" else numbers.decimal(number)


def expand(text: str, resolve: Callable[[str, str, str | None], str]) -> str:
    """Replace every inline reference in ``text`` with ``resolve(kind, target, label)``."""
    return REFERENCE.sub(lambda m: resolve(m["kind"], m["target"], m["label"]), text)


def plain(text: str, resolve_title: Callable[[str, str], str]) -> str:
    """The text with references reduced to their words (for tooltips, search and the terminal).

    Args:
        resolve_title: gives the words for a ``rule`` or ``term`` reference without a label, and
            the number for a ``value`` or ``signed`` reference.
    """

    def words(kind: str, target: str, label: str | None) -> str:
        if label:
            return label
        return resolve_title(kind, target)

    return expand(text, words)

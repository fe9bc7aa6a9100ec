"""What of the rule data one language's pages are made from, as a hash: a change to the rule data
rebuilds under ``mkdocs serve`` only the languages whose hash moved.

A language's pages show its own texts, every value, and whether its translations are current, which
depends on the English (source) texts and on its own stamps. So its projection keeps, of each text,
the source language's and its own, and of every other mapping by language, its own entry.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping
from typing import Any

from kensei_ref.languages import LANGUAGES, SOURCE_LANGUAGE
from kensei_ref.rules.model import RuleBook, Text


def _project(node: Any, lang: str, with_source: bool) -> Any:
    if isinstance(node, Text):
        return (node[SOURCE_LANGUAGE], node[lang]) if with_source else node[lang]
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        fields = (_project(getattr(node, f.name), lang, with_source) for f in dataclasses.fields(node))
        return (type(node).__name__, *fields)
    if isinstance(node, Mapping):
        keys = set(node)
        if keys and keys <= set(LANGUAGES):
            return node.get(lang)
        return tuple(sorted((str(key), _project(value, lang, with_source)) for key, value in node.items()))
    if isinstance(node, list | tuple | frozenset | set):
        items = [_project(item, lang, with_source) for item in node]
        return tuple(sorted(items, key=repr)) if isinstance(node, frozenset | set) else tuple(items)
    return node


def language_digest(book: RuleBook, lang: str, *, with_source: bool = True) -> str:
    """A hash of everything in ``book`` that ``lang``'s pages can show.

    ``with_source=False`` leaves out the source language's texts, which only decide whether a
    translation may be out of date: ``mkdocs serve`` then rebuilds a translation only when its own texts
    or the values change, and an English edit reloads in the time of one language's build (the notices
    follow at the next ``make build``).

    >>> from kensei_ref.rules.loader import load
    >>> book = load()
    >>> language_digest(book, "fr") == language_digest(load(), "fr")
    True
    >>> language_digest(book, "fr") != language_digest(book, "ru")
    True
    """
    return hashlib.sha256(repr(_project(book, lang, with_source)).encode("utf-8")).hexdigest()

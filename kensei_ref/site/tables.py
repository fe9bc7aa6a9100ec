"""Every table of a page comes wrapped for sideways scrolling, as Material's script would wrap it.

After a page is drawn, Material's script takes each table without a ``class`` attribute out of the
page and puts it back inside two boxes (``.md-typeset__scrollwrap > .md-typeset__table``), on every
page and again on every page opened in place. Moving a table lays the whole page out again: on a
slow phone that was 140–260 ms of blocked main thread for the glossary's one table (the digest has
seventeen). The build writes the same two boxes around each such table and gives the
table the class :data:`TABLE_CLASS`, which Material's script leaves where it is; ``kensei.css``
gives that class Material's own rules for a table without a class (checked against Material's
stylesheet by the tests), so that the page looks the same.
"""

from __future__ import annotations

import re

TABLE_CLASS = "kr-table"
"""The class of a table the build has wrapped: Material's script wraps only a table without a class."""

WRAP_OPEN = '<div class="md-typeset__scrollwrap"><div class="md-typeset__table">'
WRAP_CLOSE = "</div></div>"
"""Material's two boxes around a table (its ``renderTable``), written as its script writes them."""

_TABLE_TAG = re.compile(r"<(/?)table\b([^>]*)>", re.IGNORECASE)
_CLASS_ATTRIBUTE = re.compile(r"\sclass(?=[\s=/]|$)", re.IGNORECASE)


def wrap_tables(html: str) -> str:
    """The page's HTML with each table that has no ``class`` attribute (the ones Material's script
    would wrap, nested ones included) inside Material's two boxes and marked with :data:`TABLE_CLASS`.

    >>> wrap_tables('<p>x</p><table><tr><td>1</td></tr></table>').replace(WRAP_OPEN, "[").replace(WRAP_CLOSE, "]")
    '<p>x</p>[<table class="kr-table"><tr><td>1</td></tr></table>]'
    >>> wrap_tables('<table class="kr-dist"><tr><td>1</td></tr></table>')
    '<table class="kr-dist"><tr><td>1</td></tr></table>'
    """
    parts: list[str] = []
    wrapped: list[bool] = []
    last = 0
    for tag in _TABLE_TAG.finditer(html):
        parts.append(html[last : tag.start()])
        last = tag.end()
        closing, attributes = tag.group(1), tag.group(2)
        if not closing:
            wrap = _CLASS_ATTRIBUTE.search(attributes) is None
            wrapped.append(wrap)
            parts.append(f'{WRAP_OPEN}<table class="{TABLE_CLASS}"{attributes}>' if wrap else tag.group(0))
        elif wrapped and wrapped.pop():
            parts.append(f"{tag.group(0)}{WRAP_CLOSE}")
        else:
            parts.append(tag.group(0))
    parts.append(html[last:])
    return "".join(parts)

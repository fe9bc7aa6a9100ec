"""French typography for generated pages and the terminal: the no-break spaces French puts before high
punctuation, inside « » and between a number and its unit.

French sets a space before ``;``, ``!``, ``?`` and ``:`` and inside « », and that space must never be
where a line breaks (a lone ``:`` or ``»`` at the start of a line). The rule data and the catalogs are
written with ordinary spaces; :func:`french_spacing` turns them into no-break ones as a page is
generated, so no writer has to type them:

- a narrow no-break space (U+202F) before ``;``, ``!`` and ``?``, and a no-break space (U+00A0) before
  ``:``, as the Imprimerie nationale's rules have it;
- a no-break space (U+00A0) after « and before », the same as the quotation marks that
  :data:`kensei_ref.languages.QUOTES` makes;
- a no-break space (U+00A0) between a number and its unit (``5 cm``, ``2d10 cm``), as
  :mod:`kensei_ref.numbers` writes the lengths it formats.

Only spaces that are already there change (a missing space is a writer's slip, not a guess this filter
makes), and only in text a reader sees: code (fenced blocks, inline spans, ``<code>``, ``<pre>``,
``<script>``, ``<style>``, ``<textarea>``), HTML tags and their attributes, comments, URLs, Markdown link
destinations and attribute lists are left as they are. The title of a Markdown link (the tooltip of a
glossary term) is text a reader sees, and is spaced like the rest.

>>> french_spacing("Coût : 2 ; voir « Charge » !")
'Coût\\xa0: 2\\u202f; voir «\\xa0Charge\\xa0»\\u202f!'
>>> french_spacing("à 5 cm, puis 2d10 cm")
'à 5\\xa0cm, puis 2d10\\xa0cm'
>>> french_spacing("[Charge](../kensei/charging.md#kensei.charge-dice?x=1 \\"Tooltip ; here\\")")
'[Charge](../kensei/charging.md#kensei.charge-dice?x=1 "Tooltip\\u202f; here")'
"""

from __future__ import annotations

import re

NO_BREAK_SPACE = "\u00a0"
NARROW_NO_BREAK_SPACE = "\u202f"

_PROTECTED = re.compile(
    r"""
      ^(?P<fence>[ \t]*(?:```|~~~)).*?^[ \t]*(?P=fence)[ \t]*$   # fenced code block
    | <(?P<raw>script|style|pre|code|textarea|kbd|samp)\b.*?</(?P=raw)\s*>  # an element whose text is code
    | <!--.*?-->                                                 # HTML comment
    | <[A-Za-z/!][^>]*>                                          # an HTML tag, attributes and all
    | (?P<ticks>`+).+?(?P=ticks)                                 # inline code
    | \]\((?:<[^>\n]*>|[^\s)]+)                                  # a Markdown link's destination
    | \{[:#.][^}\n]*\}                                           # attribute list {: .class } or {#id}
    | (?:https?|ftp|mailto):[^\s<>)\]"']+                        # a bare URL
    """,
    re.VERBOSE | re.DOTALL | re.MULTILINE,
)
"""What typography must not touch, in the order the alternatives are tried."""

_PLACEHOLDER = re.compile("\ue000(\\d+)\ue001")
"""Protected text stands aside as a private-use placeholder, which is neither space nor punctuation."""

_FOLLOWS_MARK = r"(?:[\s»)\]*_\"'’.,;:!?…\ue000]|$)"
"""A mark that is punctuation ends a word: a space, the end, or closing punctuation follows it (so
``![image]`` and ``?x=1`` are not punctuation)."""

_BEFORE_NARROW = re.compile(r"(?<=\S)[ \t\u00a0\u202f]+(?=[;!?]" + _FOLLOWS_MARK + ")", re.MULTILINE)
_BEFORE_COLON = re.compile(r"(?<=\S)[ \t\u00a0\u202f]+(?=:" + _FOLLOWS_MARK + ")", re.MULTILINE)
_AFTER_OPENING = re.compile(r"«[ \t\u00a0\u202f]+(?=\S)")
_BEFORE_CLOSING = re.compile(r"(?<=\S)[ \t\u00a0\u202f]+»")
_BEFORE_UNIT = re.compile(r"(?<=\d)[ \t\u202f]+(?=(?:mm|cm|km)\b)")


def _spaced(text: str) -> str:
    """Text without anything protected in it, with French spaces."""
    text = _BEFORE_NARROW.sub(NARROW_NO_BREAK_SPACE, text)
    text = _BEFORE_COLON.sub(NO_BREAK_SPACE, text)
    text = _AFTER_OPENING.sub("«" + NO_BREAK_SPACE, text)
    text = _BEFORE_UNIT.sub(NO_BREAK_SPACE, text)
    return _BEFORE_CLOSING.sub(NO_BREAK_SPACE + "»", text)


def french_spacing(markdown: str) -> str:
    """``markdown`` with no-break spaces before ``; ! ? :`` and inside « », outside code, tags and URLs."""
    kept: list[str] = []

    def set_aside(match: re.Match[str]) -> str:
        kept.append(match[0])
        return f"\ue000{len(kept) - 1}\ue001"

    spaced = _spaced(_PROTECTED.sub(set_aside, markdown))
    return _PLACEHOLDER.sub(lambda match: kept[int(match[1])], spaced)

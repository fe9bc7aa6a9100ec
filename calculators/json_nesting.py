"""How deep JSON text nests, measured before it is parsed.

Python's JSON parser recurses once a level of lists and objects. In CPython a deep text ends in a
``RecursionError``; in Pyodide, whose stack is the browser's, a units file of 20,000 nested lists
overflows it first ("Maximum call stack size exceeded"), and the engine is dead for the rest of the tab.
So the engine measures the depth of what it is given first (a units file, a page's request), by
counting brackets, and refuses what nests deeper than any units file or request does. This module is
imported with :mod:`calculators.presentation`, so that the engine's saved memory holds it.
"""

from __future__ import annotations

import re
from itertools import accumulate

from .errors import CalculatorInputError
from .params import N_

MAX_NESTING = 8
"""How deep lists and objects may nest in a units file or a page's request to the engine: a units file
needs 3 (the file, its list of units, a unit's list of Wounds), a request 4. The site's units.js
measures a file or link against the same number (the page's data: ``max_nesting``)."""

NESTING_MESSAGE = N_("must be JSON whose depth of nested lists and objects is at most {most}, got {depth}")
"""The refusal's words (its catalog key; units.js shows the same when it refuses first)."""

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?', re.DOTALL)
"""A string, or the rest of the text after a quote never closed, as units.js reads it. The closing quote
is optional so that the pattern always matches at a quote, in one pass: required, a quote never closed
failed after reading to the end, and again from each escaped quote after it (a file of 32 KB of them
took 3 s, one of a megabyte hours). The parser refuses such text later."""
_NOT_A_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def nesting_depth(text: str) -> int:
    """How deep lists and objects nest in the JSON ``text``, read without parsing it (brackets in
    strings do not count; text that is not JSON gets a number too, and the parser refuses it later).

    >>> nesting_depth('{"units": [{"name": "[[["}, {"wounds": [2, 2]}]}')
    4
    >>> nesting_depth("7")
    0
    """
    brackets = _NOT_A_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate((_STEP[bracket] for bracket in brackets), initial=0))


def check_nesting(text: str, field: str = "units") -> None:
    """Refuses, naming ``field``, JSON ``text`` that nests deeper than :data:`MAX_NESTING`."""
    depth = nesting_depth(text)
    if depth > MAX_NESTING:
        raise CalculatorInputError(
            field,
            NESTING_MESSAGE,
            values={"most": MAX_NESTING, "depth": depth},
        )

"""A language's number data for the terminal, from its cache (see :func:`kensei_ref.numbers.number_data`).

Reading a locale's whole CLDR data takes Babel about 10 ms, a tenth of what a command may take; the
terminal keeps the few strings numbers are written with beside the rule book's cache and gives them
to :func:`~kensei_ref.numbers.numbers_for` before it formats a number.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

from kensei_ref import numbers
from kensei_ref.cli.cache_files import cache_directory, read_marshal, write_marshal


def give_cached_numbers(lang: str, environ: Mapping[str, str] | None = None) -> None:
    """Give ``numbers_for(lang)`` its locale's number data from the cache, stored there the first time
    (or again when it was made by another Babel or Python). Without a cache, nothing is given."""
    directory = cache_directory(environ)
    if directory is None:
        return
    path = os.path.join(directory, f"numbers-{lang}.marshal")
    header = f"{numbers.NUMBER_DATA_FORMAT}, Python {sys.version}".replace("\n", " ").encode("utf-8") + b"\n"
    if not numbers.give_number_data(lang, read_marshal(path, header)):
        write_marshal(path, header, lambda: numbers.number_data(lang))

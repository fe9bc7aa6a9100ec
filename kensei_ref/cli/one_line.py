"""Lines as a terminal shows them: errors on one line whatever the user typed, text as wide as the terminal."""

from __future__ import annotations

import os
import sys
import unicodedata


def one_line(message: str) -> str:
    """``message`` with every control character and line or paragraph separator as a space.

    argparse repeats what was typed (``unrecognized arguments: ...``); a newline, a carriage return or
    an escape sequence in it would break the one-line error into several or restyle the terminal.
    """
    return "".join(" " if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") else c for c in message)


def escaped(typed: str) -> str:
    """``typed`` with every control character and line or paragraph separator written as Python writes it
    in a string (``\\n``, ``\\x1b``, ``\\u2028``): what a refusal quotes stays on its line and still shows
    what was typed, as English's ``repr`` does inside French or Russian quotation marks."""
    return "".join(repr(c)[1:-1] if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") else c for c in typed)


def terminal_columns() -> int:
    """The terminal's width as :func:`shutil.get_terminal_size` reads it (``COLUMNS``, else the terminal, else
    80), without importing :mod:`shutil` and the compression modules it loads. As there, a ``COLUMNS`` that
    is no integer counts as none: ``isdigit`` takes "²", which ``int`` refuses, and ``int`` refuses more
    than 4,300 digits."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80

"""Error lines as a terminal shows them: one line, whatever the user typed."""

from __future__ import annotations

import unicodedata


def one_line(message: str) -> str:
    """``message`` with every control character and line or paragraph separator as a space.

    argparse repeats what was typed (``unrecognized arguments: ...``); a newline, a carriage return or
    an escape sequence in it would break the one-line error into several or restyle the terminal.
    """
    return "".join(" " if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") else c for c in message)

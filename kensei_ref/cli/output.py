"""The standard output of ``kensei-ref``, as a Unix tool treats it.

- An output that cannot take what is written (a full disk, ``> /dev/full``, an output that fails) ends
  the command with one line on stderr and exit status 1, as ``cat`` does, never a traceback. The
  output is often buffered: the last of it is written when the command ends, where a full disk is found.
- A closed output (``>&-``: Python then has no ``sys.stdout``) is the same.
- An output whose encoding cannot show a character (``PYTHONIOENCODING=ascii``, an old terminal) shows
  ``?`` for it instead of stopping at the first one.
- A reader that goes away (``| head``) is no error: :func:`kensei_ref.cli.main.main` ends quietly.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a few ms a command)
if TYPE_CHECKING:
    from typing import Any, TextIO

SAMPLE = "ёé…–×→"
"""Characters the commands write (Russian, French, the ellipsis, the dash, the multiplication sign, the
arrow): an output encoding that cannot write them all writes ``?`` for those it cannot."""


class OutputLost(Exception):
    """The standard output refused what was written; ``reason`` says why (the system's words)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class _Output:
    """``sys.stdout``, whose write errors are :class:`OutputLost` (a lost reader stays a ``BrokenPipeError``)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise OutputLost(error.strerror or str(error)) from None

    def flush(self) -> None:
        try:
            self.stream.flush()
        except BrokenPipeError:
            raise
        except OSError as error:
            raise OutputLost(error.strerror or str(error)) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def watched() -> TextIO | None:
    """Installs the watched output in ``sys.stdout`` and returns the output it replaces (None when the
    output is closed: :class:`OutputLost` is raised instead)."""
    original = sys.stdout
    if original is None:
        raise OutputLost(os.strerror(errno.EBADF))
    for stream in (original, sys.stderr):
        _showing_what_it_can(stream)
    sys.stdout = _Output(original)
    return original


def restored(original: TextIO | None) -> None:
    """``sys.stdout`` as it was before :func:`watched`."""
    if isinstance(sys.stdout, _Output):
        sys.stdout = original


def discard(original: TextIO | None) -> None:
    """What the process's own output still holds goes nowhere when it ends (it would fail again, and
    Python would print that): its descriptor now leads to the null device."""
    own = sys.__stdout__
    if original is None or own is None or original is not own:
        return  # an output of the caller's (a test's capture): it is theirs to keep
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), own.fileno())


def _showing_what_it_can(stream: TextIO | None) -> None:
    encoding = getattr(stream, "encoding", None)
    if stream is None or not encoding or not hasattr(stream, "reconfigure"):
        return
    try:
        SAMPLE.encode(encoding)
    except UnicodeEncodeError:
        stream.reconfigure(errors="replace")
    except LookupError:
        pass

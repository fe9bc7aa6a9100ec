"""Files the data commands write (``data stamp``'s rule data, ``data values``' JSON), replaced whole.

A file is written beside itself under a temporary name, flushed to the disk, and then renamed over the
old one: a full disk, a crash or an interrupted command leaves the old file as it was, never half of
the new one (a rule data file cut short is data lost)."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def replace_file(path: Path, text: str) -> None:
    """Replaces ``path`` with ``text`` (UTF-8), whole or not at all.

    Raises:
        OSError: when the new text cannot be written; ``path`` is then as it was.
    """
    replace_files({path: text})


def replace_files(texts: dict[Path, str]) -> None:
    """Replaces each file with its text, whole or not at all: every new text is written and flushed
    beside its file first, and only then are they renamed over the old ones (``data po import`` changes
    several data files at once, and a full disk must leave all of them as they were).

    Raises:
        OSError: when a new text cannot be written; every file is then as it was.
    """
    written: dict[Path, str] = {}
    try:
        for path, text in texts.items():
            written[path] = _written_beside(path, text)
        for path, temporary in written.items():
            os.replace(temporary, path)
    except BaseException:
        for temporary in written.values():
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        raise


def _written_beside(path: Path, text: str) -> str:
    """``text`` written and flushed to a new file beside ``path`` (with its mode): the new file's name."""
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with open(descriptor, "w", encoding="utf-8", newline="") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        if path.exists():
            os.chmod(temporary, path.stat().st_mode & 0o7777)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return temporary

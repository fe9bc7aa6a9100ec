"""The terminal's cache files: where they live, and how one is read and written safely.

A cache file is one header line naming what it was made from, then :mod:`marshal` of plain values
(see :mod:`kensei_ref.cli.compiled` for why marshal, and why it is read only from a directory that
is the user's alone). Reading gives None for a file that is missing, stale, not private or damaged;
writing is atomic, and a directory that cannot be written means no cache, never an error.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import stat
from collections.abc import Callable, Mapping

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a few ms a command)
if TYPE_CHECKING:
    from typing import Any

    StrPath = str | os.PathLike[str]

APP_DIRECTORY = "kensei-ref"


def cache_directory(environ: Mapping[str, str] | None = None) -> str | None:
    """Where the cache lives: ``$XDG_CACHE_HOME/kensei-ref`` (an absolute path, as the XDG specification
    asks), else ``~/.cache/kensei-ref``; None when there is no home to put it in."""
    environ = os.environ if environ is None else environ
    base = environ.get("XDG_CACHE_HOME", "")
    if base and os.path.isabs(base):
        return os.path.join(base, APP_DIRECTORY)
    home = environ.get("HOME") or os.path.expanduser("~")
    return os.path.join(home, ".cache", APP_DIRECTORY) if os.path.isabs(home) else None


def read_marshal(path: StrPath, header: bytes) -> Any:
    """The value stored at ``path`` under ``header``, or None when it is missing, stale (another
    header), not private or unreadable."""
    try:
        with open(path, "rb") as file:
            if not (private(os.fstat(file.fileno())) and private(os.stat(os.path.dirname(path)))):
                return None
            if file.read(len(header)) != header:
                return None
            return marshal.loads(file.read())
    except Exception:  # a damaged file (marshal raises EOFError, ValueError, TypeError, MemoryError...)
        return None


def write_marshal(path: StrPath, header: bytes, value: Callable[[], Any]) -> None:
    """Store ``value()`` at ``path`` after ``header``, atomically; any failure leaves things as they were."""
    folder, name = os.path.split(path)
    temporary = os.path.join(folder, f".{os.path.splitext(name)[0]}.{os.getpid()}.tmp")
    try:
        data = marshal.dumps(value())
        os.makedirs(folder, mode=0o700, exist_ok=True)
        if not private(os.stat(folder)):
            return
        with open(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as file:
            file.write(header + data)
        os.replace(temporary, path)
    except (OSError, ValueError, TypeError):
        with contextlib.suppress(OSError):
            os.unlink(temporary)


def private(info: os.stat_result) -> bool:
    """Whether a file or directory is the user's own and no one else may write it."""
    if not hasattr(os, "geteuid"):
        return True
    return info.st_uid == os.geteuid() and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)

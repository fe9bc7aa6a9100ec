"""The theme's templates compiled once per process rather than once per build.

MkDocs gives each build a new Jinja environment, which compiles Material's templates again: a ``make
build`` builds each language twice (again for the offline copy) and every ``mkdocs serve``
rebuild does it anew, about a second of each build's time. Jinja's bytecode cache keeps the compiled code
of a template under its name and the checksum of its source, so an edited template is compiled afresh.
The cache is in memory only: nothing is written to disk, and nothing from outside is ever loaded.
"""

from __future__ import annotations

import jinja2
from jinja2.bccache import Bucket


class CompiledTemplates(jinja2.BytecodeCache):
    """A bytecode cache in this process's memory."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()

    def clear(self) -> None:
        self._code.clear()

    def __len__(self) -> int:
        return len(self._code)


THEME_TEMPLATES = CompiledTemplates()
"""Shared by every build in this process: the languages and the offline copy are builds of their own,
each with a plugin instance of its own."""

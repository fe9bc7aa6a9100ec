"""What each language's build was made from, so that ``mkdocs serve`` rebuilds only what a change touches.

A language's pages depend on files every language shares (the rule data, the site's templates and
files, the catalogs) and on its own ``docs/<lang>/`` folder. A fingerprint is the modification time
and size of every file under those paths; a language whose fingerprint has not moved since its last
build keeps the pages it has.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

Fingerprint = tuple[tuple[str, int, int], ...]


def fingerprint(paths: Iterable[Path]) -> Fingerprint:
    """Every file under ``paths`` (files or folders) with its modification time and size."""
    entries: list[tuple[str, int, int]] = []
    for path in paths:
        files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
        for file in files:
            stat = file.stat()
            entries.append((str(file), stat.st_mtime_ns, stat.st_size))
    return tuple(entries)


class Fingerprints:
    """The fingerprints of the last build of each language."""

    def __init__(self, shared: Sequence[Path]) -> None:
        self.shared = tuple(shared)
        self.built: dict[str, Fingerprint] = {}

    def changed_languages(self, docs: Path, languages: Iterable[str]) -> set[str]:
        """The languages whose sources changed since this was last asked (all of them the first time)."""
        common = fingerprint(self.shared)
        changed = set()
        for lang in languages:
            now = common + fingerprint([docs / lang])
            if self.built.get(lang) != now:
                changed.add(lang)
                self.built[lang] = now
        return changed

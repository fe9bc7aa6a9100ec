"""What each language's build was made from, so that ``mkdocs serve`` rebuilds only what a change touches.

A language's pages depend on files every language shares (the site's templates and files, the
catalogs), on its own ``docs/<lang>/`` folder, and on its part of the rule data (see
:mod:`kensei_ref.rules.projection`: a French text edited rebuilds French only; an English text or a
value, every language). A fingerprint is the modification time and size of every file under those
paths plus that hash; a language whose fingerprint has not moved since its last build keeps its pages.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

Fingerprint = tuple[tuple[str, int, int], ...]
LanguageState = tuple[Fingerprint, str]


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
        self.built: dict[str, LanguageState] = {}

    def changed_languages(
        self, docs: Path, languages: Iterable[str], data_digest: Callable[[str], str] = lambda lang: ""
    ) -> set[str]:
        """The languages whose sources changed since this was last asked (all of them the first time).

        ``data_digest(lang)`` hashes the part of the rule data that ``lang``'s pages show.
        """
        common = fingerprint(self.shared)
        changed = set()
        for lang in languages:
            now = (common + fingerprint([docs / lang]), data_digest(lang))
            if self.built.get(lang) != now:
                changed.add(lang)
                self.built[lang] = now
        return changed

"""Translation freshness: each translated text records which English text it translates.

A stamp is a short hash of the English texts of an item (a chapter heading, a rule with its
examples and notes, a glossary term). When the English changes, the stamps of its translations no
longer match: the build lists them and the page shows a notice until a translator checks the text
and re-stamps it with ``kensei-ref data stamp --update ID``.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from kensei_ref.languages import SOURCE_LANGUAGE, TRANSLATED
from kensei_ref.rules.atomic import replace_file
from kensei_ref.rules.model import Chapter, Rule, RuleBook, Term


def english_of(item: Chapter | Rule | Term) -> list[str]:
    """The English texts that an item's translations are made from, in a fixed order."""
    if isinstance(item, Chapter):
        return [item.title[SOURCE_LANGUAGE], item.intro[SOURCE_LANGUAGE] if item.intro else ""]
    if isinstance(item, Term):
        return [item.name[SOURCE_LANGUAGE], item.definition[SOURCE_LANGUAGE]]
    return (
        [item.title[SOURCE_LANGUAGE], item.body[SOURCE_LANGUAGE]]
        + [example.text[SOURCE_LANGUAGE] for example in item.examples]
        + [note.text[SOURCE_LANGUAGE] for note in item.notes]
    )


def stamp_of(item: Chapter | Rule | Term) -> str:
    """The current stamp of an item's English: 10 hex digits of its SHA-256."""
    return stamp_of_english(english_of(item))


def stamp_of_english(texts: list[str]) -> str:
    """The stamp of an item's English texts, given in :func:`english_of`'s order (each as the loader keeps
    it, stripped): the PO files' export reads them from the YAML itself, for a language the loader does not
    know yet."""
    payload = json.dumps(texts, ensure_ascii=False).encode("utf-8")
    return hashlib.sha256(payload).hexdigest()[:10]


def _items(book: RuleBook) -> list[Chapter | Rule | Term]:
    return [*book.chapters, *book.rules, *book.terms]


def is_stale(item: Chapter | Rule | Term, lang: str) -> bool:
    """Whether the ``lang`` translation of ``item`` was made from an older English text."""
    return item.stamps.get(lang) != stamp_of(item)


def stale(book: RuleBook) -> list[str]:
    """Every out-of-date translation, as ``file: id (lang)``."""
    return [f"{item.file}: {item.id} ({lang})" for item in _items(book) for lang in TRANSLATED if is_stale(item, lang)]


def write_stamps(data_dir: Path, stamps: dict[str, str], only: set[str] | None) -> list[str]:
    """Write ``translations: {fr: S, ru: S}`` (each translated language) after each item's ``id:`` line in the YAML
    files.

    Editing lines rather than re-dumping the YAML keeps the files as their authors wrote them.
    Items missing a stamp are always stamped; existing stamps change only for ids in ``only``.

    Returns:
        The ids whose stamps were written.
    """
    written = []
    for path in sorted(data_dir.rglob("*.yaml")):
        lines = path.read_text(encoding="utf-8").split("\n")
        changed = False
        i = 0
        while i < len(lines):
            match = re.match(r"^(\s*)(- )?id: ['\"]?([a-z0-9.\-]+)['\"]?\s*$", lines[i])
            if match and match[3] in stamps:
                item_id = match[3]
                indent = " " * (len(match[1]) + (2 if match[2] else 0))
                stamp = stamps[item_id]
                line = f"{indent}translations: {{{', '.join(f'{lang}: {stamp!r}' for lang in TRANSLATED)}}}"
                has = i + 1 < len(lines) and lines[i + 1].startswith(f"{indent}translations:")
                if not has:
                    lines.insert(i + 1, line)
                    written.append(item_id)
                    changed = True
                elif only is not None and item_id in only and lines[i + 1] != line:
                    lines[i + 1] = line
                    written.append(item_id)
                    changed = True
            i += 1
        if changed:
            replace_file(path, "\n".join(lines))
    return written

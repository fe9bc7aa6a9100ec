"""Write one PO file per rule-data file for one language, with Babel's :func:`~babel.messages.pofile.write_po`.

Each text is one message: its context the item's id and field, its ``msgid`` the English, its ``msgstr``
the language's text (empty where there is none yet: a language just declared exports every message
empty). A translation whose item's freshness stamp no longer matches the English is marked ``fuzzy``.

The stamps record a hash of the English, not the English itself: the text a stale translation was made
from cannot be recovered, so a fuzzy message has no previous ``msgid`` (``#|``); and a stamp covers a
whole item (a rule's title, body, examples and notes), so every text of a stale item is fuzzy, not only
the one whose English changed.

Translator comments (``#.``) name the glossary terms a text links to, with the language's name for each,
and say which texts are plain (titles, names: no Markdown).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from io import BytesIO
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from kensei_ref.languages import Language
from kensei_ref.rules.atomic import replace_file
from kensei_ref.rules.po.texts import DataTexts, TextSlot, data_files, read_texts
from kensei_ref.rules.references import REFERENCE

PO_WIDTH = 76
"""Babel's and gettext's line width: a PO file as ``msgmerge`` would wrap it."""

HEADER = """\
# The {name} texts of the rule data file {file},
# for translation tools (Poedit, Weblate, Lokalize).
# Written by `kensei-ref data po export --lang {code}`,
# read back by `kensei-ref data po import FOLDER`.
#
# Translate the msgstr only: msgctxt names the text, msgid is its English,
# and both stay as they are. Each msgstr keeps every {{rule:...}},
# {{term:...}}, {{value:...}}, {{signed:...}}, {{percent:...}} and link address
# of its English, in any order; the words after a "|" inside the braces
# are the language's own. A fuzzy message was translated from an older
# English: check it against the msgid, then unmark it."""
"""The comment at the top of each PO file (lines within :data:`PO_WIDTH`, which Babel would wrap)."""


@dataclass(frozen=True)
class Exported:
    """One PO file written: where, and how many of its messages are translated, fuzzy or empty."""

    path: Path
    messages: int
    fuzzy: int
    untranslated: int


def export(data_dir: Path, language: Language, out_dir: Path) -> list[Exported]:
    """Write ``language``'s PO files into ``out_dir``, one per data file, in the data folder's layout
    (``kensei/08-orders.po``, ``glossary/core.po``, ``sources.po``).

    Raises:
        DataShapeError: when a data file is not shaped as rule data.
        OSError: when a file cannot be read or written.
    """
    files = [read_texts(path, data_dir) for path in data_files(data_dir)]
    names = glossary_names(files, language.code)
    written = []
    for data in files:
        catalog = catalog_of(data, language, names)
        path = out_dir / Path(data.name).with_suffix(".po")
        path.parent.mkdir(parents=True, exist_ok=True)
        buffer = BytesIO()
        write_po(buffer, catalog, width=PO_WIDTH, include_previous=True)
        replace_file(path, buffer.getvalue().decode("utf-8"))
        messages = list(catalog)[1:]  # the first is the header
        fuzzy = sum(message.fuzzy for message in messages)
        untranslated = sum(not message.string for message in messages)
        written.append(Exported(path, len(messages), fuzzy, untranslated))
    return written


def catalog_of(data: DataTexts, language: Language, names: dict[str, tuple[str, str | None]]) -> Catalog:
    """The Babel catalog of one data file's texts in ``language``."""
    changed = datetime.fromtimestamp(data.path.stat().st_mtime, UTC).replace(microsecond=0)
    catalog = Catalog(
        locale=language.locale,
        header_comment=HEADER.format(
            name=Locale.parse(language.locale).english_name, file=data.name, code=language.code
        ),
        project="kensei-ref",
        version=data.name,
        msgid_bugs_address="",
        creation_date=changed,
        revision_date=changed,
        language_team=language.name,
        fuzzy=False,
    )
    for slot in data.slots:
        translation = slot.text(language.code)
        stale = bool(translation) and slot.item is not None and _stale(data, slot, language.code)
        message = catalog.add(
            slot.english,
            translation or "",
            locations=[(data.name, slot.line)],
            flags=("fuzzy",) if stale else (),
            auto_comments=comments(slot, language.code, names),
            context=slot.context,
        )
        message.flags.discard("python-brace-format")  # Babel's guess from the braces: ours are no Python format
    return catalog


def _stale(data: DataTexts, slot: TextSlot, lang: str) -> bool:
    """Whether the stamp of the slot's item in ``lang`` is not its English's (as ``data check`` says)."""
    item = data.items[slot.item] if slot.item else None
    return item is not None and item.recorded(lang) != item.stamp


def glossary_names(files: list[DataTexts], lang: str) -> dict[str, tuple[str, str | None]]:
    """Each glossary term's English name and ``lang``'s (None where it has none yet), by term id."""
    names = {}
    for data in files:
        for slot in data.slots:
            item, _, field = slot.context.rpartition("/")
            if field == "name" and item in data.items:
                names[item] = (slot.english, slot.text(lang))
    return names


def comments(slot: TextSlot, lang: str, names: dict[str, tuple[str, str | None]]) -> list[str]:
    """The translator comments of one text: plain text or not, and the glossary's name of each term it
    links to (``Glossary: Charge = Натиск``)."""
    found = []
    if slot.plain:
        found.append("Plain text: no Markdown, links or braces.")
    if slot.context.endswith("/name") and slot.item in names:
        found.append(f"A glossary term: texts link to it as {{term:{slot.item}}} and use this name.")
    terms = dict.fromkeys(match["target"] for match in REFERENCE.finditer(slot.english) if match["kind"] == "term")
    for term in terms:
        english, translated = names.get(term, (term, None))
        found.append(
            f"Glossary: {english} = {translated}" if translated else f"Glossary: {english} (not translated yet)"
        )
    return found

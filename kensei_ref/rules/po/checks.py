"""Read a translated PO file with Babel and check each message against the data file it belongs to.

What a translator may change is the ``msgstr`` and the ``fuzzy`` mark; everything else stays as exported.
A problem names the PO file and the line of the message (Babel's own line for a malformed file), and its
message is marked for the interface catalogs: the command says it in the user's language.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import PoFileError, PoFileParser

from kensei_ref import languages
from kensei_ref.languages import N_
from kensei_ref.rules.loader import text_refusal
from kensei_ref.rules.po.placeholders import placeholders
from kensei_ref.rules.po.texts import DataTexts, TextSlot, read_texts

LOCATED = N_("{where}: {problem}")
"""A problem after its file and line (French spaces its colon)."""
MALFORMED = N_("malformed PO file: {reason}")
NO_DATA_FILE = N_("no rule data file {data} for this PO file (its path in the folder names its data file)")
NO_LANGUAGE = N_("the header's Language ({found}) is no language to translate into: {languages}")
NO_CONTEXT = N_("a message without msgctxt: each text is named by its item's id and field")
UNKNOWN_CONTEXT = N_("unknown msgctxt {context}: no such text in {data}")
TWICE = N_("{context}: given twice in this file")
PLURAL = N_("{context}: rule texts have no plural forms (msgid_plural)")
ENGLISH_CHANGED = N_(
    "{context}: the msgid is not the English of the rule data; it must stay as exported "
    "(export again if the English has changed since)"
)
DROPPED = N_("{context}: the translation drops {placeholders} of the English")
ADDED = N_("{context}: the translation has {placeholders}, which the English does not")
EMPTIED = N_("{context}: an empty msgstr would remove the text from the rule data; translate it")
REFUSED_TEXT = N_("{context}: the translation cannot stand in the rule data: {reason}")


@dataclass(frozen=True)
class Problem:
    """Something wrong in a PO file: where (file and line), and what, as a catalog message and its values."""

    file: str
    line: int
    message: str
    values: dict[str, str] = field(default_factory=dict)

    def said(self, gettext: Callable[[str], str]) -> str:
        """The problem as one line in the language of ``gettext`` (a folder's or file's own, without a line,
        when ``line`` is 0)."""
        where = f"{self.file}:{self.line}" if self.line else self.file
        return gettext(LOCATED).format(where=where, problem=gettext(self.message).format(**self.values))


@dataclass(frozen=True)
class Translation:
    """A message as the translator left it: the text (stripped, as the loader keeps it; empty when there
    is none) and whether it is still marked fuzzy."""

    slot: TextSlot
    text: str
    fuzzy: bool


@dataclass(frozen=True)
class PoFile:
    """A PO file checked: its language, its data file, and its messages by the text they translate."""

    path: Path
    lang: str
    data: DataTexts
    translations: tuple[Translation, ...]


class _Catalog(Catalog):
    """Babel's catalog, noting each message that a PO file gives twice (Babel merges the two, keeping the
    first's text)."""

    def __init__(self) -> None:
        super().__init__(fuzzy=False)
        self.repeated: list[Message] = []

    def __setitem__(self, id: str | tuple[str, ...] | list[str], message: Message) -> None:
        if id and self.get(id, message.context) is not None:
            self.repeated.append(message)
        super().__setitem__(id, message)


def read_po_file(path: Path, po_dir: Path, data_dir: Path, problems: list[Problem]) -> PoFile | None:
    """The PO file at ``path`` read and checked; None, with its problems added, when it cannot be used."""
    shown = str(path)
    data_path = data_dir / path.relative_to(po_dir).with_suffix(".yaml")
    if not data_path.is_file():
        problems.append(Problem(shown, 0, NO_DATA_FILE, {"data": data_path.relative_to(data_dir).as_posix()}))
        return None
    catalog = _parsed(path, problems)
    if catalog is None:
        return None
    lang = _language(catalog)
    if lang is None:
        translated = ", ".join(code for code in languages.BY_CODE if code != languages.SOURCE_LANGUAGE)
        found = repr(catalog.locale_identifier or "")
        problems.append(Problem(shown, _header_line(path), NO_LANGUAGE, {"found": found, "languages": translated}))
        return None
    data = read_texts(data_path, data_dir)
    before = len(problems)
    translations = [t for message in catalog if message.id and (t := _checked(message, data, lang, shown, problems))]
    for message in catalog.repeated:
        problems.append(Problem(shown, message.lineno or 1, TWICE, {"context": repr(message.context)}))
    if len(problems) > before:
        return None
    return PoFile(path, lang, data, tuple(translations))


STRING_LINE = re.compile(
    rb'(?:#~\s*)?(?:(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+)?"(?:[^"\\]|\\[\\"tnr])*"'
)
"""A line of a message's strings: its keyword (none on a continuation line) and one quoted string, whose
escapes are those Babel reads (``\\ \" \t \n \r``)."""
STRING_START = re.compile(rb'(?:#~\s*)?(?:(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)(?:\s|$)|")')
"""The start of such a line: other lines (comments, unknown keywords) are left to Babel's parser."""
BAD_STRING = N_(
    "malformed PO file: a string is not closed by its quotation mark, or holds a stray one or an unknown escape"
)


def _unquoted_line(path: Path) -> int | None:
    """The first line whose quoted string is malformed, which Babel's parser reads without a word: it takes
    ``msgstr "La charge`` for ``a charg`` (it drops a string's first and last characters, quotes or not)."""
    with path.open("rb") as handle:
        for number, line in enumerate(handle, 1):
            line = line.strip()
            if STRING_START.match(line) and not STRING_LINE.fullmatch(line):
                return number
    return None


def _parsed(path: Path, problems: list[Problem]) -> _Catalog | None:
    """The file as Babel's parser reads it (refusing what it finds invalid), or None and a problem."""
    if (line := _unquoted_line(path)) is not None:
        problems.append(Problem(str(path), line, BAD_STRING))
        return None
    catalog = _Catalog()
    try:
        with path.open("rb") as handle:
            PoFileParser(catalog, ignore_obsolete=True, abort_invalid=True).parse(handle)
    except PoFileError as error:
        reason = str(error).rsplit(" on ", 1)[0]
        problems.append(Problem(str(path), error.lineno + 1, MALFORMED, {"reason": reason}))
        return None
    except (ValueError, LookupError, OSError) as error:  # not UTF-8 or its charset; an unreadable file
        problems.append(Problem(str(path), 1, MALFORMED, {"reason": str(error)}))
        return None
    return catalog


def _header_line(path: Path) -> int:
    """The line of the header's ``Language:`` (the file's first when it has none), for the problem to name."""
    with path.open("rb") as handle:
        return next((number for number, line in enumerate(handle, 1) if line.startswith(b'"Language:')), 1)


def _language(catalog: Catalog) -> str | None:
    """The code of the language the header names (``Language: fr``), by its code or its Babel locale."""
    named = catalog.locale_identifier
    for language in languages.BY_CODE.values():
        if language.code != languages.SOURCE_LANGUAGE and named in (language.code, language.locale):
            return language.code
    return None


def _checked(message: Message, data: DataTexts, lang: str, shown: str, problems: list[Problem]) -> Translation | None:
    """One message checked against its text in the data file: a translation, or None and a problem."""
    line = message.lineno or 1
    context = repr(message.context)
    if message.context is None:
        problems.append(Problem(shown, line, NO_CONTEXT))
        return None
    slot = data.slot(message.context)
    if slot is None:
        problems.append(Problem(shown, line, UNKNOWN_CONTEXT, {"context": context, "data": data.name}))
        return None
    if message.pluralizable:
        problems.append(Problem(shown, line, PLURAL, {"context": context}))
        return None
    if message.id != slot.english:
        problems.append(Problem(shown, line, ENGLISH_CHANGED, {"context": context}))
        return None
    text = str(message.string or "").strip()
    problem = _translation_problem(slot, lang, text)
    if problem is not None:
        message_id, values = problem
        problems.append(Problem(shown, line, message_id, {"context": context, **values}))
        return None
    return Translation(slot, text, message.fuzzy)


def _translation_problem(slot: TextSlot, lang: str, text: str) -> tuple[str, dict[str, str]] | None:
    """What is wrong with ``text`` as ``lang``'s version of ``slot``: emptied, placeholders dropped or
    added, or refused as rule text by the loader's checks. A text the data file already holds as it is
    passes (what the data holds, ``kensei-ref data check`` judges)."""
    current = slot.text(lang)
    if not text:
        return (EMPTIED, {}) if current else None
    if text == current:
        return None
    english, translated = placeholders(slot.english, slot.item), placeholders(text, slot.item)
    if dropped := sorted(english - translated):
        return DROPPED, {"placeholders": ", ".join(dropped)}
    if added := sorted(translated - english):
        return ADDED, {"placeholders": ", ".join(added)}
    if reason := text_refusal(text, plain=slot.plain):
        return REFUSED_TEXT, {"reason": reason}
    return None

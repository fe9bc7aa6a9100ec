"""Write the translations of a folder of PO files back into the rule data, all or nothing.

Every PO file is read and checked first (:mod:`.checks`); one problem anywhere and nothing is written.
Then each data file's new text is made by edits (:mod:`.yaml_edits`): a translation that differs from
the data's is written, an empty one leaves the text absent (a language not translated yet), and an item
whose every text is translated and none fuzzy gets the stamp of its current English (the translator has
checked it). The new texts are read back, and checked by the loader where the data was valid before,
before any file is replaced. A folder exported and imported unchanged changes no byte.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from kensei_ref.languages import N_
from kensei_ref.rules.atomic import replace_files
from kensei_ref.rules.loader import DataError, load
from kensei_ref.rules.po.checks import PoFile, Problem, read_po_file
from kensei_ref.rules.po.texts import read_texts
from kensei_ref.rules.po.yaml_edits import Edit, apply, stamp_edit, text_edit

NO_PO_FILES = N_("no PO files in this folder (kensei-ref data po export writes them)")
NOT_WRITTEN = N_("{context}: reads back otherwise than it was to be written")
INVALID_AFTER = N_("the rule data would no longer be valid: {problems}")


class ImportRefused(Exception):
    """The PO files cannot be imported; ``problems`` says every reason, each with its file and line."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(f"{len(problems)} problem(s)")
        self.problems = problems


@dataclass(frozen=True)
class Imported:
    """What an import changed: the data files written, the texts and the stamps among them."""

    files: tuple[Path, ...]
    texts: int
    stamps: int


@dataclass(frozen=True)
class _NewText:
    """One data file's text after the import, and how many texts and stamps it changes."""

    po: PoFile
    source: str
    texts: int
    stamps: int


def import_po(po_dir: Path, data_dir: Path) -> Imported:
    """Import every PO file under ``po_dir`` (laid out as the export writes them) into ``data_dir``.

    Raises:
        ImportRefused: when a PO file cannot be imported; then no data file was changed.
        OSError: when a data file cannot be read or written; then no data file was changed.
    """
    paths = sorted(po_dir.rglob("*.po"))
    if not paths:
        raise ImportRefused([Problem(str(po_dir), 0, NO_PO_FILES)])
    problems: list[Problem] = []
    files = [po for path in paths if (po := read_po_file(path, po_dir, data_dir, problems))]
    if problems:
        raise ImportRefused(problems)
    changed = [new for po in files if (new := _new_text(po)).source != po.data.source]
    for new in changed:
        _check_read_back(new, data_dir)
    _check_with_loader(data_dir, {new.po.data.path: new.source for new in changed})
    replace_files({new.po.data.path: new.source for new in changed})
    return Imported(
        tuple(new.po.data.path for new in changed),
        sum(new.texts for new in changed),
        sum(new.stamps for new in changed),
    )


def _new_text(po: PoFile) -> _NewText:
    """The data file's text with ``po``'s translations and the stamps they earn."""
    data, lang = po.data, po.lang
    edits: list[Edit] = [
        text_edit(data.source, t.slot, lang, t.text) for t in po.translations if t.text and t.text != t.slot.text(lang)
    ]
    texts = len(edits)
    given = {t.slot.context: t for t in po.translations}
    for item in data.items.values():
        slots = [slot for slot in data.slots if slot.item == item.id]
        checked = all(
            slot.context in given and given[slot.context].text and not given[slot.context].fuzzy for slot in slots
        )
        if checked and item.recorded(lang) != item.stamp:
            edits.append(stamp_edit(data.source, item.node, lang, item.stamp))
    return _NewText(po, apply(data.source, edits), texts, len(edits) - texts)


def _check_read_back(new: _NewText, data_dir: Path) -> None:
    """The new text read again holds each translation as imported, every other text as it was, and each
    item's stamp as it was or renewed."""
    data, lang = new.po.data, new.po.lang
    again = read_texts(data.path, data_dir, new.source)
    wanted = {t.slot.context: t.text for t in new.po.translations if t.text}
    for before in data.slots:
        after = again.slot(before.context)
        expected = {str(key.value): before.text(str(key.value)) for key, _ in before.mapping.value}
        if before.context in wanted:
            expected[lang] = wanted[before.context]
        if after is None or any(after.text(code) != text for code, text in expected.items()):
            raise ImportRefused([Problem(data.name, before.line, NOT_WRITTEN, {"context": repr(before.context)})])
    for item in data.items.values():
        stamped = again.items.get(item.id)
        if stamped is None or stamped.recorded(lang) not in (item.recorded(lang), item.stamp):
            line = item.node.start_mark.line + 1
            raise ImportRefused([Problem(data.name, line, NOT_WRITTEN, {"context": repr(item.id)})])


def _check_with_loader(data_dir: Path, sources: dict[Path, str]) -> None:
    """Where the rule data is valid now, the loader must find it valid with the new texts too (a value's
    number in words, for one, is checked only there). The new texts are loaded first, from a copy: the
    data as it is now is loaded only when they are not valid, to know whether it was."""
    if not sources:
        return
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / data_dir.name
        shutil.copytree(data_dir, copy)
        for path, source in sources.items():
            (copy / path.relative_to(data_dir)).write_text(source, encoding="utf-8")
        try:
            load(copy)
            return
        except DataError as error:
            details = "; ".join(str(problem) for problem in error.problems)
    try:
        load(data_dir)
    except DataError:
        return  # not valid before either (a language still being translated): data check says why
    raise ImportRefused([Problem(str(data_dir), 0, INVALID_AFTER, {"problems": details})])

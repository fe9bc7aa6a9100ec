"""Every translatable text of a rule-data file, found in the YAML's own nodes.

The PO files are made from the YAML rather than from the loaded :class:`~kensei_ref.rules.model.RuleBook`
for two reasons: a language with no texts yet (one just declared in :mod:`kensei_ref.languages`) is
exported before the loader would accept the data, and an import must know where each text stands in the
file (its node's start and end) to replace it and nothing else.

A text is named by a context: the id of the item it belongs to and its field, joined by ``/``
(``kensei.regroup/title``, ``kensei.regroup/notes/charge-cost``, ``taisho/name``, ``texts/000/note``,
``example_labels/ours``). Items with a freshness stamp (chapters, rules, glossary terms) also carry their
current stamp, computed from the English as :mod:`kensei_ref.rules.freshness` computes it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import yaml

from kensei_ref.languages import SOURCE_LANGUAGE
from kensei_ref.rules.freshness import stamp_of_english
from kensei_ref.rules.loader import GAMES

SAFE_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's parser where PyYAML has it: its nodes' marks are the same character offsets as the Python
parser's, found twenty times faster."""

STAMPS_KEY = "translations"
"""The key of an item's freshness stamps (``translations: {fr: '…', ru: '…'}``)."""


class DataShapeError(ValueError):
    """A data file is not shaped as rule data (``kensei-ref data check`` says more): where and what."""

    def __init__(self, file: str, line: int, what: str) -> None:
        super().__init__(f"{file}:{line}: {what}")
        self.file, self.line, self.what = file, line, what


@dataclass(frozen=True)
class TextSlot:
    """One text: its English, and where each language's version stands in the YAML."""

    context: str
    item: str | None
    """The id of the stamped item the text belongs to (None for the sources' texts, which have no stamp)."""
    mapping: yaml.MappingNode
    """The text's ``{en: …, fr: …, ru: …}`` mapping."""
    plain: bool
    """A title or a name: plain text, without Markdown."""

    def node(self, lang: str) -> yaml.ScalarNode | None:
        """The scalar node of ``lang``'s text, or None when the file has none."""
        for key, value in self.mapping.value:
            if key.value == lang and isinstance(value, yaml.ScalarNode):
                return value
        return None

    def text(self, lang: str) -> str | None:
        """``lang``'s text as the loader keeps it (stripped), or None when there is none."""
        node = self.node(lang)
        return None if node is None else node.value.strip()

    @property
    def english(self) -> str:
        return self.text(SOURCE_LANGUAGE) or ""

    @property
    def line(self) -> int:
        """The line of the English text in the file (from 1)."""
        node = self.node(SOURCE_LANGUAGE)
        return (node or self.mapping).start_mark.line + 1


@dataclass(frozen=True)
class StampedItem:
    """A chapter, rule or glossary term: the unit its translations' freshness stamps cover."""

    id: str
    node: yaml.MappingNode
    """The item's mapping, which holds its ``id`` and its stamps."""
    stamp: str
    """The stamp of its current English."""

    def recorded(self, lang: str) -> str | None:
        """The stamp ``lang``'s translation records, or None when it records none."""
        stamps = entries(self.node).get(STAMPS_KEY)
        found = entries(stamps).get(lang) if isinstance(stamps, yaml.MappingNode) else None
        return found.value if isinstance(found, yaml.ScalarNode) else None


@dataclass(frozen=True)
class DataTexts:
    """One data file's translatable texts and stamped items, with the YAML source they were read from."""

    path: Path
    name: str
    """The file's path within the data folder (``kensei/08-orders.yaml``), as the PO files mirror it."""
    source: str
    slots: tuple[TextSlot, ...]
    items: dict[str, StampedItem] = field(default_factory=dict)

    def slot(self, context: str) -> TextSlot | None:
        return self._by_context.get(context)

    @cached_property
    def _by_context(self) -> dict[str, TextSlot]:
        return {slot.context: slot for slot in self.slots}


def data_files(data_dir: Path) -> list[Path]:
    """The data files that hold texts to translate, as the loader reads them: each game's chapters, the
    glossary, the sources (the aliases are players' words in each language, not translations)."""
    chapters = [path for game in GAMES for path in sorted((data_dir / game).glob("*.yaml"))]
    return [*chapters, *sorted((data_dir / "glossary").glob("*.yaml")), data_dir / "sources.yaml"]


def read_texts(path: Path, data_dir: Path, source: str | None = None) -> DataTexts:
    """The texts of the data file at ``path`` (or of ``source``, a new text of that file).

    Raises:
        DataShapeError: when the file is not YAML shaped as rule data.
        OSError: when it cannot be read.
    """
    name = path.relative_to(data_dir).as_posix()
    source = path.read_text(encoding="utf-8") if source is None else source
    try:
        root = yaml.compose(source, Loader=SAFE_LOADER)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        raise DataShapeError(name, mark.line + 1 if mark else 1, "malformed YAML") from None
    walker = _Walker(name)
    if isinstance(root, yaml.MappingNode):
        walker.file(root)
    return DataTexts(path, name, source, tuple(walker.slots), walker.items)


class _Walker:
    """Collects the slots and stamped items of one file, in the order the file has them."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.slots: list[TextSlot] = []
        self.items: dict[str, StampedItem] = {}

    def file(self, root: yaml.MappingNode) -> None:
        top = entries(root)
        if "chapter" in top:
            self.item(top["chapter"], (("title", True), ("intro", False)))
        for rule in _list(top.get("rules")):
            self.item(rule, (("title", True), ("body", False)), ("examples", "notes"))
        for term in _list(top.get("terms")):
            self.item(term, (("name", True), ("definition", False)))
        for source in _list(top.get("texts")):
            source_id = self.id_of(source)
            for key in ("title", "note"):
                self.text(entries(source).get(key), f"texts/{source_id}/{key}", None, plain=False)
        labels = top.get("example_labels")
        for origin, node in entries(labels).items() if isinstance(labels, yaml.MappingNode) else ():
            self.text(node, f"example_labels/{origin}", None, plain=False)

    def item(self, node: yaml.Node, fields: tuple[tuple[str, bool], ...], lists: tuple[str, ...] = ()) -> None:
        """A stamped item: its own fields, then the text of each entry of its lists (examples, notes), and
        its stamp from their English in :func:`kensei_ref.rules.freshness.english_of`'s order."""
        item_id = self.id_of(node)
        assert isinstance(node, yaml.MappingNode)  # id_of found its id
        fields_of = entries(node)
        english = [self.text(fields_of.get(key), f"{item_id}/{key}", item_id, plain) for key, plain in fields]
        for list_key in lists:
            for entry in _list(fields_of.get(list_key)):
                entry_id = self.id_of(entry)
                english.append(self.text(entries(entry).get("text"), f"{item_id}/{list_key}/{entry_id}", item_id))
        self.items[item_id] = StampedItem(item_id, node, stamp_of_english(english))

    def text(self, node: yaml.Node | None, context: str, item: str | None, plain: bool = False) -> str:
        """Record one text (none when the field is absent, as a chapter's intro may be); its English."""
        if node is None:
            return ""
        if not isinstance(node, yaml.MappingNode) or not isinstance(
            entries(node).get(SOURCE_LANGUAGE), yaml.ScalarNode
        ):
            raise DataShapeError(self.name, node.start_mark.line + 1, f"{context}: not a text with its English")
        slot = TextSlot(context, item, node, plain)
        self.slots.append(slot)
        return slot.english

    def id_of(self, node: yaml.Node) -> str:
        found = entries(node).get("id") if isinstance(node, yaml.MappingNode) else None
        if not isinstance(found, yaml.ScalarNode) or not found.value:
            raise DataShapeError(self.name, node.start_mark.line + 1, "an entry without an id")
        return str(found.value)


def entries(node: yaml.Node | None) -> dict[str, yaml.Node]:
    """A mapping node's values by their keys' text (nothing for any other node)."""
    if not isinstance(node, yaml.MappingNode):
        return {}
    return {str(key.value): value for key, value in node.value if isinstance(key, yaml.ScalarNode)}


def _list(node: yaml.Node | None) -> Iterator[yaml.Node]:
    """A sequence node's entries (nothing for any other node)."""
    if isinstance(node, yaml.SequenceNode):
        yield from node.value

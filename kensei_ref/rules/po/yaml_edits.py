"""Write a translation or a freshness stamp into a data file's YAML text, and change no other byte.

As ``kensei-ref data stamp`` does (:func:`kensei_ref.rules.freshness.write_stamps`), the file is edited
as text rather than dumped again, so that its comments, key order, quoting and line breaks stay as their
authors wrote them: an edit replaces one scalar's characters (found from its YAML node's marks) or
inserts one key. A new text takes the style of the text it replaces, or of its English where there was
none: a literal block (``|``) where that is a block, plain where a plain scalar reads back as the same
text, double-quoted (every character escaped as YAML escapes it) otherwise. Each rendering is read back
with PyYAML before it is used.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from itertools import pairwise

import yaml

from kensei_ref.languages import BY_CODE, SOURCE_LANGUAGE
from kensei_ref.rules.po.texts import SAFE_LOADER, STAMPS_KEY, TextSlot, entries


@dataclass(frozen=True)
class Edit:
    """Characters ``start`` to ``end`` of a file's text replaced by ``text`` (an insertion when equal)."""

    start: int
    end: int
    text: str


def apply(source: str, edits: list[Edit]) -> str:
    """``source`` with every edit made; edits never overlap (each is one scalar or one new key)."""
    ordered = sorted(edits, key=lambda edit: (edit.start, edit.end))
    for before, after in pairwise(ordered):
        if before.end > after.start:
            raise ValueError(f"overlapping edits at characters {before.start} and {after.start}")
    for edit in reversed(ordered):
        source = source[: edit.start] + edit.text + source[edit.end :]
    return source


def text_edit(source: str, slot: TextSlot, lang: str, text: str) -> Edit:
    """The edit that makes ``lang``'s text of ``slot`` read ``text``: its scalar replaced, or its key added
    after the languages before it."""
    node = slot.node(lang)
    flow = bool(slot.mapping.flow_style)
    if node is not None:
        end = _content_end(source, node) if _block(node) else node.end_mark.index
        tail = "\n" if _block(node) else ""
        rendered = render(text, node.style, _key_column(slot.mapping, lang) + 2, flow)
        return Edit(node.start_mark.index, end, rendered if rendered.endswith("\n") else rendered + tail)
    key, after = _last_before(slot.mapping, lang)
    english = slot.node(SOURCE_LANGUAGE)
    style = english.style if english is not None else None
    if flow:
        return Edit(after.end_mark.index, after.end_mark.index, f", {lang}: {render(text, None, 0, True)}")
    column = key.start_mark.column
    rendered = render(text, style, column + 2, False)
    line = f"{' ' * column}{lang}: {rendered}" + ("" if rendered.endswith("\n") else "\n")
    at = _line_end(source, after)
    return Edit(at, at, line)


def stamp_edit(source: str, item: yaml.MappingNode, lang: str, stamp: str) -> Edit:
    """The edit that records ``stamp`` as ``lang``'s freshness stamp of ``item`` (a chapter, rule or term):
    its value replaced, its key added to the item's ``translations``, or that key added after the ``id``."""
    quoted = f"'{stamp}'"  # quoted: ten hex digits may read as a number (1234567890, 12e4567890)
    found = entries(item)
    stamps = found.get(STAMPS_KEY)
    if isinstance(stamps, yaml.MappingNode):
        value = entries(stamps).get(lang)
        if value is not None:
            return Edit(value.start_mark.index, value.end_mark.index, quoted)
        if not stamps.value:
            return Edit(stamps.start_mark.index, stamps.end_mark.index, f"{{{lang}: {quoted}}}")
        last = stamps.value[-1][1]
        if stamps.flow_style:
            return Edit(last.end_mark.index, last.end_mark.index, f", {lang}: {quoted}")
        column = stamps.value[-1][0].start_mark.column
        at = _line_end(source, last)
        return Edit(at, at, f"{' ' * column}{lang}: {quoted}\n")
    identifier = next(key for key, _ in item.value if key.value == "id")
    at = _line_end(source, found["id"])
    return Edit(at, at, f"{' ' * identifier.start_mark.column}{STAMPS_KEY}: {{{lang}: {quoted}}}\n")


def render(text: str, style: str | None, indent: int, flow: bool) -> str:
    """``text`` as a YAML scalar in the given style where it reads back the same, else double-quoted."""
    if style == "|" and not flow:
        pad = " " * indent
        literal = "|\n" + "".join(f"{pad}{line}\n" if line else "\n" for line in text.split("\n"))
        if _reads_back(literal, text + "\n", flow):
            return literal
    if not style and "\n" not in text and _reads_back(text, text, flow):  # plain: None, or "" from libyaml
        return text
    quoted = yaml.dump(text, Dumper=yaml.SafeDumper, default_style='"', allow_unicode=True, width=sys.maxsize)
    quoted = quoted.rstrip("\n")
    if not _reads_back(quoted, text, flow):
        raise ValueError(f"cannot write {text[:40]!r} as YAML")
    return quoted


def _reads_back(rendered: str, text: str, flow: bool) -> bool:
    """Whether ``rendered`` is read back as ``text`` where it will stand: inside a flow mapping, or as a
    value in a block mapping, with another key after it."""
    document = f"{{k: {rendered}, z: 0}}" if flow else f"k: {rendered}" + ("" if rendered.endswith("\n") else "\n")
    document += "" if flow else "z: 0\n"
    try:
        read = yaml.load(document, Loader=SAFE_LOADER)
    except yaml.YAMLError:
        return False
    return isinstance(read, dict) and read.get("k") == text and read.get("z") == 0 and len(read) == 2


def _content_end(source: str, node: yaml.ScalarNode) -> int:
    """Where a block scalar's last line with text ends (after its line break): its node's end mark comes
    after the blank lines that follow it, which belong to the file's layout and stay."""
    span = source[node.start_mark.index : node.end_mark.index]
    last = len(span.rstrip(" \t\r\n"))
    newline = span.find("\n", last)
    return node.start_mark.index + (newline + 1 if newline >= 0 else len(span))


def _line_end(source: str, node: yaml.Node) -> int:
    """The start of the line after the one where ``node`` ends (a block scalar: after its last text)."""
    if isinstance(node, yaml.ScalarNode) and _block(node):
        return _content_end(source, node)
    newline = source.find("\n", node.end_mark.index)
    return len(source) if newline < 0 else newline + 1


def _block(node: yaml.ScalarNode) -> bool:
    """A literal (``|``) or folded (``>``) block: its node ends after the blank lines that follow it."""
    return node.style in ("|", ">")


def _key_column(mapping: yaml.MappingNode, lang: str) -> int:
    return next(key.start_mark.column for key, _ in mapping.value if key.value == lang)


def _last_before(mapping: yaml.MappingNode, lang: str) -> tuple[yaml.Node, yaml.Node]:
    """The key and value after which ``lang`` is added: the last language that comes before it in the
    languages' order, else the mapping's last."""
    order = list(BY_CODE)
    rank = order.index(lang) if lang in order else len(order)
    before = [(key, value) for key, value in mapping.value if key.value in order and order.index(key.value) < rank]
    key, value = before[-1] if before else mapping.value[-1]
    return key, value

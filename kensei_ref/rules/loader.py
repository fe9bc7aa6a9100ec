"""Load the YAML rule data into a :class:`~kensei_ref.rules.model.RuleBook`, validating everything.

Every problem is collected with its file and key path (``rules[kensei.regroup].body.fr``) and all
of them are raised together in one :class:`DataError`, so a maintainer fixes a batch at once
instead of rerunning the build for each typo.
"""

from __future__ import annotations

import re
import reprlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml

from kensei_ref.languages import LANGUAGES as LANGS
from kensei_ref.languages import TRANSLATED
from kensei_ref.rules.model import (
    EXAMPLE_ORIGINS,
    Chapter,
    Citation,
    Example,
    Note,
    Reference,
    Rule,
    RuleBook,
    SourceText,
    Term,
    Text,
)
from kensei_ref.rules.references import REFERENCE, VALUE_KINDS, number_in_words

DATA_DIR = Path(__file__).resolve().parent / "data"
GAMES = ("kensei", "ronin")
NOTE_KINDS = ("silent", "conflict", "reading")
RULE_ID = re.compile(r"^(kensei|ronin)\.[a-z0-9]+(?:-[a-z0-9]+)*$")
SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
VALUE_KEY = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$")
NUMBER = re.compile(r"^\d+(?:\.\d+)*$")


@dataclass(frozen=True)
class Problem:
    """One thing wrong in the data, located by file and key path."""

    file: str
    path: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}: {self.path}" if self.path else self.file
        return f"{where}: {self.message}"


class DataError(Exception):
    """The rule data is invalid; ``problems`` lists every problem found, not only the first.

    ``note`` says what could not be checked because of them (it ends the message)."""

    def __init__(self, problems: list[Problem], note: str = ""):
        self.problems = problems
        lines = "\n".join(f"  {p}" for p in problems)
        super().__init__(f"{len(problems)} problem(s) in the rule data:\n{lines}" + (f"\n{note}" if note else ""))


MAX_NESTING = 20
"""How deep lists and mappings may nest in a data file. The data nests 7 deep at most; a bound keeps
a hostile file from exhausting the parser's stack (libyaml's composer crashed the process at 200,000
levels) or Python's (900 levels ended in RecursionError)."""


def _shown(value: object) -> str:
    """``repr(value)`` cut short: a problem quotes what it found, never a whole page of it."""
    shown = _SHOWN.repr(value)
    return shown if len(shown) <= SHOWN_LENGTH else f"{shown[: SHOWN_LENGTH - 3]}..."


SHOWN_LENGTH = 80
_SHOWN = reprlib.Repr()
_SHOWN.maxstring = _SHOWN.maxother = SHOWN_LENGTH
_SHOWN.maxlevel = 3


_SAFE_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's parser when PyYAML was built with it (its wheels are): the same safe constructors, parsed
about ten times faster, which is most of a rebuild under ``mkdocs serve``."""


class _Refused(Exception):
    """Well-formed YAML that rule data may not use: it would let a file exhaust time, memory or stack."""

    def __init__(self, reason: str, event: yaml.Event) -> None:
        mark = event.start_mark
        super().__init__(f"line {mark.line + 1}, column {mark.column + 1}: {reason}" if mark else reason)


class _BoundedComposer(yaml.composer.Composer):
    """Builds the document's nodes from the parser's events, refusing what the rule data never needs
    and a hostile file could abuse: anchors and aliases (a "billion laughs" of nested aliases is a few
    lines that expand to billions of strings once a check quotes the value) and nesting deeper than
    :data:`MAX_NESTING`. It replaces libyaml's composer, which recurses without a bound; libyaml still
    parses."""

    _depth = 0
    peek_event: Callable[[], yaml.Event]  # the parser's, which the loader class adds

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        event = self.peek_event()
        if anchor := getattr(event, "anchor", None):
            name = ("*" if isinstance(event, yaml.AliasEvent) else "&") + anchor
            raise _Refused(f"YAML anchors and aliases are not allowed (found {_shown(name)}): write it out", event)
        if isinstance(event, yaml.CollectionStartEvent) and self._depth >= MAX_NESTING:
            raise _Refused(f"lists and mappings nested more than {MAX_NESTING} levels deep", event)
        self._depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


class _UniqueKeyLoader(_BoundedComposer, _SAFE_LOADER):  # type: ignore[valid-type,misc]
    """A safe loader with bounded composition that refuses duplicate keys, which PyYAML would otherwise
    silently drop."""

    def __init__(self, stream: str) -> None:
        _SAFE_LOADER.__init__(self, stream)
        _BoundedComposer.__init__(self)


def _construct_mapping(loader: _UniqueKeyLoader, node: yaml.MappingNode, deep: bool = False) -> dict:
    seen: set[object] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if not isinstance(key, str | int | float | bool | type(None)):
            raise yaml.constructor.ConstructorError(None, None, "a key must be a word or a number", key_node.start_mark)
        if key in seen:
            raise yaml.constructor.ConstructorError(None, None, f"duplicate key {_shown(key)}", key_node.start_mark)
        seen.add(key)
    return loader.construct_mapping(node, deep=deep)


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def _refuse_unreadable(tag: str, kind: str) -> None:
    """Make a scalar PyYAML cannot read under ``tag`` a located YAML error, not a Python exception:
    ``!!bool maybe`` (KeyError), ``!!timestamp soon`` (AttributeError), ``2013-13-45`` (ValueError),
    a number of 5,000 digits (ValueError)."""
    construct = yaml.SafeLoader.yaml_constructors[tag]

    def construct_or_refuse(loader: _UniqueKeyLoader, node: yaml.ScalarNode) -> Any:
        try:
            return construct(loader, node)
        except (AttributeError, KeyError, TypeError, ValueError):
            message = f"{_shown(node.value)} cannot be read as {kind}"
            raise yaml.constructor.ConstructorError(None, None, message, node.start_mark) from None

    _UniqueKeyLoader.add_constructor(tag, construct_or_refuse)


for _tag, _kind in (("bool", "true or false"), ("int", "an integer"), ("float", "a number"), ("timestamp", "a date")):
    _refuse_unreadable(f"tag:yaml.org,2002:{_tag}", _kind)


class _Checker:
    """Walks one file's parsed YAML, building model objects and recording problems."""

    def __init__(self, file: str, problems: list[Problem], require_stamps: bool = True):
        self.file = file
        self.problems = problems
        self.require_stamps = require_stamps

    def problem(self, path: str, message: str) -> None:
        self.problems.append(Problem(self.file, path, message))

    def mapping(self, node: Any, path: str, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> bool:
        """Check that ``node`` is a mapping with the required keys and no unknown key."""
        if not isinstance(node, dict):
            self.problem(path, f"must be a mapping, got {type(node).__name__}")
            return False
        for key in required:
            if key not in node:
                self.problem(path, f"missing key {_shown(key)}")
        allowed = set(required) | set(optional)
        for key in node:
            if key not in allowed:
                self.problem(path, f"unknown key {_shown(key)} (allowed: {', '.join(sorted(allowed))})")
        return True

    def items(self, node: Any, path: str) -> list[tuple[Any, str]]:
        """Each item of a list with its path (``path[i]``); none, and a problem, when it is not a list."""
        if not isinstance(node, list):
            self.problem(path, "must be a list")
            return []
        return [(item, f"{path}[{i}]") for i, item in enumerate(node)]

    def string(self, node: Any, path: str, pattern: re.Pattern[str] | None = None) -> str | None:
        if not isinstance(node, str) or not node.strip():
            self.problem(path, f"must be a non-empty string, got {_shown(node)}")
            return None
        if pattern is not None and not pattern.match(node):
            self.problem(path, f"{_shown(node)} does not match {pattern.pattern}")
        elif markup := _markup(node):
            self.problem(path, markup)
            return None
        return node

    def integer(self, node: Any, path: str) -> int | None:
        if isinstance(node, bool) or not isinstance(node, int):
            self.problem(path, f"must be an integer, got {_shown(node)}")
            return None
        return node

    def choice(self, node: Any, path: str, choices: tuple[str, ...]) -> str | None:
        if node not in choices:
            self.problem(path, f"must be one of {', '.join(choices)}, got {_shown(node)}")
            return None
        return node

    def text(self, node: Any, path: str, *, plain: bool = False) -> Text | None:
        """A text in every language: Markdown, or ``plain`` text (a title, a name)."""
        if not isinstance(node, dict):
            self.problem(path, f"must be a mapping of {', '.join(LANGS)}, got {type(node).__name__}")
            return None
        ok = True
        for lang in LANGS:
            if lang not in node:
                self.problem(f"{path}.{lang}", "missing language")
                ok = False
            elif not isinstance(node[lang], str) or not node[lang].strip():
                self.problem(f"{path}.{lang}", f"must be a non-empty string, got {_shown(node[lang])}")
                ok = False
        for key in node:
            if key not in LANGS:
                self.problem(path, f"unknown key {_shown(key)} (allowed: {', '.join(LANGS)})")
        for lang in LANGS:
            if ok and (markup := _markup(node[lang]) or (plain and _markup_in_plain_text(node[lang]))):
                self.problem(f"{path}.{lang}", markup)
                ok = False
            elif ok and (malformed := _malformed_reference(node[lang])):
                self.problem(f"{path}.{lang}", malformed)  # the text stays: its rule is not reported unknown
        return Text(**{lang: node[lang].strip() for lang in LANGS}) if ok else None

    def id_list(self, node: Any, path: str) -> tuple[str, ...]:
        if not isinstance(node, list) or not all(isinstance(item, str) for item in node):
            self.problem(path, f"must be a list of ids, got {_shown(node)}")
            return ()
        return tuple(node)

    def stamps(self, node: Any, path: str) -> dict[str, str]:
        if node is None:
            if self.require_stamps:
                self.problem(path, "missing translation stamps (run `kensei-ref data stamp`)")
            return {}
        if not self.mapping(node, path, TRANSLATED):
            return {}
        return {lang: str(node.get(lang, "")) for lang in TRANSLATED}

    def citation(self, node: Any, path: str) -> Citation | None:
        if isinstance(node, dict) and "ref" in node:
            if self.mapping(node, path, ("ref",)):
                return Citation(ref=self.string(node["ref"], f"{path}.ref"))
            return None
        if not self.mapping(node, path, ("text", "section")):
            return None
        return Citation(
            text=self.string(node.get("text"), f"{path}.text"),
            section=self.string(node.get("section"), f"{path}.section"),
        )


RAW_HTML = re.compile(r"<\s*[A-Za-z!/?]")
"""The start of an HTML tag, comment or declaration: rule texts are Markdown, and the pages show
them as such; markup from a data file could carry a script into every page."""
LINK = re.compile(r"\]\(\s*<?(?P<address>[^)]{0,200})")
"""The start of a Markdown link's or image's address (``](address``): enough for its scheme. Each part
of the patterns here is bounded or unambiguous, so that a text of brackets takes linear time."""
IMAGE = re.compile(r"!\[(?:[^\[\]]|\[(?:[^\[\]]|\[[^\[\]]*\])*\])*\]\(\s*<?(?P<address>[^)]{0,200})")
"""An image's address (``![text](address)``, its text holding brackets two deep at most)."""
DEFINED = re.compile(r"^ {0,3}\[[^\]\n]{1,1000}\]:\s*(?P<address>\S{0,200})", re.MULTILINE)
"""A reference link's or image's address (``[name]: address``)."""
LINK_SCHEMES = ("https", "http", "mailto")
"""The schemes a link in a text may have; an address without one is on the site."""
HIDDEN_IN_ADDRESSES = re.compile(r"[\x00-\x20\x7f-\x9f\u00ad\u200b-\u200f\u2028\u2029\ufeff&\\]")
"""What a browser drops from an address or decodes in it, or a reader cannot see: spaces, control
characters (``java<TAB>script:`` is ``javascript:`` to a browser), invisible ones, an entity
(``javascript&colon;``), a backslash (``/\\host`` is ``//host``). An address in the rules needs none."""
SCHEME = re.compile(r"^([a-z][a-z0-9+.-]*):")
LONGEST_TEXT = 20_000
"""Most characters of one text in one language: the longest body (kensei.regroup's) has 1,645. A 10 MB
body took the build to 363 MB."""
PLAIN_TEXT = re.compile(r"[\[\]*_`<>{}\\]|&\w+;|&#")
"""What Markdown reads as markup in a title (a link, emphasis, code, an entity): a title is plain text,
as the pages' headings, the search results and the terminal show it alike."""


def _refused_address(address: str, *, on_the_site: bool) -> str | None:
    """Why a link's address is not allowed (``on_the_site``: an image's, which is the site's own file),
    or None when it is."""
    if HIDDEN_IN_ADDRESSES.search(address):
        return "a link's address may not hold spaces, control characters, entities or backslashes"
    scheme = SCHEME.match(address.lower())
    if on_the_site and (scheme or address.startswith("//")):
        return "must be one of the site's files, without scheme or host"
    if scheme and scheme[1] not in LINK_SCHEMES:
        return f"a link's address may only be on the site or start with {', '.join(f'{s}:' for s in LINK_SCHEMES)}"
    return None


def _refused_link(text: str) -> str | None:
    """Why a link or image of ``text`` is not allowed, or None when all are."""
    for pattern, what, on_the_site in (
        (IMAGE, "an image", True),
        (DEFINED, "a reference link", True),
        (LINK, "", False),
    ):
        for found in pattern.finditer(text):
            if reason := _refused_address(found["address"].rstrip(">"), on_the_site=on_the_site):
                where = f"{what} {reason}" if what and reason.startswith("must") else reason
                return f"{where} (found {_shown(found[0])})"
    return None


def _markup(text: str) -> str | None:
    """Why ``text`` cannot be shown as a rule's Markdown, or None when it can."""
    if len(text) > LONGEST_TEXT:
        return f"must be at most {LONGEST_TEXT} characters, got {len(text)}"
    if found := RAW_HTML.search(text):
        return f"raw HTML is not allowed (found {text[found.start() : found.start() + 12]!r}): write Markdown"
    return _refused_link(text)


def _markup_in_plain_text(text: str) -> str | None:
    """Why ``text`` is not plain text (a title, a name), or None when it is."""
    if found := PLAIN_TEXT.search(text):
        quoted = _shown(text[max(found.start() - 10, 0) : found.end() + 10])
        return f"must be plain text, without Markdown links, emphasis, code or entities (found {quoted})"
    return None


def text_refusal(text: str, *, plain: bool = False) -> str | None:
    """Why one language's ``text`` cannot stand in the rule data (markup, links, a malformed reference, or
    Markdown in a ``plain`` title or name), or None when it can: the checks :meth:`_Checker.text` makes of
    each language, for a translation that comes from elsewhere (a PO file) before it is written."""
    return _markup(text) or (_markup_in_plain_text(text) if plain else None) or _malformed_reference(text)


REFERENCE_FORM = (
    "write {rule:ID}, {term:ID}, {value:KEY}, {signed:KEY} or {percent:KEY}, with an optional |label, "
    "and no other braces"
)


def _malformed_reference(text: str) -> str | None:
    """Why a brace in ``text`` is not part of a well-formed inline reference, or None when all are.

    A reference the grammar does not match would reach the page as written (``{rule:x)``), so every
    ``{`` and ``}`` must belong to one, and a label holds no brace."""
    blanked = REFERENCE.sub(lambda m: m[0] if "{" in (m["label"] or "") else " " * len(m[0]), text)
    stray = re.search(r"[{}]", blanked)
    if stray is None:
        return None
    found = text[stray.start() :].split("\n", 1)[0][:40]
    return f"malformed reference (found {_shown(found)}): {REFERENCE_FORM}"


FILE_HOLDS = {
    "chapter": "a chapter file holds `chapter` and `rules`",
    "glossary": "a glossary file holds `terms`",
    "sources": "the sources file holds `texts` and `references`",
    "aliases": "the aliases file holds `aliases`",
}
"""What each kind of data file holds, for the problem an empty or missing file gets."""


def _read_yaml(path: Path, root: Path, problems: list[Problem], kind: str) -> Any:
    """The parsed content of one data file, or None (and a problem naming the file) when there is none."""
    name = _display(path, root)
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_UniqueKeyLoader)
    except _Refused as error:
        problems.append(Problem(name, "", str(error)))
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        reason = getattr(error, "problem", None) or str(error)
        problems.append(Problem(name, "", f"malformed YAML: {where}{reason}"))
    except UnicodeDecodeError as error:
        problems.append(Problem(name, "", f"not UTF-8: {error}"))
    except ValueError as error:  # a scalar YAML reads but Python cannot hold: a 5,000-digit number, 13th month
        problems.append(Problem(name, "", f"unreadable value: {_shown(str(error))}"))
    except FileNotFoundError:
        problems.append(Problem(name, "", f"missing: the rule data needs this file ({FILE_HOLDS[kind]})"))
    except IsADirectoryError:
        problems.append(Problem(name, "", "is a folder: only YAML files end in .yaml here"))
    except OSError as error:
        problems.append(Problem(name, "", f"cannot be read: {error.strerror}"))
    else:
        if data is not None:
            return data
        problems.append(Problem(name, "", f"empty (or only comments): {FILE_HOLDS[kind]}"))
    return None


def _display(path: Path, root: Path) -> str:
    return str(path.relative_to(root.parent)) if path.is_relative_to(root.parent) else str(path)


def _load_examples(check: _Checker, node: Any, path: str) -> tuple[Example, ...]:
    examples = []
    for item, where in check.items(node, path):
        if not check.mapping(item, where, ("id", "text", "origin"), ("calculator", "inputs", "expect")):
            continue
        example_id = check.string(item.get("id"), f"{where}.id", SLUG)
        text = check.text(item.get("text"), f"{where}.text")
        origin = _example_origin(check, item.get("origin"), f"{where}.origin")
        calculator = item.get("calculator")
        if calculator is not None:
            check.string(calculator, f"{where}.calculator")
            for key in ("inputs", "expect"):
                if not isinstance(item.get(key), dict):
                    check.problem(f"{where}.{key}", "must be a mapping when a calculator is named")
        elif "inputs" in item or "expect" in item:
            check.problem(where, "inputs and expect need a calculator")
        inputs, expect = (item.get(key) if isinstance(item.get(key), dict) else {} for key in ("inputs", "expect"))
        if example_id and text and origin:
            source = origin if isinstance(origin, Citation) else None
            examples.append(Example(example_id, text, source, calculator, dict(inputs), dict(expect)))
    ids = [e.id for e in examples]
    for dup in {i for i in ids if ids.count(i) > 1}:
        check.problem(path, f"duplicate example id {_shown(dup)}")
    return tuple(examples)


OURS = "ours"
"""An example's ``origin`` when it was written for this reference (the source texts do not have it)."""


def _example_origin(check: _Checker, node: Any, path: str) -> Citation | str | None:
    """Where an example comes from: the source text and section it is taken from, or ``ours``."""
    if node == OURS:
        return OURS
    if isinstance(node, dict) and "ref" not in node:
        return check.citation(node, path)
    check.problem(path, f"must be {{text, section}} (an example of that source text) or {OURS!r} (written here)")
    return None


def _load_notes(check: _Checker, node: Any, path: str) -> tuple[Note, ...]:
    notes = []
    for item, where in check.items(node, path):
        if not check.mapping(item, where, ("id", "kind", "text"), ("sources",)):
            continue
        note_id = check.string(item.get("id"), f"{where}.id", SLUG)
        kind = check.choice(item.get("kind"), f"{where}.kind", NOTE_KINDS)
        text = check.text(item.get("text"), f"{where}.text")
        citations = []
        for src, at in check.items(item.get("sources", []), f"{where}.sources"):
            citation = check.citation(src, at)
            if citation:
                citations.append(citation)
        if note_id and kind and text:
            notes.append(Note(note_id, kind, text, tuple(citations)))
    return tuple(notes)


LARGEST_VALUE = 1000
"""The largest a rule's value may be, either side of zero: the largest any rule needs is 360 (a full
turn, in degrees). A larger number is a slip, and one of 27 digits reached Babel's formatting as a
``decimal.InvalidOperation`` in the build, ``kensei-ref rule`` and the search."""


def _load_values(check: _Checker, node: Any, path: str) -> dict[str, int]:
    if not isinstance(node, dict):
        check.problem(path, "must be a mapping of value names to integers")
        return {}
    values = {}
    for key, value in node.items():
        if not isinstance(key, str) or not VALUE_KEY.match(key):
            check.problem(f"{path}.{key}", "value names are snake_case")
            continue
        number = check.integer(value, f"{path}.{key}")
        if number is not None and abs(number) > LARGEST_VALUE:
            check.problem(
                f"{path}.{key}", f"must be an integer from {-LARGEST_VALUE} to {LARGEST_VALUE}, got {_shown(number)}"
            )
        elif number is not None:
            values[key] = number
    return values


RULE_KEYS = ("id", "title", "body", "source")
RULE_OPTIONAL = ("number", "see_also", "values", "examples", "notes", "translations")


def _load_rule(check: _Checker, node: Any, path: str, chapter: dict, order: int) -> Rule | None:
    if isinstance(node, dict) and isinstance(node.get("id"), str):
        path = f"rules[{node['id']}]"  # name the rule by its id: indexes shift as rules are added
    if not check.mapping(node, path, RULE_KEYS, RULE_OPTIONAL):
        return None
    rule_id = check.string(node.get("id"), f"{path}.id", RULE_ID)
    if rule_id:
        game = chapter.get("game")
        if game in GAMES and not rule_id.startswith(f"{game}."):
            check.problem(f"{path}.id", f"must start with the chapter's game {_shown(game)}")
    number = node.get("number")
    if number is not None:
        check.string(number, f"{path}.number", NUMBER)
    title = check.text(node.get("title"), f"{path}.title", plain=True)
    body = check.text(node.get("body"), f"{path}.body")
    source = check.citation(node.get("source"), f"{path}.source")
    see_also = check.id_list(node.get("see_also", []), f"{path}.see_also")
    values = _load_values(check, node.get("values", {}), f"{path}.values")
    examples = _load_examples(check, node.get("examples", []), f"{path}.examples")
    notes = _load_notes(check, node.get("notes", []), f"{path}.notes")
    stamps = check.stamps(node.get("translations"), f"{path}.translations")
    if not (rule_id and title and body and source):
        return None
    return Rule(
        id=rule_id,
        title=title,
        body=body,
        source=source,
        chapter_id=str(chapter.get("id")),
        order=order,
        number=number,
        see_also=see_also,
        values=MappingProxyType(values),
        examples=examples,
        notes=notes,
        stamps=stamps,
        file=check.file,
    )


def _load_chapter(path: Path, root: Path, problems: list[Problem], require_stamps: bool) -> Chapter | None:
    data = _read_yaml(path, root, problems, "chapter")
    if data is None:
        return None
    check = _Checker(_display(path, root), problems, require_stamps)
    if not check.mapping(data, "", ("chapter", "rules")):
        return None
    head = data.get("chapter")
    if not check.mapping(head, "chapter", ("id", "game", "order", "title"), ("number", "intro", "translations")):
        return None
    game = check.choice(head.get("game"), "chapter.game", GAMES)
    chapter_id = check.string(head.get("id"), "chapter.id", RULE_ID)
    if chapter_id and game and not chapter_id.startswith(f"{game}."):
        check.problem("chapter.id", f"must start with the chapter's game {_shown(game)}")
    order = check.integer(head.get("order"), "chapter.order")
    number = head.get("number")
    if number is not None:
        check.string(number, "chapter.number", NUMBER)
    title = check.text(head.get("title"), "chapter.title", plain=True)
    intro = check.text(head["intro"], "chapter.intro") if "intro" in head else None
    stamps = check.stamps(head.get("translations"), "chapter.translations")
    rules_node = data.get("rules")
    rules: list[Rule] = []
    if not isinstance(rules_node, list) or not rules_node:
        check.problem("rules", "must be a non-empty list of rules")
        return None
    for i, item in enumerate(rules_node):
        rule = _load_rule(check, item, f"rules[{i}]", head, i)
        if rule:
            rules.append(rule)
    if not (game and chapter_id and title and order is not None):
        return None
    return Chapter(
        id=chapter_id,
        game=game,
        order=order,
        title=title,
        rules=tuple(rules),
        number=number,
        intro=intro,
        stamps=stamps,
        file=check.file,
    )


def _load_terms(path: Path, root: Path, problems: list[Problem], require_stamps: bool) -> list[Term]:
    data = _read_yaml(path, root, problems, "glossary")
    if data is None:
        return []
    check = _Checker(_display(path, root), problems, require_stamps)
    if not check.mapping(data, "", ("terms",)) or not isinstance(data.get("terms"), list) or not data["terms"]:
        check.problem("terms", "must be a non-empty list of terms")
        return []
    terms = []
    for i, item in enumerate(data["terms"]):
        where = f"terms[{i}]"
        if not check.mapping(item, where, ("id", "game", "name", "definition"), ("japanese", "rule", "translations")):
            continue
        term_id = check.string(item.get("id"), f"{where}.id", SLUG)
        if term_id:
            where = f"terms[{term_id}]"
        game = check.choice(item.get("game"), f"{where}.game", (*GAMES, "both"))
        name = check.text(item.get("name"), f"{where}.name", plain=True)
        definition = check.text(item.get("definition"), f"{where}.definition")
        japanese = item.get("japanese", False)
        if not isinstance(japanese, bool):
            check.problem(f"{where}.japanese", f"must be true or false, got {_shown(japanese)}")
        rule = item.get("rule")
        if rule is not None:
            rule = check.string(rule, f"{where}.rule", RULE_ID)
        stamps = check.stamps(item.get("translations"), f"{where}.translations")
        if term_id and game and name and definition:
            terms.append(Term(term_id, game, name, definition, bool(japanese), rule, stamps, check.file))
    return terms


Sources = tuple[list[SourceText], list[Reference], dict[str, Text]]
"""What ``sources.yaml`` holds: the source texts, the outside references, the worked examples' labels."""


def _load_sources(path: Path, root: Path, problems: list[Problem]) -> Sources | None:
    """The source texts, outside references and examples' labels, or None when any text or reference is
    invalid: everything cites these, so one lost entry would be reported as unknown at every citation of it."""
    data = _read_yaml(path, root, problems, "sources")
    check = _Checker(_display(path, root), problems)
    if data is None or not check.mapping(data, "", ("texts", "references"), ("example_labels",)):
        return None
    text_items = check.items(data.get("texts"), "texts")
    reference_items = check.items(data.get("references"), "references")
    texts = [text for item, where in text_items if (text := _source(check, item, where))]
    references = [reference for item, where in reference_items if (reference := _reference(check, item, where))]
    if len(texts) < len(text_items) or len(references) < len(reference_items):
        return None
    return texts, references, _example_labels(check, data.get("example_labels", {}))


def _example_labels(check: _Checker, node: Any) -> dict[str, Text]:
    """The label a page gives a worked example of each origin (``rules``, ``ours``), in every language."""
    if not check.mapping(node, "example_labels", (), EXAMPLE_ORIGINS):
        return {}
    labels = {
        origin: check.text(node[origin], f"example_labels.{origin}") for origin in node if origin in EXAMPLE_ORIGINS
    }
    return {origin: label for origin, label in labels.items() if label}


def _check_example_labels(book: RuleBook, file: str, problems: list[Problem]) -> None:
    """Every origin a worked example has needs its label: no page shows an example without saying where
    it comes from."""
    for origin in dict.fromkeys(example.origin for rule in book.rules for example in rule.examples):
        if origin not in book.example_labels:
            message = f"missing: the label of the worked examples whose origin is {_shown(origin)}"
            problems.append(Problem(file, f"example_labels.{origin}", message))


ALIAS_LETTERS = 40
"""The longest alias: a few words a player would type, never a sentence."""
ALIASES_PER_LANGUAGE = 12
"""At most this many aliases for one rule or term in one language."""


def _load_aliases(path: Path, root: Path, problems: list[Problem]) -> dict[str, dict[str, tuple[str, ...]]]:
    """Players' words for rules and glossary terms (``aliases.yaml``: id -> language -> list), checked
    for form here; whether each id names a rule or a term is checked with the whole book
    (:func:`_check_aliases`). The file is optional: without it nothing has aliases."""
    if not path.exists():
        return {}
    data = _read_yaml(path, root, problems, "aliases")
    check = _Checker(_display(path, root), problems)
    if data is None or not check.mapping(data, "", ("aliases",)) or "aliases" not in data:
        return {}
    node = data["aliases"]
    if not isinstance(node, dict):
        check.problem("aliases", "must be a mapping of rule or glossary term ids to aliases by language")
        return {}
    found: dict[str, dict[str, tuple[str, ...]]] = {}
    for item_id, by_language in node.items():
        where = f"aliases[{item_id}]"
        if not isinstance(item_id, str) or not (RULE_ID.match(item_id) or SLUG.match(item_id)):
            check.problem(where, f"{_shown(item_id)} is neither a rule id nor a glossary term id")
            continue
        if not isinstance(by_language, dict) or not by_language:
            check.problem(where, f"must be a mapping of {', '.join(LANGS)} to lists of aliases")
            continue
        found[item_id] = {}
        for lang, words in by_language.items():
            if lang not in LANGS:
                check.problem(f"{where}.{lang}", f"unknown language {_shown(lang)} (allowed: {', '.join(LANGS)})")
            elif aliases := _alias_list(check, words, f"{where}.{lang}"):
                found[item_id][lang] = aliases
    return found


def _alias_list(check: _Checker, node: Any, path: str) -> tuple[str, ...]:
    """One language's aliases: a short list of short, distinct words or phrases."""
    if not isinstance(node, list) or not node:
        check.problem(path, "must be a non-empty list of aliases")
        return ()
    if len(node) > ALIASES_PER_LANGUAGE:
        check.problem(path, f"{len(node)} aliases: at most {ALIASES_PER_LANGUAGE} per language")
    aliases: list[str] = []
    for alias, where in check.items(node, path):
        if check.string(alias, where) is None:
            continue
        alias = " ".join(alias.split())
        if len(alias) > ALIAS_LETTERS:
            check.problem(where, f"too long ({len(alias)} letters, at most {ALIAS_LETTERS}): {_shown(alias)}")
        elif alias.casefold() in (known.casefold() for known in aliases):
            check.problem(where, f"repeated alias {_shown(alias)}")
        else:
            aliases.append(alias)
    return tuple(aliases)


def _check_aliases(book: RuleBook, file: str, problems: list[Problem]) -> None:
    """Every alias belongs to a rule or glossary term that exists."""
    known = {rule.id for rule in book.rules} | {term.id for term in book.terms}
    for item_id in book.aliases:
        if item_id not in known:
            what = "rule" if RULE_ID.match(item_id) else "glossary term"
            problems.append(Problem(file, f"aliases[{item_id}]", f"unknown {what} {_shown(item_id)}"))


def _source(check: _Checker, item: Any, where: str) -> SourceText | None:
    if not check.mapping(item, where, ("id", "file", "game", "language", "title", "sections"), ("note",)):
        return None
    source_id = _identifier(check, item.get("id"), f"{where}.id")
    file, language = (check.string(item.get(key), f"{where}.{key}") for key in ("file", "language"))
    game = check.choice(item.get("game"), f"{where}.game", GAMES)
    title = check.text(item.get("title"), f"{where}.title")
    sections = item.get("sections")
    if not isinstance(sections, list) or not all(isinstance(s, str) for s in sections):
        check.problem(f"{where}.sections", "must be a list of section headings")
        return None
    note = check.text(item["note"], f"{where}.note") if "note" in item else None
    if not (source_id and file and game and language and title) or ("note" in item and note is None):
        return None
    return SourceText(source_id, file, game, language, title, tuple(sections), note)


def _reference(check: _Checker, item: Any, where: str) -> Reference | None:
    if not check.mapping(item, where, ("id", "language", "title", "publisher", "year")):
        return None
    ref_id = _identifier(check, item.get("id"), f"{where}.id")
    fields = ("language", "title", "publisher")
    language, title, publisher = (check.string(item.get(key), f"{where}.{key}") for key in fields)
    year = check.integer(item.get("year"), f"{where}.year")
    if not (ref_id and language and title and publisher) or year is None:
        return None
    return Reference(ref_id, language, title, publisher, year)


def _identifier(check: _Checker, node: Any, path: str) -> str | None:
    """A source text's or reference's id, which citations name: one that breaks the slug pattern is
    refused here rather than kept, or every citation would report it unknown, far from the cause."""
    before = len(check.problems)
    found = check.string(node, path, SLUG)
    return found if len(check.problems) == before else None


def _duplicates(items: list[tuple[str, str]], what: str, problems: list[Problem]) -> None:
    """Report each id defined more than once, naming every file that defines it."""
    where: dict[str, list[str]] = {}
    for item_id, file in items:
        where.setdefault(item_id, []).append(file)
    for item_id, files in where.items():
        if len(files) > 1:
            problems.append(Problem(files[1], f"{what}[{item_id}]", f"duplicate {what} id, also defined in {files[0]}"))


class _ReferenceCheck:
    """Every id a text or field mentions must resolve somewhere; each miss is a problem."""

    def __init__(self, book: RuleBook, problems: list[Problem]) -> None:
        self.book = book
        self.problems = problems
        self.rules = {rule.id: rule for rule in book.rules}
        self.terms = {term.id for term in book.terms}
        self.sources = {source.id: source for source in book.sources}
        self.references = {ref.id for ref in book.references}

    def citation(self, citation: Citation, file: str, path: str) -> None:
        if citation.ref is not None:
            if citation.ref not in self.references:
                self.problems.append(Problem(file, path, f"unknown outside reference {_shown(citation.ref)}"))
            return
        source = self.sources.get(citation.text or "")
        if source is None:
            known = ", ".join(sorted(self.sources))
            self.problems.append(Problem(file, path, f"unknown source text {_shown(citation.text)} (known: {known})"))
        elif citation.section not in source.sections:
            section = _shown(citation.section)
            message = f"section {section} is not a section of source text {source.id} (see sources.yaml)"
            self.problems.append(Problem(file, path, message))

    def text(self, text: Text, file: str, path: str, rule: Rule | None) -> None:
        for lang in LANGS:
            for match in REFERENCE.finditer(text[lang]):
                message = self.reference(match["kind"], match["target"], rule, (match["label"], lang))
                if message:
                    self.problems.append(Problem(file, f"{path}.{lang}", message))

    def reference(self, kind: str, target: str, rule: Rule | None, label: tuple[str | None, str] = (None, "")) -> str:
        """What is wrong with one inline reference (its label and language), or ``""``."""
        if kind == "rule" and target not in self.rules:
            return f"reference to unknown rule {_shown(target)}"
        if kind == "term" and target not in self.terms:
            return f"reference to unknown glossary term {_shown(target)}"
        if kind in VALUE_KINDS:
            owner_id, _, key = target.rpartition("#")
            owner = self.rules.get(owner_id) if owner_id else rule
            if owner is None:
                return f"value {_shown(target)}: unknown rule {_shown(owner_id)}"
            if key not in owner.values:
                return f"value {_shown(target)}: rule {owner.id} has no value {_shown(key)}"
            words, lang = label
            if words is not None and (kind != "value" or not number_in_words(words, owner.values[key], lang)):
                return f"value {_shown(target)}: {_shown(words)} is not {owner.values[key]} in words ({lang})"
        return ""

    def rule(self, rule: Rule) -> None:
        base = f"rules[{rule.id}]"
        self.citation(rule.source, rule.file, f"{base}.source")
        self.text(rule.title, rule.file, f"{base}.title", rule)
        self.text(rule.body, rule.file, f"{base}.body", rule)
        for target in rule.see_also:
            if target not in self.rules:
                self.problems.append(Problem(rule.file, f"{base}.see_also", f"unknown rule {_shown(target)}"))
        for example in rule.examples:
            self.text(example.text, rule.file, f"{base}.examples[{example.id}].text", rule)
            if example.source:
                self.citation(example.source, rule.file, f"{base}.examples[{example.id}].origin")
        for note in rule.notes:
            self.text(note.text, rule.file, f"{base}.notes[{note.id}].text", rule)
            for j, citation in enumerate(note.sources):
                self.citation(citation, rule.file, f"{base}.notes[{note.id}].sources[{j}]")

    def run(self) -> None:
        for chapter in self.book.chapters:
            self.text(chapter.title, chapter.file, "chapter.title", None)
            if chapter.intro:
                self.text(chapter.intro, chapter.file, "chapter.intro", None)
            for rule in chapter.rules:
                self.rule(rule)
        for source in self.book.sources:
            if source.note:
                self.text(source.note, "sources.yaml", f"texts[{source.id}].note", None)
        for term in self.book.terms:
            self.text(term.definition, term.file, f"terms[{term.id}].definition", None)
            if term.rule and term.rule not in self.rules:
                self.problems.append(Problem(term.file, f"terms[{term.id}].rule", f"unknown rule {_shown(term.rule)}"))


def _check_references(book: RuleBook, problems: list[Problem]) -> None:
    """Every id a text or field mentions must resolve somewhere."""
    _ReferenceCheck(book, problems).run()


def load(data_dir: Path = DATA_DIR, *, require_stamps: bool = True) -> RuleBook:
    """Load and validate all rule data under ``data_dir``: the chapters of each game, the glossary,
    the sources and, when there is one, ``aliases.yaml`` (players' words for rules and terms).

    Args:
        require_stamps: whether a missing translation stamp is a problem; only the tool that
            writes the stamps loads without them.

    Raises:
        DataError: listing every problem found, each with its file and key path. When a file gives
            nothing at all (empty, unreadable, not the expected mapping), the references between
            files are not checked: each id it held would be reported as unknown wherever it is used.
    """
    data_dir = Path(data_dir)
    problems: list[Problem] = []
    lost: list[Path] = []
    chapters: list[Chapter] = []
    for path in (path for game in GAMES for path in sorted((data_dir / game).glob("*.yaml"))):
        if chapter := _load_chapter(path, data_dir, problems, require_stamps):
            chapters.append(chapter)
        else:
            lost.append(path)
    terms: list[Term] = []
    for path in sorted((data_dir / "glossary").glob("*.yaml")):
        if found := _load_terms(path, data_dir, problems, require_stamps):
            terms += found
        else:
            lost.append(path)
    if sources := _load_sources(data_dir / "sources.yaml", data_dir, problems):
        texts, references, labels = sources
    else:
        texts, references, labels = [], [], {}
        lost.append(data_dir / "sources.yaml")
    aliases_path = data_dir / "aliases.yaml"
    aliases = _load_aliases(aliases_path, data_dir, problems)
    chapters.sort(key=lambda c: (GAMES.index(c.game), c.order))
    # Chapters and rules share one namespace: both ids become page anchors and stamp keys.
    _duplicates(
        [(c.id, c.file) for c in chapters] + [(r.id, r.file) for c in chapters for r in c.rules], "rule", problems
    )
    _duplicates([(t.id, t.file) for t in terms], "term", problems)
    frozen = MappingProxyType({key: MappingProxyType(value) for key, value in aliases.items()})
    book = RuleBook(tuple(chapters), tuple(terms), tuple(texts), tuple(references), frozen, MappingProxyType(labels))
    if lost:
        files = ", ".join(_display(path, data_dir) for path in lost)
        raise DataError(problems, f"(references between files were not checked: fix these files first: {files})")
    _check_references(book, problems)
    _check_aliases(book, _display(aliases_path, data_dir), problems)
    _check_example_labels(book, _display(data_dir / "sources.yaml", data_dir), problems)
    if problems:
        raise DataError(problems)
    return book

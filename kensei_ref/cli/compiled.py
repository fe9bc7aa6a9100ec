"""The rule book and its search indexes compiled once, for a terminal that answers at once.

Reading the YAML rule data and building a language's search index take most of a second; a player
looking a rule up at the table should not wait for them on every command. The first command stores
what they produce in the user's cache directory (``$XDG_CACHE_HOME/kensei-ref``, else
``~/.cache/kensei-ref``; never inside the installed package, which may be read-only), and later
commands read it back in a few milliseconds:

- ``book.marshal``: the :class:`~kensei_ref.rules.model.RuleBook` as plain data;
- ``index-<lang>.marshal``: a language's :class:`~kensei_ref.rules.search.SearchIndex` as plain data,
  which searches without the rule book: ``kensei-ref search`` reads this file only;
- ``plain-<lang>.marshal``: a language's texts with their references written out
  (:func:`~kensei_ref.rules.search.plain_text`), so that showing a rule formats no number with Babel,
  whose locale data alone takes longer to read than the whole command may.

Each file opens with a line naming its fingerprint: the cache format, the Python version, and the
path, size and modification time of every data file and of every module that shapes what is stored
(the loader, the model, the search, the languages). The package's modules stand for its version: a
new version installs new files. A file whose fingerprint differs, or that cannot be read or decoded,
is rebuilt without a word; a directory that cannot be written means no cache, never an error.

A cache file is input from the disk, and is read as such:

- Its format is :mod:`marshal` of plain values (strings, numbers, tuples, lists, dicts, sets),
  which builds no object of any class and runs no code: unlike :mod:`pickle`, a tampered file
  cannot call anything. The rule book's objects are rebuilt from that plain data by their own
  constructors, for the model's classes only (:func:`model_classes`). JSON would be as safe, but
  decoding the Russian index from JSON takes about seven times as long as from marshal, more than the
  whole budget of a command.
- :mod:`marshal` is not hardened against malformed input, so a file is read only from a directory
  that the user owns and that no one else may write, and only when the user owns the file (on
  systems with user ids): whoever can write there can already run programs as the user.
"""

from __future__ import annotations

import marshal
import os
import sys
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType

from kensei_ref.cli.cache_files import cache_directory, read_marshal, write_marshal

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a few ms a command)
if TYPE_CHECKING:  # the model is imported where a rule book is stored or rebuilt: a search needs neither
    from typing import Any

    from kensei_ref.rules import model
    from kensei_ref.rules.search import SearchIndex

CACHE_FORMAT = 2
"""Raised whenever the stored layout changes: older files are then rebuilt."""
PACKAGE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = PACKAGE_DIR / "rules" / "data"
SHAPING_CODE = (PACKAGE_DIR / "rules", PACKAGE_DIR / "languages.py", PACKAGE_DIR / "numbers.py", Path(__file__))
"""The code whose output is stored: a change to any of it makes the stored files stale."""


@cache
def model_classes() -> dict[str, type]:
    """The classes a stored rule book may name: the model's dataclasses, by name."""
    import dataclasses

    from kensei_ref.rules import model

    return {
        name: value
        for name, value in vars(model).items()
        if isinstance(value, type) and dataclasses.is_dataclass(value)
    }


@cache
def _fields() -> dict[str, frozenset[str]]:
    """The fields a stored object of each model class must have, no more and no fewer."""
    import dataclasses

    return {
        name: frozenset(field.name for field in dataclasses.fields(cls) if field.init)
        for name, cls in model_classes().items()
    }


PlainText = Callable[["model.Text", "model.Rule | None"], str]
"""A text of the rule book in a language, its references written out (see :meth:`CompiledRules.plain`)."""


def fingerprint(data_dir: Path = DATA_DIR) -> str:
    """Everything the stored files are made from, in one line (see the module's documentation): the file
    begins with it, and comparing it costs less than loading a hash function."""
    parts = [f"kensei-ref cache {CACHE_FORMAT}", sys.version, f"marshal {marshal.version}"]
    for path in sorted(_files(Path(data_dir), ".yaml")) + sorted(p for c in SHAPING_CODE for p in _files(c, ".py")):
        info = os.stat(path)
        parts.append(f"{path}\0{info.st_size}\0{info.st_mtime_ns}")
    return "\0".join(parts)


def _files(path: Path, suffix: str) -> list[str]:
    if path.is_file():
        return [str(path)]
    found: list[str] = []
    for entry in os.scandir(path):
        if entry.is_dir():
            found += _files(Path(entry.path), suffix)
        elif entry.name.endswith(suffix):
            found.append(entry.path)
    return found


_SHARED: dict[str | None, CompiledRules] = {}


def bundled(environ: Mapping[str, str] | None = None) -> CompiledRules:
    """The package's own rules, through the cache directory of ``environ`` (the process's environment by
    default); one per directory and process."""
    directory = cache_directory(environ)
    if directory not in _SHARED:
        _SHARED[directory] = CompiledRules(DATA_DIR, None if directory is None else Path(directory))
    return _SHARED[directory]


class CompiledRules:
    """The rule book and the search indexes of one data directory, from the cache when it is current.

    Args:
        data_dir: the rule data (the package's own unless a test says otherwise).
        directory: the cache directory; None for no cache (everything is built in memory).
    """

    def __init__(self, data_dir: Path = DATA_DIR, directory: Path | None = None) -> None:
        self.data_dir = Path(data_dir)
        try:
            self.fingerprint = fingerprint(self.data_dir)
            self.directory = directory
        except OSError:  # a file that cannot be read is the loader's to report; nothing is stored or read
            self.fingerprint, self.directory = "", None
        self._book: model.RuleBook | None = None
        self._indexes: dict[str, SearchIndex] = {}
        self._plain: dict[str, dict[tuple[str, str], str]] = {}

    def book(self) -> model.RuleBook:
        """The validated rule book."""
        if self._book is None:
            from kensei_ref.rules import model

            stored = self._read("book")
            self._book = _safely_rebuilt(stored) if stored is not None else None
            if not isinstance(self._book, model.RuleBook):
                from kensei_ref.rules import loader

                self._book = loader.load(self.data_dir)
                self._write("book", lambda: _plain(self._book))
        return self._book

    def index(self, lang: str) -> SearchIndex:
        """The search index of ``lang``; a stored one reads the rule book only when a rule is asked for."""
        if lang not in self._indexes:
            from kensei_ref.rules.search import SearchIndex

            stored = self._read(f"index-{lang}")
            index = _index_from(stored, self.book, SearchIndex) if stored is not None else None
            if index is None:
                index = SearchIndex(self.book(), lang)
                self._write(f"index-{lang}", lambda: _index_state(index))
            self._indexes[lang] = index
        return self._indexes[lang]

    def plain(self, lang: str) -> PlainText:
        """``plain(text, rule)``: :func:`~kensei_ref.rules.search.plain_text` of ``text`` (a rule's or a
        glossary term's) in ``lang``, from the cache."""
        if lang not in self._plain:
            stored = self._read(f"plain-{lang}")
            if _is_plain_map(stored):
                self._plain[lang] = stored
            else:
                self._plain[lang] = _plain_texts(self.book(), lang)
                self._write(f"plain-{lang}", lambda: self._plain[lang])
        texts = self._plain[lang]

        def plain(text: model.Text, rule: model.Rule | None = None) -> str:
            key = (rule.id if rule is not None else "", text[lang])
            if key not in texts:
                from kensei_ref.rules.search import plain_text

                texts[key] = plain_text(self.book(), text, lang, rule)
            return texts[key]

        return plain

    # -- the files --------------------------------------------------------------------------

    def _path(self, name: str) -> Path | None:
        return self.directory / f"{name}.marshal" if self.directory is not None else None

    def _header(self) -> bytes:
        fingerprint = self.fingerprint.encode("utf-8", "surrogateescape").replace(b"\n", b"\\n")
        return b"kensei-ref " + fingerprint + b"\n"

    def _read(self, name: str) -> Any:
        """The stored value of ``name``, or None when it is missing, stale, not private or unreadable."""
        path = self._path(name)
        return read_marshal(path, self._header()) if path is not None else None

    def _write(self, name: str, value: Callable[[], Any]) -> None:
        """Store ``value()`` under ``name``, atomically; any failure leaves things as they were."""
        path = self._path(name)
        if path is not None:
            write_marshal(path, self._header(), value)


# -- the rule book as plain data ---------------------------------------------------------------


def _plain(value: Any) -> Any:
    """``value`` as plain data that :mod:`marshal` stores: every container and object tagged with its kind."""
    from kensei_ref.rules import model

    if value is None or isinstance(value, str | int | float):
        return value
    if isinstance(value, model.Text):
        return ("T", dict(value.texts))
    if type(value).__name__ in model_classes() and type(value) is model_classes()[type(value).__name__]:
        fields = {name: _plain(getattr(value, name)) for name in sorted(_fields()[type(value).__name__])}
        return ("C", type(value).__name__, fields)
    if isinstance(value, MappingProxyType | dict):
        tag = "M" if isinstance(value, MappingProxyType) else "D"
        return (tag, [(_key(key), _plain(item)) for key, item in value.items()])
    if isinstance(value, tuple | list):
        return ("t" if isinstance(value, tuple) else "l", [_plain(item) for item in value])
    raise TypeError(f"cannot store {type(value).__name__}")


def _key(key: Any) -> Any:
    if isinstance(key, str | int | float | bool) or key is None:
        return key
    raise TypeError(f"cannot store a key of type {type(key).__name__}")


_SCALARS = frozenset({str, int, float, bool, type(None)})


def _rebuilt(node: Any) -> Any:
    """The value :func:`_plain` stored; raises ValueError on anything it did not write.

    A model object is rebuilt without its constructor (its fields are set as stored, all of them and
    only them): a rule book has thousands of objects, and a command has a few milliseconds."""
    if type(node) in _SCALARS:
        return node
    if type(node) is not tuple or len(node) < 2:
        raise ValueError("not a stored value")
    tag, body = node[0], node[1]
    if tag == "T" and type(body) is dict:
        return _text_class()(body)
    if tag == "C" and len(node) == 3 and body in model_classes() and type(node[2]) is dict:
        if node[2].keys() != _fields()[body]:
            raise ValueError(f"a stored {body} with other fields")
        rebuilt: Any = object.__new__(model_classes()[body])
        rebuilt.__dict__.update({name: _rebuilt(item) for name, item in node[2].items()})
        return rebuilt
    if tag in ("M", "D") and type(body) is list:
        mapping = {_key(key): _rebuilt(item) for key, item in body}
        return MappingProxyType(mapping) if tag == "M" else mapping
    if tag in ("t", "l") and type(body) is list:
        items = [_rebuilt(item) for item in body]
        return tuple(items) if tag == "t" else items
    raise ValueError("not a stored value")


@cache
def _text_class() -> type[model.Text]:
    from kensei_ref.rules import model

    return model.Text


def _safely_rebuilt(stored: Any) -> Any:
    try:
        return _rebuilt(stored)
    except Exception:  # anything that is not what _plain stored
        return None


# -- a search index as plain data ----------------------------------------------------------------


LAZY_BOOK = ("_book", "_read_book")
"""The index's attributes that hold its rule book, or the function that reads it: not stored (the book is
stored once, in ``book.marshal``), and bound again when the index is read back."""


def _index_state(index: SearchIndex) -> dict[str, Any]:
    """The index's attributes but its rule book. Anything that is not plain data makes
    :func:`marshal.dumps` refuse it."""
    return {name: value for name, value in vars(index).items() if name not in LAZY_BOOK}


def _index_from(stored: Any, book: Callable[[], model.RuleBook], cls: type[SearchIndex]) -> SearchIndex | None:
    """The index whose state :func:`_index_state` stored, reading its rule book from ``book()`` when it
    first needs it; None when it is not such a state (an attribute of the class, as ``search``, is never
    one: a stored value would stand in for the method)."""
    if not isinstance(stored, dict) or "lang" not in stored:
        return None
    if any(not isinstance(name, str) or name in LAZY_BOOK or hasattr(cls, name) for name in stored):
        return None
    index = cls.__new__(cls)
    index.__dict__.update(stored)
    index.__dict__.update(_book=None, _read_book=book)
    return index


# -- texts with their references written out -------------------------------------------------------


def _plain_texts(book: model.RuleBook, lang: str) -> dict[tuple[str, str], str]:
    """Every text a rule or a term shows in ``lang``, its references written out, by its rule's id (empty
    for a term's definition) and its Markdown."""
    from kensei_ref.rules.search import plain_text

    texts: dict[tuple[str, str], str] = {}
    for rule in book.rules:
        for text in (rule.body, *(example.text for example in rule.examples), *(note.text for note in rule.notes)):
            texts[(rule.id, text[lang])] = plain_text(book, text, lang, rule)
    for term in book.terms:
        texts[("", term.definition[lang])] = plain_text(book, term.definition, lang)
    return texts


def _is_plain_map(stored: Any) -> bool:
    return isinstance(stored, dict) and all(
        isinstance(key, tuple)
        and len(key) == 2
        and all(isinstance(part, str) for part in key)
        and isinstance(text, str)
        for key, text in stored.items()
    )

"""The ``kensei-ref`` command: rule data maintenance and the calculators in the terminal.

Errors are one line on stderr and exit status 2, never a traceback: players type these
commands at the table.

A command answers at once: the parser is built for the command asked only (the calculators are
imported for ``calc`` and ``advise``, the rule data's loader for ``data``), and the rule book and its
search indexes come compiled from the user's cache (:mod:`kensei_ref.cli.compiled`). Everything,
``--help`` and argparse's own messages included, speaks the language of ``--lang`` or else of the
user's locale (:mod:`kensei_ref.cli.speech`).
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import textwrap
from collections.abc import Callable, Sequence
from importlib import import_module

from kensei_ref.cli import output
from kensei_ref.cli.one_line import one_line, terminal_columns
from kensei_ref.cli.speech import ID, argparse_speaking, command_language, locale_language
from kensei_ref.language_context import language_context
from kensei_ref.languages import BY_CODE, LANGUAGES, N_, CatalogMissing

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a few ms a command)
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

DATA_DIR: Path | None = None
"""The rule data that ``data`` checks and maintains; None for the package's own (:func:`_data_dir`)."""

Gettext = Callable[[str], str]

COMMANDS: dict[str, tuple[str, str]] = {
    "data": (N_("check and maintain the rule data"), "kensei_ref.cli.main:add_data_arguments"),
    "calc": (N_("exact dice probabilities"), "kensei_ref.cli.calc:add_calc_arguments"),
    "rule": (N_("show a rule"), "kensei_ref.cli.lookup:add_rule_arguments"),
    "search": (N_("search the rules"), "kensei_ref.cli.lookup:add_search_arguments"),
    "glossary": (N_("look up a glossary term"), "kensei_ref.cli.lookup:add_glossary_arguments"),
    "advise": (
        N_("the orders advisor: every order your unit may take, with its odds"),
        "kensei_ref.cli.advise:add_advise_arguments",
    ),
    "plan": (
        N_("the Command phase plan: commandment points and every unit's orders, with their odds"),
        "kensei_ref.cli.plan:add_plan_arguments",
    ),
}
"""Each command: its help line, and the function (``module:name``) that adds its arguments, imported only
when the command is the one asked; it is given the parser, the catalog's ``gettext`` and the words after
the command."""


class _Formatter(argparse.HelpFormatter):
    """Help whose section headings end as the language ends a heading before a colon (French spaces it), and
    whose option help keeps its lines: a calculator's option shows its label on one line and its help below,
    as the site's forms show them (:func:`kensei_ref.cli.calc.label_and_help`), each line wrapped on its own."""

    before_colon = ""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None):
        # argparse reads the width through shutil, which imports the compression modules: not for a lookup
        width = terminal_columns() - 2 if width is None else width
        super().__init__(prog, indent_increment, max_help_position, width)

    def start_section(self, heading: str | None) -> None:
        super().start_section(f"{heading}{self.before_colon}" if heading else heading)

    def _split_lines(self, text: str, width: int) -> list[str]:
        # as argparse wraps a help (its spaces made one), each line on its own, and never at a hyphen: a
        # value the user types (counter-charge, best-standing) stays whole
        parts = (self._whitespace_matcher.sub(" ", part).strip() for part in text.split("\n"))  # ASCII: no-break stays
        return [line for part in parts for line in textwrap.wrap(part, width, break_on_hyphens=False)]


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit status 2, in the command's language."""

    gettext: Gettext = str
    formatter: type[argparse.HelpFormatter] = argparse.HelpFormatter

    def __init__(self, *args: Any, **options: Any) -> None:
        options.setdefault("formatter_class", self.formatter)
        super().__init__(*args, **options)

    def error(self, message: str) -> None:  # type: ignore[override]
        line = self.gettext("{prog}: error: {message}").format(prog=self.prog, message=message)
        sys.stderr.write(one_line(line) + "\n")
        raise SystemExit(2)


def _data_dir() -> Path:
    """:data:`DATA_DIR`, else the package's rule data as the loader knows it: a command other than ``data``
    imports neither the loader nor pathlib (about 3 ms of every command)."""
    from kensei_ref.rules.loader import DATA_DIR as PACKAGE_DATA

    return PACKAGE_DATA if DATA_DIR is None else DATA_DIR


def _data_check(_: argparse.Namespace) -> int:
    from kensei_ref.rules import freshness
    from kensei_ref.rules.loader import load

    book = load(_data_dir())
    stale = freshness.stale(book)
    print(f"{len(book.chapters)} chapters, {len(book.rules)} rules, {len(book.terms)} glossary terms: valid.")
    for line in stale:
        print(f"translation may be out of date: {line}")
    return 0


def _data_stamp(args: argparse.Namespace) -> int:
    from kensei_ref.rules import freshness
    from kensei_ref.rules.loader import load
    from kensei_ref.rules.model import Chapter, Rule, Term

    book = load(_data_dir(), require_stamps=False)
    items: list[Chapter | Rule | Term] = [*book.chapters, *book.rules, *book.terms]
    stamps = {item.id: freshness.stamp_of(item) for item in items}
    only = set(stamps) if args.all else set(args.update)
    unknown = only - set(stamps)
    if unknown:
        named = ", ".join(repr(item_id) for item_id in sorted(unknown))  # quoted: a newline typed shows as \n
        sys.stderr.write(one_line(f"kensei-ref data stamp: --update: unknown id(s) {named}") + "\n")
        return 2
    try:
        written = freshness.write_stamps(_data_dir(), stamps, only)
    except OSError as error:
        return _cannot_write("stamp", error)
    print(f"stamped {len(written)} item(s)" + (f": {', '.join(written)}" if written else ""))
    return 0


def _data_values(args: argparse.Namespace) -> int:
    from kensei_ref.rules.atomic import replace_file
    from kensei_ref.rules.loader import load
    from kensei_ref.rules.values_export import RULE_VALUES_PATH, rule_values_json

    text = rule_values_json(load(_data_dir()))
    if args.check:
        current = RULE_VALUES_PATH.read_text(encoding="utf-8") if RULE_VALUES_PATH.exists() else ""
        if current != text:
            sys.stderr.write(f"{RULE_VALUES_PATH} is out of date: run `kensei-ref data values`\n")
            return 1
        return 0
    try:
        replace_file(RULE_VALUES_PATH, text)
    except OSError as error:
        return _cannot_write("values", error)
    print(f"wrote {RULE_VALUES_PATH}")
    return 0


def _cannot_write(command: str, error: OSError) -> int:
    """A data file left as it was (kensei_ref.rules.atomic): one line and exit status 1."""
    where = f"{error.filename}: " if error.filename else ""
    sys.stderr.write(one_line(f"kensei-ref data {command}: nothing written: {where}{error.strerror or error}") + "\n")
    return 1


def _data_export(args: argparse.Namespace) -> int:
    import json

    from kensei_ref.rules.export import rules_document
    from kensei_ref.rules.loader import load

    json.dump(rules_document(load(_data_dir())), sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")
    return 0


def add_data_arguments(data: argparse.ArgumentParser, _: Gettext, rest: Sequence[str] = ()) -> None:
    """The ``data`` command's own commands: check, stamp, values, export, po."""
    from kensei_ref.cli.po import add_po_arguments

    data_commands = data.add_subparsers(
        dest="data_command", required=True, metavar="{check,stamp,values,export,po}", parser_class=type(data)
    )
    data_commands.add_parser("check", help=_("validate all rule data")).set_defaults(func=_data_check)
    stamp = data_commands.add_parser("stamp", help=_("record which English text each translation was made from"))
    stamp.add_argument(
        "--update",
        nargs="*",
        default=[],
        metavar=_(ID),
        help=_("re-stamp these items after checking their translations"),
    )
    stamp.add_argument("--all", action="store_true", help=_("re-stamp every item"))
    stamp.set_defaults(func=_data_stamp)
    values = data_commands.add_parser("values", help=_("write calculators/rule_values.json from the rule data"))
    values.add_argument("--check", action="store_true", help=_("only check that the file is current"))
    values.set_defaults(func=_data_values)
    data_commands.add_parser("export", help=_("print all rule data as JSON")).set_defaults(func=_data_export)
    add_po_arguments(data_commands, _, _data_dir())


def command_asked(argv: Sequence[str]) -> tuple[str | None, list[str]]:
    """The command a command line names (its first word that is neither an option nor ``--lang``'s value),
    and the words after it."""
    for i, word in enumerate(argv):
        if word == "--":
            return (argv[i + 1], list(argv[i + 2 :])) if i + 1 < len(argv) else (None, [])
        if not word.startswith("-") and (i == 0 or argv[i - 1] != "--lang"):
            return word, list(argv[i + 1 :])
    return None, []


def build_parser(lang: str = "en", argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The parser of ``kensei-ref`` in ``lang`` for the command line ``argv``: only the command it names is
    declared, with its arguments, so that a command imports nothing another one needs (without a known
    command, every command is declared, for the help and the refusal to list)."""
    _ = language_context(lang).gettext
    spaced = BY_CODE[lang].spaced_punctuation
    formatter = type("_Formatter", (_Formatter,), {"before_colon": "\u00a0" if spaced else ""})
    parser_class = type("_Parser", (_Parser,), {"gettext": staticmethod(_), "formatter": formatter})
    parser = parser_class(prog="kensei-ref", description=_("Kensei and Ronin rules reference."))
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        metavar="|".join(LANGUAGES),
        help=_("language of the help, the messages and the output"),
    )
    names = "{" + ",".join(COMMANDS) + "}"  # what a refusal names: the commands, not the word "command"
    commands = parser.add_subparsers(dest="command", required=True, metavar=names, parser_class=parser_class)
    command, rest = command_asked(argv)
    for name, (help_text, adder) in COMMANDS.items():
        if command in COMMANDS and name != command:
            continue  # the command asked is all the parser needs; an unknown one lists them all
        sub = commands.add_parser(name, help=_(help_text), description=_(help_text))
        if command == name:
            module, function = adder.split(":")
            getattr(import_module(module), function)(sub, _, rest)
    return parser


OUTPUT_LOST = N_("kensei-ref: cannot write the output: {reason}")
"""A full disk, a failed or closed output: one line on stderr, exit status 1 (kensei_ref.cli.output)."""


COLLECTION_THRESHOLD = 50_000
"""New container objects between two passes of the cycle collector while a command runs (700 by
default). A command makes its modules' classes and functions, then its figures, and ends: a pass every
700 objects finds no cycle to free among them, and such passes cost ``kensei-ref advise`` about 4 M
instructions (0.7 ms). The process's own threshold is put back after the command (tests run
commands in-process)."""


def main(argv: Sequence[str] | None = None) -> int:
    threshold = gc.get_threshold()
    gc.set_threshold(COLLECTION_THRESHOLD, *threshold[1:])
    try:
        return _main(list(sys.argv[1:] if argv is None else argv))
    finally:
        gc.set_threshold(*threshold)


def run() -> int:
    """The ``kensei-ref`` script and ``python -m kensei_ref``: :func:`main` on the process's command line,
    after which the process only exits. Its objects are then moved out of the cycle collector's reach
    (:func:`gc.freeze`): the collections of the interpreter's exit would traverse every module's objects
    to free memory the exit gives back anyway, about 27 M instructions (4 ms) of ``kensei-ref advise``.
    A caller that goes on running calls :func:`main`."""
    status = main()
    gc.freeze()
    return status


def _main(argv: list[str]) -> int:
    lang = command_language(argv)
    original = sys.stdout
    try:
        original = output.watched()
        return _run(argv, lang)
    except output.OutputLost as lost:
        output.discard(original)
        if sys.stderr is not None:
            message = language_context(lang).gettext(OUTPUT_LOST).format(reason=one_line(lost.reason))
            sys.stderr.write(message + "\n")
        return 1
    finally:
        output.restored(original)


def _run(argv: list[str], lang: str) -> int:
    try:
        with argparse_speaking(language_context(lang).translations):
            parser = build_parser(lang, argv)
            args = parser.parse_args(argv)
        if getattr(args, "lang", None) is None:
            args.lang = locale_language()
    except CatalogMissing as error:
        sys.stderr.write(f"kensei-ref: {error}\n")
        return 2
    try:
        status = int(args.func(args))
        sys.stdout.flush()  # the last of the output, buffered: a full disk is found here
        return status
    except BrokenPipeError:
        # The reader went away (`kensei-ref search ... | head`): not an error of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as error:
        loader = sys.modules.get("kensei_ref.rules.loader")
        if loader is not None and isinstance(error, loader.DataError):
            sys.stderr.write(f"{error}\n")
            return 1
        raise


if __name__ == "__main__":
    sys.exit(main())

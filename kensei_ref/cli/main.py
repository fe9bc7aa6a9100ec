"""The ``kensei-ref`` command: rule data maintenance and the calculators in the terminal.

Errors are one line on stderr and exit status 2, never a traceback: players type these
commands at the table.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from kensei_ref.cli.advise import add_advise_parser, run_advise
from kensei_ref.cli.lookup import add_lookup_parsers
from kensei_ref.cli.one_line import one_line
from kensei_ref.rules import freshness
from kensei_ref.rules.loader import DATA_DIR, DataError, load
from kensei_ref.rules.model import Chapter, Rule, Term
from kensei_ref.rules.values_export import RULE_VALUES_PATH, rule_values_json


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"{self.prog}: error: {one_line(message)}\n")
        raise SystemExit(2)


def _data_check(_: argparse.Namespace) -> int:
    book = load(DATA_DIR)
    stale = freshness.stale(book)
    print(f"{len(book.chapters)} chapters, {len(book.rules)} rules, {len(book.terms)} glossary terms: valid.")
    for line in stale:
        print(f"translation may be out of date: {line}")
    return 0


def _data_stamp(args: argparse.Namespace) -> int:
    book = load(DATA_DIR, require_stamps=False)
    items: list[Chapter | Rule | Term] = [*book.chapters, *book.rules, *book.terms]
    stamps = {item.id: freshness.stamp_of(item) for item in items}
    only = set(stamps) if args.all else set(args.update)
    unknown = only - set(stamps)
    if unknown:
        sys.stderr.write(f"kensei-ref data stamp: --update: unknown id(s) {', '.join(sorted(unknown))}\n")
        return 2
    written = freshness.write_stamps(DATA_DIR, stamps, only)
    print(f"stamped {len(written)} item(s)" + (f": {', '.join(written)}" if written else ""))
    return 0


def _data_values(args: argparse.Namespace) -> int:
    text = rule_values_json(load(DATA_DIR))
    if args.check:
        current = RULE_VALUES_PATH.read_text(encoding="utf-8") if RULE_VALUES_PATH.exists() else ""
        if current != text:
            sys.stderr.write(f"{RULE_VALUES_PATH} is out of date: run `kensei-ref data values`\n")
            return 1
        return 0
    RULE_VALUES_PATH.write_text(text, encoding="utf-8")
    print(f"wrote {RULE_VALUES_PATH}")
    return 0


def _data_export(args: argparse.Namespace) -> int:
    from kensei_ref.rules.export import rules_document

    json.dump(rules_document(load(DATA_DIR)), sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="kensei-ref", description="Kensei and Ronin rules reference.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    data = commands.add_parser("data", help="check and maintain the rule data")
    data_commands = data.add_subparsers(dest="data_command", required=True, parser_class=_Parser)
    data_commands.add_parser("check", help="validate all rule data").set_defaults(func=_data_check)
    stamp = data_commands.add_parser("stamp", help="record which English text each translation was made from")
    stamp.add_argument(
        "--update", nargs="*", default=[], metavar="ID", help="re-stamp these items after checking their translations"
    )
    stamp.add_argument("--all", action="store_true", help="re-stamp every item")
    stamp.set_defaults(func=_data_stamp)
    values = data_commands.add_parser("values", help="write calculators/rule_values.json from the rule data")
    values.add_argument("--check", action="store_true", help="only check that the file is current")
    values.set_defaults(func=_data_values)
    data_commands.add_parser("export", help="print all rule data as JSON").set_defaults(func=_data_export)

    try:
        from kensei_ref.cli.calc import add_calc_parser
    except ImportError:
        pass
    else:
        add_calc_parser(commands)
    add_lookup_parsers(commands)
    add_advise_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "calc":
            from kensei_ref.cli.calc import run_calc

            return run_calc(args)
        if args.command == "advise":
            return run_advise(args)
        return args.func(args)
    except DataError as error:
        sys.stderr.write(f"{error}\n")
        return 1
    except BrokenPipeError:
        # The reader went away (`kensei-ref search ... | head`): not an error of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())

"""``kensei-ref data po export|import``: the rule texts as PO files, for the tools translators work in.

``export --lang L`` writes one PO file per rule-data file (into ``po/L/`` unless ``--out`` says where);
``import FOLDER`` writes their translations back into the YAML, or refuses, one line per problem with its
PO file and line, and writes nothing. The language is any of :mod:`kensei_ref.languages`' records but the
source language, English; a language declared there with no texts yet exports every message empty.

The messages speak the command's language: ``--lang`` where the reference speaks it (the parser reads it
so), else the user's locale.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from kensei_ref import languages
from kensei_ref.cli.one_line import escaped, one_line
from kensei_ref.cli.speech import FOLDER, LANGUAGE
from kensei_ref.language_context import LanguageContext, language_context
from kensei_ref.languages import N_

Gettext = Callable[[str], str]

DEFAULT_FOLDER = Path("po")
"""Where ``export`` writes, one folder per language (``po/fr/``), unless ``--out`` names another."""


def add_po_arguments(data_commands: argparse._SubParsersAction, _: Gettext, data_dir: Path) -> None:
    """The ``po`` command of ``data``, with its two commands."""
    po = data_commands.add_parser(
        "po", help=_("the rule texts as PO files, for translation tools"), description=_(DESCRIPTION)
    )
    commands = po.add_subparsers(dest="po_command", required=True, metavar="{export,import}", parser_class=type(po))
    export = commands.add_parser("export", help=_("write one PO file per rule data file, in one language"))
    translated = ", ".join(_translated_codes())
    export.add_argument(
        "--lang",
        dest="target",
        required=True,
        metavar=_(LANGUAGE),
        type=_language_type(_),
        help=_("the language translated into: {languages}").format(languages=translated),
    )
    export.add_argument(
        "--out",
        type=Path,
        metavar=_(FOLDER),
        help=_("the folder to write into (default: po/{language})").format(language=_(LANGUAGE)),
    )
    export.set_defaults(func=lambda args: run_export(args, data_dir))
    imported = commands.add_parser("import", help=_("write the translations of PO files back into the rule data"))
    imported.add_argument("folder", type=Path, metavar=_(FOLDER), help=_("the folder of PO files (as export wrote it)"))
    imported.set_defaults(func=lambda args: run_import(args, data_dir))


DESCRIPTION = N_(
    "The rule texts as gettext PO files, for Poedit, Weblate and other translation tools: "
    "export writes one file per rule data file in one language, import writes the translations back."
)


def _translated_codes() -> list[str]:
    return [code for code in languages.BY_CODE if code != languages.SOURCE_LANGUAGE]


def _language_type(_: Gettext) -> Callable[[str], languages.Language]:
    """``--lang``'s value: a language record of the reference other than English, or a refusal that says
    which languages there are and where a new one is declared."""

    def language(code: str) -> languages.Language:
        found = languages.BY_CODE.get(code)
        listed = ", ".join(_translated_codes())
        if code == languages.SOURCE_LANGUAGE:
            message = _("the texts are written in {code}: translate them into one of {languages}")
        elif found is None:
            message = _(
                "the reference has no language {code} ({languages}); "
                "a new language is first declared in kensei_ref/languages.py"
            )
        else:
            return found
        raise argparse.ArgumentTypeError(message.format(code=repr(escaped(code)), languages=listed))

    return language


def _speaking(args: argparse.Namespace) -> LanguageContext:
    """The command's language: ``--lang``'s when the reference speaks it, as the parser chose, else the
    global option's or the locale's."""
    target = getattr(args, "target", None)
    code = target.code if target is not None and target.code in languages.LANGUAGES else args.lang
    return language_context(code)


def run_export(args: argparse.Namespace, data_dir: Path) -> int:
    from kensei_ref.rules.po.export import export
    from kensei_ref.rules.po.texts import DataShapeError

    speak = _speaking(args)
    _ = speak.gettext
    folder = args.out if args.out is not None else DEFAULT_FOLDER / args.target.code
    try:
        written = export(data_dir, args.target, folder)
    except DataShapeError as error:
        return _refused("export", _(DATA_SHAPE).format(where=f"{error.file}:{error.line}", what=error.what), speak)
    except OSError as error:
        return _refused("export", _cannot(error, speak, "export"), speak)
    count = len(written)
    files = speak.ngettext("wrote {count} PO file in {folder}", "wrote {count} PO files in {folder}", count)
    print(files.format(count=count, folder=folder))
    figures = _("messages: {messages}; fuzzy, to check: {fuzzy}; untranslated: {untranslated}")
    totals = {name: sum(getattr(file, name) for file in written) for name in ("messages", "fuzzy", "untranslated")}
    print(figures.format(**totals))
    return 0


def run_import(args: argparse.Namespace, data_dir: Path) -> int:
    from kensei_ref.rules.po.imports import ImportRefused, import_po
    from kensei_ref.rules.po.texts import DataShapeError

    speak = _speaking(args)
    _ = speak.gettext
    try:
        imported = import_po(args.folder, data_dir)
    except ImportRefused as refused:
        for problem in refused.problems:
            sys.stderr.write(one_line(problem.said(_)) + "\n")
        count = len(refused.problems)
        summary = speak.ngettext("nothing written: {count} problem", "nothing written: {count} problems", count)
        sys.stderr.write(summary.format(count=count) + "\n")
        return 1
    except DataShapeError as error:
        return _refused("import", _(DATA_SHAPE).format(where=f"{error.file}:{error.line}", what=error.what), speak)
    except OSError as error:
        return _refused("import", _cannot(error, speak, "import"), speak)
    if not imported.files:
        print(_("nothing to change: the rule data already holds these translations"))
        return 0
    for path in imported.files:
        print(path)
    figures = _("texts written: {texts}; stamps renewed: {stamps}")
    print(figures.format(texts=imported.texts, stamps=imported.stamps))
    return 0


DATA_SHAPE = N_("{where}: not rule data as expected ({what}): run kensei-ref data check")


def _cannot(error: OSError, speak: LanguageContext, command: str) -> str:
    """A file that could not be read or written; an import then changed nothing (its files are replaced
    together), an export may have written some of its files."""
    where = f"{error.filename}: " if error.filename else ""
    reason = f"{where}{error.strerror or error}"
    return speak.gettext("nothing written: {reason}").format(reason=reason) if command == "import" else reason


def _refused(command: str, message: str, speak: LanguageContext) -> int:
    line = speak.gettext("kensei-ref data po {command}: {message}").format(command=command, message=message)
    sys.stderr.write(one_line(line) + "\n")
    return 1

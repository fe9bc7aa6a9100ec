"""The language a command speaks: ``--lang`` where the command line says it, else the user's locale.

The language must be known before the argument parser is built, since the parser's help texts and its
own messages (``usage:``, ``the following arguments are required``) are written in it: the command line
is read ahead for ``--lang X`` or ``--lang=X``; without it, the environment's locale decides, read as
gettext reads it (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``: the first that is set; a locale
such as ``fr_FR.UTF-8`` is French). A language the reference does not have is English.

argparse writes its own messages through :func:`gettext.gettext`; :func:`argparse_speaking` has it
write them through the project's catalog instead, which translates them (:data:`ARGPARSE_MESSAGES`).
"""

from __future__ import annotations

import argparse
import gettext
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager

from kensei_ref.languages import LANGUAGES, N_, SOURCE_LANGUAGE, Nn_

LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""The environment variables that name the user's language, in the order gettext reads them."""

ARGPARSE_MESSAGES = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    Nn_("expected %s argument", "expected %s arguments"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("one of the arguments %s is required"),
    N_("unexpected option string: %s"),
)
"""What argparse says, as it asks gettext for it: marked here so that the catalogs translate it."""


def language_asked(argv: Sequence[str]) -> str | None:
    """The value of the last ``--lang`` on the command line (before a ``--``), whatever it is."""
    asked = None
    for i, word in enumerate(argv):
        if word == "--":
            break
        if word == "--lang" and i + 1 < len(argv):
            asked = argv[i + 1]
        elif word.startswith("--lang="):
            asked = word.split("=", 1)[1]
    return asked


def locale_language(environ: Mapping[str, str] | None = None) -> str:
    """The user's language from the locale: the first of :data:`LOCALE_VARIABLES` that is set decides
    (``LANGUAGE`` may list several, ``fr:en``); English when it names no language of the reference.

    >>> locale_language({"LANG": "ru_RU.UTF-8"}), locale_language({"LANG": "C.UTF-8"})
    ('ru', 'en')
    >>> locale_language({"LANGUAGE": "de:fr", "LANG": "ru_RU.UTF-8"})
    'fr'
    """
    environ = os.environ if environ is None else environ
    for variable in LOCALE_VARIABLES:
        value = environ.get(variable, "")
        if value:
            for name in value.split(":"):
                code = name.split(".", 1)[0].split("@", 1)[0].split("_", 1)[0].casefold()
                if code in LANGUAGES:
                    return code
            return SOURCE_LANGUAGE
    return SOURCE_LANGUAGE


def command_language(argv: Sequence[str], environ: Mapping[str, str] | None = None) -> str:
    """The language of a command's help and messages: ``--lang`` when it names a language of the
    reference, else the locale's (a wrong ``--lang`` is then refused in the locale's language)."""
    asked = language_asked(argv)
    return asked if asked in LANGUAGES else locale_language(environ)


@contextmanager
def argparse_speaking(translations: gettext.NullTranslations) -> Iterator[None]:
    """argparse's own words (usage, errors, the help option) from ``translations`` while it runs."""
    saved = {name: getattr(argparse, name) for name in ("_", "ngettext")}
    setattr(argparse, "_", translations.gettext)  # noqa: B010 (argparse's own names, not attributes mypy knows)
    setattr(argparse, "ngettext", translations.ngettext)  # noqa: B010
    try:
        yield
    finally:
        for name, function in saved.items():
            setattr(argparse, name, function)


# What stands for a value in the help (argparse's metavar), in capitals as the usage line writes it, in the
# language of the help: the user types a file's name, not "FILE". What the user types as it stands (N, the
# values of a choice, the languages' codes, the commands' names) is not a word and stays as it is.
FILE = N_("FILE")
FOLDER = N_("FOLDER")
NAME = N_("NAME")
WORD = N_("WORD")
ID = N_("ID")
NUMBER = N_("NUMBER")
ACTION = N_("ACTION")
LANGUAGE = N_("LANG")
CALCULATOR = N_("CALCULATOR")
VALUE = N_("VALUE")
"""An option's choices where they are too long for the usage line (:func:`written_choices`)."""
VALUES = N_("Values: {choices}")

HELP_COLUMNS = 80
"""The width the help is written for: every line of kensei-ref, its help too, fits 80 columns."""


def written_choices(
    command: argparse.ArgumentParser, option: str, choices: Sequence[str], _: Callable[[str], str]
) -> tuple[str, str]:
    """How ``option`` writes its choices in ``command``'s help: as they stand (``a|b|c``), or as a word
    (VALUE, in the help's language) and the choices listed in the option's help, where the usage line
    would pass :data:`HELP_COLUMNS` with them (argparse breaks no line inside an option, and indents the
    usage's lines by its prefix and the command's name): the metavar, and the help's added line (or "").

    >>> parser = argparse.ArgumentParser(prog="kensei-ref advise")
    >>> written_choices(parser, "--range", ["short", "long"], str)
    ('short|long', '')
    >>> written_choices(parser, "--objective", ["expected_wounds", "at_least_one", "at_least_goal", "victory"], str)
    ('VALUE', 'Values: expected_wounds, at_least_one, at_least_goal, victory')
    """
    joined = "|".join(choices)
    width = HELP_COLUMNS - 2  # argparse's own margin
    prefix = len(_("usage: "))
    indent = prefix + len(command.prog) + 1 if prefix + len(command.prog) <= 0.75 * width else prefix
    if indent + len(f"[{option} {joined}]") <= width and len(f"  {option} {joined}") <= width:
        return joined, ""
    return _(VALUE), _(VALUES).format(choices=", ".join(choices))

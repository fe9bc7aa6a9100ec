"""``--units FILE --mine NAME --enemy NAME``: a player's units file in the terminal.

The file is the one the site's "My units" page exports (``calculators.profiles``). Reading it is
bounded (a file longer than any units file is not read to its end) and every problem is one
:class:`CalculatorInputError` on ``units``, ``mine`` or ``enemy``, which the commands print as one
line: the file's name, the field at fault inside it and what that field allows.
"""

from __future__ import annotations

import argparse
import errno
import os
import stat
from collections.abc import Callable
from typing import Any

from calculators import CalculatorInputError, RuleValues
from kensei_ref.cli.speech import FILE, NAME
from kensei_ref.language_context import language_context
from kensei_ref.languages import LANGUAGES, N_

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from calculators.profiles import Profile


def add_units_options(
    command: argparse.ArgumentParser, _: Callable[[str], str] = str, *, required: bool = False
) -> None:
    """The three options that pick your unit and the enemy unit from a units file, their help in the
    language of ``_``."""
    command.add_argument(
        "--units", dest="units_file", metavar=_(FILE), required=required, help=_(N_("your units file (JSON)"))
    )
    command.add_argument(
        "--mine", dest="units_mine", metavar=_(NAME), required=required, help=_(N_("your unit's name"))
    )
    command.add_argument(
        "--enemy", dest="units_enemy", metavar=_(NAME), required=required, help=_(N_("the enemy's name"))
    )


def read_file(path: str, rules: RuleValues, lang: str = "en") -> tuple[Profile, ...]:
    """The profiles of the units file at ``path``.

    Raises:
        CalculatorInputError: on ``units``, naming the file and what is wrong in it, in ``lang``'s words
            (the refusal from inside the file translated here, where the language is known).
    """
    from calculators.profiles import parse_units  # here: most commands name no units file

    return read_json_file(path, "units", lambda text: parse_units(text, rules), lang)


UNREADABLE = {
    errno.ENOENT: N_("cannot read {file}: there is no such file"),
    errno.EACCES: N_("cannot read {file}: permission denied"),
    errno.EPERM: N_("cannot read {file}: permission denied"),
    errno.EISDIR: N_("cannot read {file}: it is a folder"),
    errno.ENOTDIR: N_("cannot read {file}: a part of the path is not a folder"),
    errno.ENAMETOOLONG: N_("cannot read {file}: the name is too long"),
    errno.ELOOP: N_("cannot read {file}: too many symbolic links"),
}
"""The reasons a file cannot be opened that a player meets, in the catalog's words; any other is
given in the system's own (English) words."""


def read_json_file(path: str, field: str, parse: Callable[[str], Any], lang: str = "en") -> Any:
    """What ``parse`` reads from the text of the file at ``path`` (a units file, a table file).

    Raises:
        CalculatorInputError: on ``field``, naming the file and what is wrong in it, in ``lang``'s words.
    """
    from calculators.profiles import MAX_FILE_CHARACTERS

    name = {"file": repr(path)}
    try:
        # opened without waiting (a named pipe would block the open itself until a writer comes),
        # then refused unless it is a regular file: a pipe or a device could be read for ever
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            os.close(descriptor)  # a folder opens for reading here: said as a folder, as where it does not
            message = UNREADABLE[errno.EISDIR] if stat.S_ISDIR(mode) else N_("cannot read {file}: not a regular file")
            raise CalculatorInputError(field, message, values=name)
        with open(descriptor, encoding="utf-8") as file:
            text = file.read(MAX_FILE_CHARACTERS + 1)
    except UnicodeDecodeError:
        raise CalculatorInputError(field, N_("cannot read {file}: not a UTF-8 text file"), values=name) from None
    except OSError as error:
        if error.errno in UNREADABLE:
            raise CalculatorInputError(field, UNREADABLE[error.errno], values=name) from None
        reason = {**name, "reason": error.strerror or type(error).__name__}  # the system's own words
        raise CalculatorInputError(field, N_("cannot read {file}: {reason}"), values=reason) from None
    try:
        return parse(text)
    except CalculatorInputError as error:
        catalog = language_context(lang if lang in LANGUAGES else "en").translations
        inner = {**name, "field": error.field, "message": error.describe(str, catalog)}
        raise CalculatorInputError(field, N_("{file}: {field}: {message}"), values=inner) from None


def picked(args: argparse.Namespace, rules: RuleValues) -> tuple[Profile | None, Profile | None]:
    """Your unit and the enemy unit named by ``--mine`` and ``--enemy`` (each may be left out).

    Raises:
        CalculatorInputError: when the file cannot be used, a name is not in it, or a name is given
            without a file.
    """
    path: Any = getattr(args, "units_file", None)
    names = {"mine": getattr(args, "units_mine", None), "enemy": getattr(args, "units_enemy", None)}
    if path is None:
        for field, name in names.items():
            if name is not None:
                raise CalculatorInputError(field, N_("needs {0}: the file the unit is in"), ("units",))
        return None, None
    from calculators.profiles import find

    profiles = read_file(path, rules, getattr(args, "lang", "en"))
    mine, enemy = (find(profiles, name, field) if name is not None else None for field, name in names.items())
    return mine, enemy

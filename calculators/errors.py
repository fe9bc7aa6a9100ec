"""The one error type a caller of the calculators has to know."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Plural:
    """A message whose words follow a number, as ``ngettext`` takes it: the English singular and
    plural templates, and ``count``, the name of the value (in the error's ``values``) whose number
    chooses the form. Russian has three forms and French puts 0 with 1: a front end asks its
    catalog (:meth:`CalculatorInputError.template`), and English alone is decided here.

    Written with :func:`calculators.params.Nn_`, which Babel extracts as a plural entry.
    """

    singular: str
    plural: str
    count: str

    def english(self, number: int) -> str:
        """The English template for ``number``: the singular for one, the plural otherwise."""
        return self.singular if number == 1 else self.plural


class Catalog(Protocol):
    """What a front end's translations offer (``gettext.NullTranslations`` and its kin)."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...


class CalculatorInputError(ValueError):
    """An input a calculator cannot accept, with the field it concerns and what is allowed.

    ``str(error)`` reads ``"attack: must be an integer from 0 to 20, got 'x'"``. The message may
    name other fields as ``{0}``, ``{1}``...; ``related`` holds their names so that a front end
    can show them its own way (the terminal shows ``--wounds`` where Python shows ``wounds``).

    Args:
        field: the name of the input at fault, as in the calculator's parameters.
        message: what is wrong and what is allowed, without the field name; a :class:`Plural` when
            its words follow one of ``values``.
        related: names of other inputs the message refers to as ``{0}``, ``{1}``...
        values: numbers the message refers to by name (``{cost}``).
    """

    def __init__(
        self,
        field: str,
        message: str | Plural,
        related: tuple[str, ...] = (),
        values: Mapping[str, object] | None = None,
    ) -> None:
        self.field = field
        self.message = message
        self.related = related
        self.values = dict(values or {})
        super().__init__(f"{field}: {self.describe(lambda name: name)}")

    @property
    def msgid(self) -> str:
        """The message's catalog key: the template itself, or a plural's English singular."""
        return self.message.singular if isinstance(self.message, Plural) else self.message

    def template(self, catalog: Catalog | None = None) -> str:
        """The message's template in ``catalog``'s language (English without one): a plural
        message takes the form its count asks for."""
        message = self.message
        if isinstance(message, Plural):
            number = self.values[message.count]
            assert isinstance(number, int), f"{message.count} counts, so it must be an integer"
            return catalog.ngettext(message.singular, message.plural, number) if catalog else message.english(number)
        return catalog.gettext(message) if catalog else message

    def describe(self, name_of: Callable[[str], str], catalog: Catalog | None = None) -> str:
        """The message alone, with each related field shown by ``name_of(field)``, in ``catalog``'s
        language (English without one).

        A message written with ``N_()`` or ``Nn_()`` is a template (``{0}`` for related fields,
        ``{name}`` for ``values``), so a front end can translate it before filling it in.
        """
        return self.template(catalog).format(*(name_of(other) for other in self.related), **self.values)

    def as_json(self) -> dict[str, object]:
        """The refusal as data, for a front end to word in its own language: ``{"field", "message",
        "related", "values"}``, the message as its catalog key (a plural's English singular), and
        for a plural the value that counts as ``"count"``."""
        shown: dict[str, object] = {
            "field": self.field,
            "message": self.msgid,
            "related": list(self.related),
            "values": self.values,
        }
        if isinstance(self.message, Plural):
            shown["count"] = self.message.count
        return shown


def quoted(value: object) -> str:
    """A value as a message quotes it (``repr``), its braces doubled: a message is a template
    (:meth:`CalculatorInputError.describe` fills it in), and ``{x}`` typed by a user is no slot."""
    return repr(value).replace("{", "{{").replace("}", "}}")


class RuleValueMissing(LookupError):
    """The rule data lacks a number a calculator needs (the JSON and the code are out of step)."""

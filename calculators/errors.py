"""The one error type a caller of the calculators has to know."""

from __future__ import annotations

from collections.abc import Callable


class CalculatorInputError(ValueError):
    """An input a calculator cannot accept, with the field it concerns and what is allowed.

    ``str(error)`` reads ``"attack: must be an integer from 0 to 20, got 'x'"``. The message may
    name other fields as ``{0}``, ``{1}``...; ``related`` holds their names so that a front end
    can show them its own way (the terminal shows ``--wounds`` where Python shows ``wounds``).

    Args:
        field: the name of the input at fault, as in the calculator's parameters.
        message: what is wrong and what is allowed, without the field name.
        related: names of other inputs the message refers to as ``{0}``, ``{1}``...
        values: numbers the message refers to by name (``{cost}``).
    """

    def __init__(
        self, field: str, message: str, related: tuple[str, ...] = (), values: dict[str, object] | None = None
    ) -> None:
        self.field = field
        self.message = message
        self.related = related
        self.values = dict(values or {})
        super().__init__(f"{field}: {self.describe(lambda name: name)}")

    def describe(self, name_of: Callable[[str], str]) -> str:
        """The message alone, with each related field shown by ``name_of(field)``.

        A message written with ``N_()`` is a template (``{0}`` for related fields, ``{name}`` for
        ``values``), so a front end can translate it before filling it in.
        """
        return self.message.format(*(name_of(other) for other in self.related), **self.values)


def quoted(value: object) -> str:
    """A value as a message quotes it (``repr``), its braces doubled: a message is a template
    (:meth:`CalculatorInputError.describe` fills it in), and ``{x}`` typed by a user is no slot."""
    return repr(value).replace("{", "{{").replace("}", "}}")


class RuleValueMissing(LookupError):
    """The rule data lacks a number a calculator needs (the JSON and the code are out of step)."""

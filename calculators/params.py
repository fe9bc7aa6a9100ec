"""Parameter metadata: one declaration per input drives validation, the CLI and the web forms."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final, Literal, TypedDict

from .errors import CalculatorInputError, Plural
from .rulebook import RuleValues


def N_(message: str) -> str:
    """Mark an English string for translation without translating it here (Babel extracts it)."""
    return message


def Np_(context: str, message: str) -> tuple[str, str]:
    """Mark a message whose English is the same in several places but whose words in another language depend
    on the place (a gettext context, ``msgctxt``): the context and the English, as ``pgettext`` takes them
    (Babel extracts them with ``-k Np_:1c,2``)."""
    return context, message


def Nn_(singular: str, plural: str, count: str) -> Plural:
    """Mark a message whose words follow a number: its English singular and plural, and the name of
    the value that counts (Babel extracts the first two as one plural entry, ``-k Nn_:1,2``)."""
    return Plural(singular, plural, count)


Kind = Literal["int", "bool", "choice", "int_list"]


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()
"""Default of an input that must be given."""


class Bounds(TypedDict):
    """The smallest and largest integer an input allows."""

    minimum: int
    maximum: int


CHARACTERISTIC: Final[Bounds] = {"minimum": 0, "maximum": 20}
"""Bounds of a characteristic (Attack, Defense, Armor, Initiative, Honor, Ki, Morale): room for
every profile, and one declaration for every calculator that asks for one."""


INTEGER: Final = re.compile(r"-?[0-9]+")
r"""A whole number as typed, in the terminal, in a link or in the site's form (calculator.js reads
``/^-?\d+$/``): ASCII digits and a leading minus, nothing else (no ``+5``, ``1_0``, ``٣`` or ``３``,
which Python's ``int()`` would take)."""


def integer(text: str) -> int:
    """The whole number ``text`` holds (blanks around it ignored).

    Raises:
        ValueError: when it is anything else (see :data:`INTEGER`).
    """
    stripped = text.strip()
    if not INTEGER.fullmatch(stripped):
        raise ValueError(f"not a whole number: {text!r}")
    return int(stripped)


def is_int(value: object) -> bool:
    """True for a real integer; ``True`` and ``False`` are not numbers of dice."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, eq=False)
class Param:
    """One input of a calculator.

    Args:
        name: the input's key (``snake_case``); the CLI option is ``--`` plus it with dashes.
        kind: ``int``, ``bool``, ``choice`` or ``int_list``.
        label: short English label, wrapped in ``N_()`` for translation.
        help: one English sentence, wrapped in ``N_()``.
        rule_id: the rule the input comes from, for links from forms and the terminal.
        default: the value when omitted; :data:`REQUIRED` when it must be given, ``None`` when
            it is optional and has no value (the calculator then decides).
        minimum: smallest integer (of the value or of each list item).
        maximum: largest integer (idem); bounds keep every calculation under a second.
        maximum_rule: ``(rule_id, key)`` of a rule value that caps the integer further.
        choices: the allowed strings of a ``choice``.
        min_length: fewest items of an ``int_list``.
        max_length: most items of an ``int_list``.
        group: the side (``a`` or ``b``) an input of a two-sided calculator belongs to.
    """

    name: str
    kind: Kind
    label: str
    help: str = ""
    rule_id: str | None = None
    default: Any = REQUIRED
    minimum: int | None = None
    maximum: int | None = None
    maximum_rule: tuple[str, str] | None = None
    choices: tuple[str, ...] = ()
    min_length: int = 0
    max_length: int | None = None
    group: str = ""

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    def bounds(self, rules: RuleValues) -> tuple[int | None, int | None]:
        """The smallest and largest integer allowed, the rules' own cap included."""
        maximum = self.maximum
        if self.maximum_rule is not None:
            stated = rules.value(*self.maximum_rule)
            maximum = stated if maximum is None else min(maximum, stated)
        return self.minimum, maximum

    def allowed(self, rules: RuleValues) -> str:
        """What the input accepts, in words: ``an integer from 0 to 20``."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        integers = _integer_range(*self.bounds(rules))
        if self.kind == "int":
            return "an integer" + integers
        if self.max_length == self.min_length:
            count = f"{self.min_length}"
        else:
            count = f"{self.min_length} to {self.max_length}"
        return f"a list of {count} integers{integers}"

    def validate(self, value: Any, rules: RuleValues) -> Any:
        """The value, normalised (lists become tuples), when it is allowed.

        Raises:
            CalculatorInputError: naming this input, what it allows and what it got.
        """
        if value is None and self.default is None:
            return None
        if self.kind == "bool":
            ok = isinstance(value, bool)
        elif self.kind == "choice":
            ok = isinstance(value, str) and value in self.choices
        elif self.kind == "int":
            ok = is_int(value) and self._in_bounds(value, rules)
        else:
            ok = (
                isinstance(value, list | tuple)
                and self.min_length <= len(value) <= (self.max_length or len(value))
                and all(is_int(item) and self._in_bounds(item, rules) for item in value)
            )
            value = tuple(value) if ok else value
        if not ok:
            raise self.refusal(rules, repr(value))
        return value

    def refusal(self, rules: RuleValues, got: str | None = None, at: str = "") -> CalculatorInputError:
        """What this input allows, as a template a front end translates (:data:`REFUSED`, :data:`REQUIRED_`):
        ``got`` is the value refused as the user gave it (``repr``), or None when the input was left out.

        >>> characteristic("attack", "Attack", "", "").refusal(RuleValues({}), "'x'").describe(str)
        "must be an integer from 0 to 20, got 'x'"
        >>> flag("loaded", "Loaded", "", "").refusal(RuleValues({}), at="units[0].").field
        'units[0].loaded'
        """
        minimum, maximum = self.bounds(rules)
        values: dict[str, object] = {
            "minimum": minimum,
            "maximum": maximum,
            "choices": ", ".join(self.choices),
            "fewest": self.min_length,
            "most": self.max_length,
        }
        shape: str = self.kind
        if self.kind == "int" and (minimum is not None or maximum is not None):
            shape = "int " + (
                "from" if minimum is not None and maximum is not None else "min" if maximum is None else "max"
            )
        elif self.kind == "int_list" and (
            None in (minimum, maximum, self.max_length) or self.min_length == self.max_length
        ):
            shape = "unbounded list"  # a shape no calculator asks for: its words stay English
        if got is None:
            message = REQUIRED_.get(shape, f"is required: {self.allowed(rules)}")
        else:
            values["value"] = got
            message = REFUSED.get(shape, f"must be {self.allowed(rules)}, got {{value}}")
        return CalculatorInputError(f"{at}{self.name}", message, values=values)

    def parse_text(self, text: str, rules: RuleValues) -> Any:
        """The value typed in a terminal or a URL (``"7"``, ``"2,2,2,1"``, ``"true"``), validated.

        Raises:
            CalculatorInputError: as :meth:`validate`, quoting the text as typed.
        """
        try:
            if self.kind == "int":
                value: Any = integer(text)
            elif self.kind == "int_list":
                value = [integer(item) for item in text.split(",")] if text.strip() else []
            elif self.kind == "bool":
                value = {"true": True, "false": False, "1": True, "0": False}[text.strip().lower()]
            else:
                value = text.strip()
            return self.validate(value, rules)
        except (ValueError, KeyError):
            raise self.refusal(rules, repr(text)) from None

    def describe(self, rules: RuleValues) -> dict[str, Any]:
        """JSON-ready metadata for a form: every bound resolved against ``rules``."""
        minimum, maximum = self.bounds(rules) if self.kind in ("int", "int_list") else (None, None)
        return {
            "name": self.name,
            "kind": self.kind,
            "label": self.label,
            "help": self.help,
            "rule_id": self.rule_id,
            "required": self.required,
            "default": None if self.required else _json_default(self.default),
            "minimum": minimum,
            "maximum": maximum,
            "choices": list(self.choices),
            "min_length": self.min_length if self.kind == "int_list" else None,
            "max_length": self.max_length if self.kind == "int_list" else None,
            "group": self.group,
        }

    def _in_bounds(self, number: int, rules: RuleValues) -> bool:
        minimum, maximum = self.bounds(rules)
        return (minimum is None or number >= minimum) and (maximum is None or number <= maximum)


REQUIRED_: dict[str, str | Plural] = {
    "bool": N_("is required: true or false"),
    "choice": N_("is required: one of {choices}"),
    "int": N_("is required: an integer"),
    "int from": N_("is required: an integer from {minimum} to {maximum}"),
    "int min": N_("is required: an integer of at least {minimum}"),
    "int max": N_("is required: an integer of at most {maximum}"),
    "int_list": Nn_(
        "is required: a list of {fewest} to {most} integer from {minimum} to {maximum}",
        "is required: a list of {fewest} to {most} integers from {minimum} to {maximum}",
        "most",
    ),
}
"""What an input left out needs, by the shape of what it allows (:meth:`Param.refusal`)."""

REFUSED: dict[str, str | Plural] = {
    "bool": N_("must be true or false, got {value}"),
    "choice": N_("must be one of {choices}, got {value}"),
    "int": N_("must be an integer, got {value}"),
    "int from": N_("must be an integer from {minimum} to {maximum}, got {value}"),
    "int min": N_("must be an integer of at least {minimum}, got {value}"),
    "int max": N_("must be an integer of at most {maximum}, got {value}"),
    "int_list": Nn_(
        "must be a list of {fewest} to {most} integer from {minimum} to {maximum}, got {value}",
        "must be a list of {fewest} to {most} integers from {minimum} to {maximum}, got {value}",
        "most",
    ),
}
"""What an input refuses, by the shape of what it allows (:meth:`Param.refusal`)."""


def flag(name: str, label: str, help: str, rule_id: str) -> Param:
    """A yes-or-no input, off unless given: a modifier that applies or not."""
    return Param(name, "bool", label, help, rule_id, default=False)


def whole_number(
    name: str, label: str, help: str, rule_id: str, minimum: int, maximum: int, *, default: Any = REQUIRED
) -> Param:
    """An integer input from ``minimum`` to ``maximum``: to be given unless it has a ``default``
    (``None``: optional, the calculator then decides)."""
    return Param(name, "int", label, help, rule_id, default=default, minimum=minimum, maximum=maximum)


def count(name: str, label: str, help: str, rule_id: str, maximum: int, *, minimum: int = 0) -> Param:
    """An integer input that counts something (reactions, facings, turns): from ``minimum``, which
    it is unless given, up to ``maximum``."""
    return Param(name, "int", label, help, rule_id, default=minimum, minimum=minimum, maximum=maximum)


def characteristic(name: str, label: str, help: str, rule_id: str, *, default: Any = REQUIRED) -> Param:
    """A characteristic of a profile (Attack, Honor, Ki...), within :data:`CHARACTERISTIC`."""
    return Param(name, "int", label, help, rule_id, default=default, **CHARACTERISTIC)


FIRST: Any = object()
"""Default of :func:`choice`: the first of its choices."""


def choice(
    name: str, label: str, help: str, rule_id: str, choices: tuple[str, ...], *, default: str | None = FIRST
) -> Param:
    """An input that takes one of ``choices``: the first unless given, or ``default`` when another
    (``None``: optional, the calculator then decides)."""
    default = choices[0] if default is FIRST else default
    return Param(name, "choice", label, help, rule_id, default=default, choices=choices)


def _integer_range(minimum: int | None, maximum: int | None) -> str:
    if minimum is not None and maximum is not None:
        return f" from {minimum} to {maximum}"
    if minimum is not None:
        return f" of at least {minimum}"
    if maximum is not None:
        return f" of at most {maximum}"
    return ""


def _json_default(default: Any) -> Any:
    return list(default) if isinstance(default, tuple) else default

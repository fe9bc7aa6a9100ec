"""The parts every result shares: explained steps, summary figures and probability tables.

Results keep probabilities as :class:`fractions.Fraction`; ``to_json`` turns them into floats at
the very end. Steps, figures and tables carry English labels wrapped in ``N_()``: the terminal
and the site translate them with gettext.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from fractions import Fraction
from functools import cached_property
from math import lcm
from typing import Any, ClassVar, Literal, Self, get_type_hints

from .pmf import Pmf

Value = int | Fraction | str
StepKind = Literal["number", "modifier", "probability", "text", "cm"]


def to_number(value: Value) -> Any:
    """A JSON-ready number: integers stay integers, fractions become floats."""
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else float(value)
    return value


def to_floats(values: Sequence[Fraction]) -> list[float]:
    return [float(v) for v in values]


@dataclass(frozen=True)
class Step:
    """One modifier or derived figure, with the rule it comes from.

    Args:
        rule: the rule id (``kensei.firing``).
        key: a short machine key (``long_range``).
        label: English label in ``N_()``.
        value: a number, an exact probability or a word.
        kind: how to show it: ``modifier`` with a sign, ``probability`` as a percentage.
        group: the side (``a`` or ``b``) a step of a two-sided calculator belongs to.
        label_numbers: numbers the label names (``{level}``), filled in once a front end has translated
            the label: ``(("level", 1),)``.
    """

    rule: str
    key: str
    label: str
    value: Value
    kind: StepKind = "number"
    group: str = ""
    label_numbers: tuple[tuple[str, int], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """Every field under its name, the value a JSON number (:func:`to_number`) or word, the label's
        numbers as an object (only for a label that names some)."""
        entries = {declared.name: getattr(self, declared.name) for declared in fields(self)}
        del entries["label_numbers"]
        numbers = {"label_numbers": dict(self.label_numbers)} if self.label_numbers else {}
        return entries | {"value": to_number(self.value)} | numbers


@dataclass(frozen=True)
class Figure:
    """A summary figure of a result (``p_pass``, ``mean``), labelled for display."""

    key: str
    label: str
    value: Value
    kind: StepKind = "number"


@dataclass(frozen=True)
class Table:
    """A distribution shown as rows ``k, P(exactly k), P(at least k)``."""

    key: str
    title: str
    outcome_label: str
    outcomes: tuple[int, ...]
    exactly: tuple[Fraction, ...]
    at_least: tuple[Fraction, ...]


def tail_sums(exactly: Sequence[Fraction]) -> tuple[Fraction, ...]:
    """``P(at least k)`` for each k, from ``P(exactly k)``."""
    tails: list[Fraction] = []
    running = Fraction(0)
    for p in reversed(exactly):
        running += p
        tails.append(running)
    return tuple(reversed(tails))


def over_one_denominator(probabilities: Sequence[Fraction]) -> tuple[list[int], int]:
    """The numerators of ``probabilities`` over their least common denominator, and that denominator.

    A sum of fractions of thousands of bits costs two greatest common divisors per term; brought to
    one denominator first, a sum is of integers and one fraction is made at the end.

    >>> over_one_denominator((Fraction(1, 2), Fraction(1, 3), Fraction(1, 6)))
    ([3, 2, 1], 6)
    """
    denominator = lcm(*(p.denominator for p in probabilities))
    return [p.numerator * (denominator // p.denominator) for p in probabilities], denominator


@dataclass(frozen=True)
class Distribution:
    """A count (Wounds, regrouped units) from 0 up: its exact pmf, mean and cumulative tables.

    It keeps integer weights over one common denominator; the fractions are made only when asked
    for, and ``to_json`` divides integers directly (correctly rounded, as ``float(Fraction)`` is),
    which keeps a recompute in the browser well under a millisecond for dozens of dice.
    """

    weights: tuple[int, ...]
    total: int

    @classmethod
    def of(cls, pmf: Pmf, high: int | None = None) -> Distribution:
        """From a distribution over 0, 1, ... (shown up to ``high``, default its largest outcome)."""
        high = pmf.offset + len(pmf.weights) - 1 if high is None else high
        return cls(
            tuple(
                pmf.weights[k - pmf.offset] if pmf.offset <= k < pmf.offset + len(pmf.weights) else 0
                for k in range(high + 1)
            ),
            pmf.total,
        )

    @classmethod
    def from_fractions(cls, probabilities: Sequence[Fraction]) -> Distribution:
        """From exact probabilities of 0, 1, ... (brought to their common denominator)."""
        total = lcm(*(p.denominator for p in probabilities))
        return cls(tuple(p.numerator * (total // p.denominator) for p in probabilities), total)

    @cached_property
    def pmf(self) -> tuple[Fraction, ...]:
        return tuple(Fraction(w, self.total) for w in self.weights)

    @cached_property
    def mean(self) -> Fraction:
        return Fraction(sum(k * w for k, w in enumerate(self.weights)), self.total)

    @cached_property
    def at_least(self) -> tuple[Fraction, ...]:
        return tuple(Fraction(w, self.total) for w in _running(self.weights, from_top=True))

    def to_json(self) -> dict[str, Any]:
        total = self.total
        return {
            "pmf": [w / total for w in self.weights],
            "mean": sum(k * w for k, w in enumerate(self.weights)) / total,
            "at_least": [w / total for w in _running(self.weights, from_top=True)],
            "at_most": [w / total for w in _running(self.weights, from_top=False)],
        }

    def table(self, key: str, title: str, outcome_label: str) -> Table:
        return Table(key, title, outcome_label, tuple(range(len(self.pmf))), self.pmf, self.at_least)


def _running(weights: Sequence[int], *, from_top: bool) -> list[int]:
    """Running sums of integer weights: from the top (at least k) or from the bottom (at most k)."""
    sums, running = [], 0
    for w in reversed(weights) if from_top else weights:
        running += w
        sums.append(running)
    return sums[::-1] if from_top else sums


@dataclass(frozen=True)
class Shown:
    """How a field of a result is shown, declared once in its annotation (``Annotated[Fraction, figure(...)]``).

    The same declaration gives the field's summary figure, the label of the step that reports it
    (:meth:`Result.step`) and its entry in the JSON contract, all under the field's name.

    Args:
        label: English label in ``N_()`` of the figure and of the step.
        kind: how to show the value (``probability`` as a percentage...).
        figure: whether the value is one of the result's summary figures (not when ``None``).
        json: the value as the JSON contract has it; ``None`` leaves the field out of the JSON.
        display: the figure's value when it is not the field's own (a list shown as text).
    """

    label: str = ""
    kind: StepKind = "number"
    figure: bool = False
    json: Callable[[Any], Any] | None = None
    display: Callable[[Any], Value] | None = None


def json_value(value: Any) -> Any:
    """The JSON contract's form of a result's value: exact fractions become floats, tuples lists."""
    if isinstance(value, Fraction):
        return float(value)
    if isinstance(value, tuple):
        return [json_value(item) for item in value]
    return value


def figure(
    label: str,
    kind: StepKind = "number",
    *,
    json: Callable[[Any], Any] | None = json_value,
    display: Callable[[Any], Value] | None = None,
) -> Shown:
    """A field that is a summary figure of the result and an entry of its JSON."""
    return Shown(label, kind, True, json, display)


def entry(label: str = "", kind: StepKind = "number", *, json: Callable[[Any], Any] = json_value) -> Shown:
    """A field that is an entry of the JSON but not a summary figure (``label``: its step's label)."""
    return Shown(label, kind, False, json)


@dataclass(frozen=True)
class Tabled:
    """A :class:`Distribution` field of a result: its table, the figure of its mean and its JSON entries.

    Args:
        key: the table's key (``pmf``).
        title: the table's English title in ``N_()``.
        outcome_label: the heading of the outcomes' column, in ``N_()``.
        mean: ``(key, label)`` of the summary figure of the mean, when the result shows one.
        json_keys: which of :meth:`Distribution.to_json`'s entries the JSON contract has.
        json_prefix: put before each of them (``roll_`` gives ``roll_pmf``).
    """

    key: str
    title: str
    outcome_label: str
    mean: tuple[str, str] | None = None
    json_keys: tuple[str, ...] = ("pmf", "mean", "at_least", "at_most")
    json_prefix: str = ""

    def json_entries(self, distribution: Distribution) -> dict[str, Any]:
        entries = distribution.to_json()
        return {self.json_prefix + key: entries[key] for key in self.json_keys}


_SHOWN_FIELDS: dict[type[Result], tuple[tuple[str, Shown | Tabled], ...]] = {}


def shown_fields(cls: type[Result]) -> tuple[tuple[str, Shown | Tabled], ...]:
    """The fields of a result class that declare how they are shown, in their order (read once)."""
    if cls not in _SHOWN_FIELDS:
        _SHOWN_FIELDS[cls] = _read_shown_fields(cls)
    return _SHOWN_FIELDS[cls]


def _read_shown_fields(cls: type[Result]) -> tuple[tuple[str, Shown | Tabled], ...]:
    hints = get_type_hints(cls, include_extras=True)
    found: list[tuple[str, Shown | Tabled]] = []
    for declared in fields(cls):
        found += [
            (declared.name, how)
            for how in getattr(hints[declared.name], "__metadata__", ())
            if isinstance(how, Shown | Tabled)
        ]
    return tuple(found)


@dataclass(frozen=True)
class Result:
    """What every result offers: ``to_json``, ``figures``, ``tables`` and ``steps``.

    Subclasses are frozen dataclasses, given their ``steps`` by keyword (the one field every
    result has, declared here); they set :attr:`NAME` (the calculator's name) and declare how
    each field is shown in its annotation, once:
    ``p_pass: Annotated[Fraction, figure(N_("Chance to pass"), "probability")]``. From those
    declarations come the JSON contract's entries (in the fields' order), the summary figures and
    the tables; a result whose JSON has another shape overrides :meth:`payload`.
    """

    NAME: ClassVar[str] = ""
    FIGURE_ORDER: ClassVar[tuple[str, ...]] = ()
    """The figures' keys in the order shown, when it is not the fields' order."""
    steps: tuple[Step, ...] = field(kw_only=True)
    """Each modifier and derived figure, with the rule it comes from."""

    @classmethod
    def step(cls, key: str, rule: str, value: Value) -> Step:
        """The step that reports field ``key``, with the label and kind the field declares."""
        how = dict(shown_fields(cls))[key]
        if not isinstance(how, Shown):
            raise TypeError(f"{cls.__name__}.{key} is a distribution, not a figure")
        return Step(rule, key, how.label, value, how.kind)

    @classmethod
    def reported(cls, rule: str, *before: Step, **values: Value) -> Self:
        """The result whose fields are ``values``, each reported by its step (:meth:`step`) of
        ``rule``, after the steps ``before``."""
        steps = (*before, *(cls.step(key, rule, value) for key, value in values.items()))
        return cls(**values, steps=steps)

    def payload(self) -> dict[str, Any]:
        """The JSON contract's entries besides ``calculator`` and ``steps``."""
        entries: dict[str, Any] = {}
        for name, how in shown_fields(type(self)):
            if isinstance(how, Tabled):
                entries |= how.json_entries(getattr(self, name))
            elif how.json is not None:
                entries[name] = how.json(getattr(self, name))
        return entries

    def to_json(self) -> dict[str, Any]:
        """The JSON contract: ``{"calculator": name, ...payload, "steps": [...]}``, floats only."""
        return {"calculator": self.NAME, **self.payload(), "steps": self.steps_json()}

    def figures(self) -> tuple[Figure, ...]:
        """The summary figures: every field declared a figure (unless ``None``), every mean shown."""
        found: list[Figure] = []
        for name, how in shown_fields(type(self)):
            value = getattr(self, name)
            if isinstance(how, Tabled):
                if how.mean is not None:
                    found.append(Figure(how.mean[0], how.mean[1], value.mean))
            elif how.figure and value is not None:
                found.append(Figure(name, how.label, how.display(value) if how.display else value, how.kind))
        if self.FIGURE_ORDER:
            found.sort(key=lambda shown: self.FIGURE_ORDER.index(shown.key))
        return tuple(found)

    def tables(self) -> tuple[Table, ...]:
        """A table of each distribution field."""
        return tuple(
            getattr(self, name).table(how.key, how.title, how.outcome_label)
            for name, how in shown_fields(type(self))
            if isinstance(how, Tabled)
        )

    def steps_json(self) -> list[dict[str, Any]]:
        return [step.to_json() for step in self.steps]

"""The parts every result shares: explained steps, summary figures and probability tables.

Results keep probabilities as :class:`fractions.Fraction`; ``to_json`` turns them into floats at
the very end. Steps, figures and tables carry English labels wrapped in ``N_()``: the terminal
and the site translate them with gettext.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from math import lcm
from typing import Any, ClassVar, Literal

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
    """

    rule: str
    key: str
    label: str
    value: Value
    kind: StepKind = "number"
    group: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "key": self.key,
            "label": self.label,
            "value": to_number(self.value),
            "kind": self.kind,
            "group": self.group,
        }


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


class Result:
    """What every result offers: ``to_json``, ``figures``, ``tables`` and ``steps``.

    Subclasses are frozen dataclasses with a ``steps`` field; they set :attr:`NAME` and implement
    :meth:`payload` (the contract keys besides ``calculator`` and ``steps``).
    """

    NAME: ClassVar[str] = ""
    steps: tuple[Step, ...]

    def payload(self) -> dict[str, Any]:
        raise NotImplementedError

    def to_json(self) -> dict[str, Any]:
        """The JSON contract: ``{"calculator": name, ...payload, "steps": [...]}``, floats only."""
        return {"calculator": self.NAME, **self.payload(), "steps": self.steps_json()}

    def figures(self) -> tuple[Figure, ...]:
        return ()

    def tables(self) -> tuple[Table, ...]:
        return ()

    def steps_json(self) -> list[dict[str, Any]]:
        return [step.to_json() for step in self.steps]

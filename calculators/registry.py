"""A calculator as the outside sees it: a name, its parameters and ``run(mapping) -> dict``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .inputs import InputsBase
from .params import Param
from .results import Result
from .rulebook import RuleValues


@dataclass(frozen=True, eq=False)
class Calculator:
    """One calculator.

    Its name is its result's :attr:`~calculators.results.Result.NAME`, which the JSON contract
    carries, so that it is stated once.

    Args:
        label: English title in ``N_()``.
        rule_id: the rule it mainly computes.
        game: ``kensei`` or ``ronin``.
        inputs: its input dataclass (from :func:`~calculators.inputs.make_inputs`).
        result: its result class.
        compute: the pure function from inputs to result.
        question: what it answers, in one English sentence in ``N_()`` (the calculators index and
            each page say it, so that a player picks the right one).
    """

    label: str
    rule_id: str
    game: str
    inputs: type[InputsBase]
    result: type[Result]
    compute: Callable[[Any], Result]
    question: str = ""

    @property
    def name(self) -> str:
        """Its name on the command line and in worked examples (``shooting``)."""
        return self.result.NAME

    @property
    def params(self) -> tuple[Param, ...]:
        return self.inputs.PARAMS

    def evaluate(self, mapping: Mapping[str, Any], rules: RuleValues | None = None) -> Result:
        """The result object for JSON-like inputs.

        Raises:
            CalculatorInputError: when an input is unknown, missing or not allowed.
        """
        return self.compute(self.inputs.from_dict(mapping, rules=rules))

    def run(self, mapping: Mapping[str, Any], rules: RuleValues | None = None) -> dict[str, Any]:
        """The JSON-ready result (the CLI contract's keys) for JSON-like inputs.

        Raises:
            CalculatorInputError: when an input is unknown, missing or not allowed.
        """
        return self.evaluate(mapping, rules).to_json()

    def describe(self, rules: RuleValues | None = None) -> dict[str, Any]:
        """JSON-ready metadata for a web form."""
        rules = RuleValues.bundled() if rules is None else rules
        return {
            "name": self.name,
            "label": self.label,
            "rule_id": self.rule_id,
            "game": self.game,
            "question": self.question,
            "params": [param.describe(rules) for param in self.params],
        }

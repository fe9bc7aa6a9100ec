"""Ronin's priority roll-off (ronin.priority): each player rolls a d6, ties are rolled again.

>>> run({})["p_win_exact"]
'1/2'
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .inputs import make_inputs
from .params import N_
from .registry import Calculator
from .results import Figure, Result, Step
from .rulebook import LOWEST_FACE, d6_faces

PARAMS = ()

PriorityInputs = make_inputs("PriorityInputs", PARAMS, None, "The roll-off has no inputs.", __name__)


@dataclass(frozen=True)
class PriorityResult(Result):
    NAME = "priority"
    p_win: Fraction
    p_tie_per_roll: Fraction
    expected_rolls: Fraction
    steps: tuple[Step, ...]

    def payload(self) -> dict[str, Any]:
        return {
            "p_win": float(self.p_win),
            "p_win_exact": str(self.p_win),
            "p_tie_per_roll": float(self.p_tie_per_roll),
            "expected_rolls": float(self.expected_rolls),
        }

    def figures(self) -> tuple[Figure, ...]:
        return (
            Figure("p_win", N_("Chance to win priority"), self.p_win, "probability"),
            Figure("expected_rolls", N_("Expected number of roll-offs"), self.expected_rolls),
        )


def compute(inputs: Any) -> PriorityResult:
    """The chance to win the roll-off, ties rolled again: P(higher) / (1 - P(tie)).

    Args:
        inputs: a :data:`PriorityInputs`.
    """
    faces = range(LOWEST_FACE, d6_faces(inputs.rules) + 1)
    higher = sum(mine > theirs for mine in faces for theirs in faces)
    ties = sum(mine == theirs for mine in faces for theirs in faces)
    rolls = len(faces) ** 2
    p_tie = Fraction(ties, rolls)
    p_win = Fraction(higher, rolls - ties)
    steps = (
        Step("ronin.priority", "p_higher", N_("Chance to roll higher"), Fraction(higher, rolls), "probability"),
        Step("ronin.priority", "p_tie", N_("Chance of a tie, rolled again"), p_tie, "probability"),
        Step("ronin.priority", "p_win", N_("Chance to win priority"), p_win, "probability"),
    )
    return PriorityResult(p_win, p_tie, 1 / (1 - p_tie), steps)


CALCULATOR = Calculator("priority", N_("Priority roll-off"), "ronin.priority", "ronin", PriorityInputs, compute)
run = CALCULATOR.run

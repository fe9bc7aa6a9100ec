"""Ronin's priority roll-off (ronin.priority): each player rolls a d6, ties are rolled again.

>>> run({})["p_win_exact"]
'1/2'
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any

from .inputs import make_inputs
from .params import N_
from .registry import Calculator
from .results import Result, Step, entry, figure
from .rulebook import LOWEST_FACE, d6_faces

PARAMS = ()

PriorityInputs = make_inputs("PriorityInputs", PARAMS, None, "The roll-off has no inputs.", __name__)


@dataclass(frozen=True)
class PriorityResult(Result):
    NAME = "priority"
    p_win: Annotated[Fraction, figure(N_("Chance to win priority"), "probability")]
    p_win_exact: Annotated[str, entry()]  # the same chance as an exact fraction, "1/2"
    p_tie_per_roll: Annotated[Fraction, entry()]
    expected_rolls: Annotated[Fraction, figure(N_("Expected number of roll-offs"))]


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
        PriorityResult.step("p_win", "ronin.priority", p_win),
    )
    return PriorityResult(p_win, str(p_win), p_tie, 1 / (1 - p_tie), steps=steps)


CALCULATOR = Calculator(
    N_("Priority roll-off"),
    "ronin.priority",
    "ronin",
    PriorityInputs,
    PriorityResult,
    compute,
    question=N_("The chance to win the priority roll-off."),
)
run = CALCULATOR.run

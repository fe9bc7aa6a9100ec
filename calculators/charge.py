"""Charge distance rolls (kensei.charge-dice, kensei.indirect-charge).

A charge reaches its target when the charge dice (1d10 or 2d10 by unit type) total at least the
distance in centimetres. Reading for an indirect charge: the unit first stops short of the
target, then the same roll must both reach the target and be at least the indirect charge's
minimum; a roll below that minimum fails whatever the distance.

>>> run({"dice": "2d10", "distance": 11})["p_success"]
0.55
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .errors import CalculatorInputError
from .inputs import make_inputs
from .params import N_, Param
from .pmf import Pmf
from .registry import Calculator
from .results import Distribution, Figure, Result, Step, Table
from .rulebook import LOWEST_FACE, d10_faces

UNIT_TYPES = ("infantry", "creature", "harasser_on_foot", "cavalry", "mounted_harasser", "large_creature")

PARAMS = (
    Param(
        "dice",
        "choice",
        N_("Charge dice"),
        N_(
            "1d10 for infantry, creatures and harassers on foot; 2d10 "
            "for cavalry, mounted harassers and large creatures."
        ),
        "kensei.charge-dice",
        default=None,
        choices=("1d10", "2d10"),
    ),
    Param(
        "unit_type",
        "choice",
        N_("Unit type"),
        N_("Instead of the dice: the charging unit's type."),
        "kensei.charge-dice",
        default=None,
        choices=UNIT_TYPES,
    ),
    Param(
        "distance",
        "int",
        N_("Distance (cm)"),
        N_("Distance to the target when the dice are rolled."),
        "kensei.charge-orders",
        minimum=0,
        maximum=100,
    ),
    Param(
        "indirect",
        "bool",
        N_("Indirect charge"),
        N_("The unit had to pivot to reach the target."),
        "kensei.indirect-charge",
        default=False,
    ),
)


def _check(inputs: Any) -> None:
    if (inputs.dice is None) == (inputs.unit_type is None):
        raise CalculatorInputError(
            "dice", N_("give either {0} or {1}, not both and not neither"), ("dice", "unit_type")
        )


ChargeInputs = make_inputs("ChargeInputs", PARAMS, _check, "Inputs of a charge roll.", __name__)


@dataclass(frozen=True)
class ChargeResult(Result):
    NAME = "charge"
    dice: int
    required: int
    p_success: Fraction
    roll: Distribution
    steps: tuple[Step, ...]

    def payload(self) -> dict[str, Any]:
        return {
            "p_success": float(self.p_success),
            "dice": self.dice,
            "required_roll": self.required,
            "roll_pmf": [float(p) for p in self.roll.pmf],
            "roll_at_least": [float(p) for p in self.roll.at_least],
        }

    def figures(self) -> tuple[Figure, ...]:
        return (
            Figure("required_roll", N_("Roll needed"), self.required),
            Figure("p_success", N_("Chance the charge succeeds"), self.p_success, "probability"),
        )

    def tables(self) -> tuple[Table, ...]:
        return (self.roll.table("roll_pmf", N_("Charge roll"), N_("Roll")),)


def compute(inputs: Any) -> ChargeResult:
    """The chance that a charge reaches its target.

    Args:
        inputs: a :data:`ChargeInputs`.
    """
    rules = inputs.rules
    faces = d10_faces(rules)
    if inputs.unit_type is not None:
        count = rules.value("kensei.charge-dice", inputs.unit_type)
    else:
        count = int(inputs.dice.split("d")[0])
    steps = [
        Step("kensei.charge-dice", "dice", N_("Charge dice (d10)"), count),
        Step("kensei.charge-orders", "distance", N_("Distance to cover (cm)"), inputs.distance, "cm"),
    ]
    required = inputs.distance
    if inputs.indirect:
        minimum = rules.value("kensei.indirect-charge", "minimum_roll")
        steps.append(
            Step(
                "kensei.indirect-charge",
                "stop_cm",
                N_("Indirect charge: the unit first stops this far from the target (cm)"),
                rules.value("kensei.indirect-charge", "stop_cm"),
                "cm",
            )
        )
        steps.append(
            Step(
                "kensei.indirect-charge",
                "minimum_roll",
                N_("Indirect charge: a roll below this fails"),
                minimum,
            )
        )
        required = max(required, minimum)
    steps.append(Step("kensei.charge-dice", "required_roll", N_("Roll needed"), required))
    die = Pmf((0,) * LOWEST_FACE + (1,) * faces).trimmed()
    roll = die.sum_of(count)
    p_success = sum((roll.probability(k) for k in roll.outcomes if k >= required), Fraction(0))
    steps.append(Step("kensei.charge-dice", "p_success", N_("Chance the charge succeeds"), p_success, "probability"))
    return ChargeResult(count, required, p_success, Distribution.of(roll), tuple(steps))


CALCULATOR = Calculator("charge", N_("Charge roll"), "kensei.charge-dice", "kensei", ChargeInputs, compute)
run = CALCULATOR.run

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
from typing import Annotated, Any

from .errors import CalculatorInputError
from .inputs import make_inputs
from .params import N_, choice, flag, whole_number
from .pmf import Pmf
from .registry import Calculator
from .results import Distribution, Result, Step, Tabled, entry, figure
from .rulebook import LOWEST_FACE, RuleValues, d10_faces

UNIT_TYPES = ("infantry", "creature", "harasser_on_foot", "cavalry", "mounted_harasser", "large_creature")

PARAMS = (
    choice(
        "dice",
        N_("Charge dice"),
        N_(
            "1d10 for infantry, creatures and harassers on foot; 2d10 "
            "for cavalry, mounted harassers and large creatures."
        ),
        "kensei.charge-dice",
        ("1d10", "2d10"),
        default=None,
    ),
    choice(
        "unit_type",
        N_("Unit type"),
        N_("Instead of the dice: the charging unit's type."),
        "kensei.charge-dice",
        UNIT_TYPES,
        default=None,
    ),
    whole_number(
        "distance",
        N_("Distance (cm)"),
        N_("Distance to the target when the dice are rolled."),
        "kensei.charge-orders",
        0,
        100,
    ),
    flag("indirect", N_("Indirect charge"), N_("The unit had to pivot to reach the target."), "kensei.indirect-charge"),
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
    FIGURE_ORDER = ("required_roll", "p_success")
    p_success: Annotated[Fraction, figure(N_("Chance the charge succeeds"), "probability")]
    dice: Annotated[int, entry(N_("Charge dice (d10)"))]
    required_roll: Annotated[int, figure(N_("Roll needed"))]
    roll: Annotated[
        Distribution,
        Tabled("roll_pmf", N_("Charge roll"), N_("Roll"), json_keys=("pmf", "at_least"), json_prefix="roll_"),
    ]


def charge_dice(inputs: Any) -> int:
    """The d10s rolled: as given, or those of the unit's type (kensei.charge-dice)."""
    if inputs.unit_type is not None:
        count: int = inputs.rules.value("kensei.charge-dice", inputs.unit_type)
        return count
    return int(inputs.dice.split("d")[0])


def indirect_charge_steps(rules: RuleValues) -> list[Step]:
    """Where an indirect charge stops first, and the roll below which it fails whatever the distance."""
    return [
        Step(
            "kensei.indirect-charge",
            "stop_cm",
            N_("Indirect charge: the unit first stops this far from the target (cm)"),
            rules.value("kensei.indirect-charge", "stop_cm"),
            "cm",
        ),
        Step(
            "kensei.indirect-charge",
            "minimum_roll",
            N_("Indirect charge: a roll below this fails"),
            rules.value("kensei.indirect-charge", "minimum_roll"),
        ),
    ]


def compute(inputs: Any) -> ChargeResult:
    """The chance that a charge reaches its target.

    Args:
        inputs: a :data:`ChargeInputs`.
    """
    rules = inputs.rules
    count = charge_dice(inputs)
    steps = [
        ChargeResult.step("dice", "kensei.charge-dice", count),
        Step("kensei.charge-orders", "distance", N_("Distance to cover (cm)"), inputs.distance, "cm"),
    ]
    required_roll = inputs.distance
    if inputs.indirect:
        steps += indirect_charge_steps(rules)
        required_roll = max(required_roll, rules.value("kensei.indirect-charge", "minimum_roll"))
    steps.append(ChargeResult.step("required_roll", "kensei.charge-dice", required_roll))
    die = Pmf((0,) * LOWEST_FACE + (1,) * d10_faces(rules)).trimmed()
    roll = die.sum_of(count)
    p_success = sum((roll.probability(k) for k in roll.outcomes if k >= required_roll), Fraction(0))
    steps.append(ChargeResult.step("p_success", "kensei.charge-dice", p_success))
    return ChargeResult(p_success, count, required_roll, Distribution.of(roll), steps=tuple(steps))


CALCULATOR = Calculator(
    N_("Charge roll"),
    "kensei.charge-dice",
    "kensei",
    ChargeInputs,
    ChargeResult,
    compute,
    question=N_("The chance that a charge covers the distance to its target."),
)
run = CALCULATOR.run

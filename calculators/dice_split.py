"""Dividing combat dice between several enemy units (kensei.dividing-dice).

At least half of a unit's combat dice (rounded up) go to the unit it charged; at most half
(rounded down) may go to a lone character when other units are there to attack.

>>> run({"combat_dice": 7})["minimum_for_charged"]
4
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from .inputs import make_inputs
from .params import N_, whole_number
from .registry import Calculator
from .results import Result, figure

PARAMS = (
    whole_number("combat_dice", N_("Combat dice"), N_("All the unit's combat dice."), "kensei.dividing-dice", 0, 250),
)

DiceSplitInputs = make_inputs("DiceSplitInputs", PARAMS, None, "Inputs of a division of combat dice.", __name__)


@dataclass(frozen=True)
class DiceSplitResult(Result):
    NAME = "dice-split"
    minimum_for_charged: Annotated[int, figure(N_("At least, against the charged unit"))]
    maximum_for_character: Annotated[int, figure(N_("At most, against a lone character"))]


def compute(inputs: Any) -> DiceSplitResult:
    """At least half of the dice on the charged unit (rounded up), at most half on a lone character
    (rounded down): the shares are the rule's own (kensei.dividing-dice).

    Args:
        inputs: a :data:`DiceSplitInputs`.
    """
    dice, rules = inputs.combat_dice, inputs.rules
    charged = rules.value("kensei.dividing-dice", "charged_share_divisor")
    character = rules.value("kensei.dividing-dice", "character_share_divisor")
    rounded_up, rounded_down = -(-dice // charged), dice // character
    return DiceSplitResult.reported(
        "kensei.dividing-dice", minimum_for_charged=rounded_up, maximum_for_character=rounded_down
    )


CALCULATOR = Calculator(
    N_("Dividing combat dice"),
    "kensei.dividing-dice",
    "kensei",
    DiceSplitInputs,
    DiceSplitResult,
    compute,
    question=N_("How many combat dice must go to the charged unit, and how many may go to a lone character."),
)
run = CALCULATOR.run

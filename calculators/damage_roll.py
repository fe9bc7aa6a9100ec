"""One Damage roll against Armor, by either reading (kensei.damage-roll).

>>> run({"roll": 10, "armor": 0, "damage_rule": "subtractive"})["wounds"]
10
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from .inputs import make_inputs
from .kensei_dice import DAMAGE_RULE_PARAM, damage_wounds
from .params import N_, Param, characteristic
from .registry import Calculator
from .results import Result, Step, figure
from .rulebook import LOWEST_FACE

PARAMS = (
    Param(
        "roll",
        "int",
        N_("Damage roll"),
        N_("The d10 rolled."),
        "kensei.damage-roll",
        minimum=LOWEST_FACE,
        maximum_rule=("kensei.roll-of-ten", "critical_roll"),
    ),  # the d10's highest face
    characteristic("armor", N_("Armor"), N_("The target's Armor."), "kensei.damage-roll"),
    DAMAGE_RULE_PARAM,
)


DamageRollInputs = make_inputs("DamageRollInputs", PARAMS, None, "Inputs of a Damage roll.", __name__)


@dataclass(frozen=True)
class DamageRollResult(Result):
    NAME = "damage-roll"
    wounds: Annotated[int, figure(N_("Wounds"))]


def compute(inputs: Any) -> DamageRollResult:
    """The Wounds one Damage roll deals.

    Args:
        inputs: a :data:`DamageRollInputs`.
    """
    wounds = damage_wounds(inputs.roll, inputs.armor, inputs.damage_rule, inputs.rules)
    reading = Step("kensei.damage-roll", "damage_rule", N_("Damage reading"), inputs.damage_rule, "text")
    return DamageRollResult.reported("kensei.damage-roll", reading, wounds=wounds)


CALCULATOR = Calculator(
    N_("Damage roll"),
    "kensei.damage-roll",
    "kensei",
    DamageRollInputs,
    DamageRollResult,
    compute,
    question=N_("How many Wounds one Damage roll deals against the target's Armor."),
)
run = CALCULATOR.run

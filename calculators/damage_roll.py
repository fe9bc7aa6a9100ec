"""One Damage roll against Armor, by either reading (kensei.damage-roll).

>>> run({"roll": 10, "armor": 0, "damage_rule": "subtractive"})["wounds"]
10
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .inputs import make_inputs
from .kensei_dice import DAMAGE_RULE_PARAM, damage_wounds
from .params import N_, Param
from .registry import Calculator
from .results import Figure, Result, Step
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
    Param("armor", "int", N_("Armor"), N_("The target's Armor."), "kensei.damage-roll", minimum=0, maximum=20),
    DAMAGE_RULE_PARAM,
)


DamageRollInputs = make_inputs("DamageRollInputs", PARAMS, None, "Inputs of a Damage roll.", __name__)


@dataclass(frozen=True)
class DamageRollResult(Result):
    NAME = "damage-roll"
    wounds: int
    steps: tuple[Step, ...]

    def payload(self) -> dict[str, Any]:
        return {"wounds": self.wounds}

    def figures(self) -> tuple[Figure, ...]:
        return (Figure("wounds", N_("Wounds"), self.wounds),)


def compute(inputs: Any) -> DamageRollResult:
    """The Wounds one Damage roll deals.

    Args:
        inputs: a :data:`DamageRollInputs`.
    """
    wounds = damage_wounds(inputs.roll, inputs.armor, inputs.damage_rule, inputs.rules)
    steps = (
        Step("kensei.damage-roll", "damage_rule", N_("Damage reading"), inputs.damage_rule, "text"),
        Step("kensei.damage-roll", "wounds", N_("Wounds"), wounds),
    )
    return DamageRollResult(wounds, steps)


CALCULATOR = Calculator("damage-roll", N_("Damage roll"), "kensei.damage-roll", "kensei", DamageRollInputs, compute)
run = CALCULATOR.run

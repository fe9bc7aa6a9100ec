"""A stunned Ronin fighter in water (ronin.water): it drowns on a high enough d6.

>>> run({"heavy_armour": True})["p_drown"]
0.3333333333333333
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .inputs import make_inputs
from .params import N_, Param
from .registry import Calculator
from .results import Figure, Result, Step
from .rulebook import LOWEST_FACE, d6_faces

PARAMS = (
    Param(
        "heavy_armour",
        "bool",
        N_("Heavy armour"),
        N_("A fighter in heavy armour drowns more easily."),
        "ronin.water",
        default=False,
    ),
)

DrowningInputs = make_inputs("DrowningInputs", PARAMS, None, "Inputs of a drowning roll.", __name__)


@dataclass(frozen=True)
class DrowningResult(Result):
    NAME = "drowning"
    drowns_on: int
    p_drown: Fraction
    steps: tuple[Step, ...]

    def payload(self) -> dict[str, Any]:
        return {"drowns_on": self.drowns_on, "p_drown": float(self.p_drown)}

    def figures(self) -> tuple[Figure, ...]:
        return (Figure("p_drown", N_("Chance to drown"), self.p_drown, "probability"),)


def compute(inputs: Any) -> DrowningResult:
    """The chance that the fighter drowns.

    Args:
        inputs: a :data:`DrowningInputs`.
    """
    rules = inputs.rules
    drowns_on = rules.value("ronin.water", "heavy_armour_roll" if inputs.heavy_armour else "drown_roll")
    faces = d6_faces(rules)
    p = Fraction(sum(roll >= drowns_on for roll in range(LOWEST_FACE, faces + 1)), faces)
    steps = (
        Step("ronin.water", "drowns_on", N_("Drowns on a d6 of at least"), drowns_on),
        Step("ronin.water", "p_drown", N_("Chance to drown"), p, "probability"),
    )
    return DrowningResult(drowns_on, p, steps)


CALCULATOR = Calculator("drowning", N_("Drowning"), "ronin.water", "ronin", DrowningInputs, compute)
run = CALCULATOR.run

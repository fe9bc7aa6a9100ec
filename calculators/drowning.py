"""A stunned Ronin fighter in water (ronin.water): it drowns on a high enough d6.

>>> run({"heavy_armour": True})["p_drown"]
0.3333333333333333
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any

from .inputs import make_inputs
from .params import N_, flag
from .registry import Calculator
from .results import Result, entry, figure
from .rulebook import LOWEST_FACE, d6_faces

PARAMS = (flag("heavy_armour", N_("Heavy armour"), N_("A fighter in heavy armour drowns more easily."), "ronin.water"),)

DrowningInputs = make_inputs("DrowningInputs", PARAMS, None, "Inputs of a drowning roll.", __name__)


@dataclass(frozen=True)
class DrowningResult(Result):
    NAME = "drowning"
    drowns_on: Annotated[int, entry(N_("Drowns on a d6 of at least"))]
    p_drown: Annotated[Fraction, figure(N_("Chance to drown"), "probability")]


def compute(inputs: Any) -> DrowningResult:
    """The chance that the fighter drowns.

    Args:
        inputs: a :data:`DrowningInputs`.
    """
    rules = inputs.rules
    drowns_on = rules.value("ronin.water", "heavy_armour_roll" if inputs.heavy_armour else "drown_roll")
    faces = d6_faces(rules)
    p = Fraction(sum(roll >= drowns_on for roll in range(LOWEST_FACE, faces + 1)), faces)
    return DrowningResult.reported("ronin.water", drowns_on=drowns_on, p_drown=p)


CALCULATOR = Calculator(
    N_("Drowning"),
    "ronin.water",
    "ronin",
    DrowningInputs,
    DrowningResult,
    compute,
    question=N_("The chance that a stunned fighter in water drowns."),
)
run = CALCULATOR.run

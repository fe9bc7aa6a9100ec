"""Exact dice probabilities for Kensei (1st edition, d10) and Ronin (d6).

Standard library only, so that it runs unchanged in the browser under Pyodide; it imports
nothing from the rest of the project. Rules of the package:

- Exact: integer weights and :class:`fractions.Fraction` throughout; floats only in ``to_json``.
- No number the rules state is typed here: modifiers, costs and thresholds are read from
  ``rule_values.json`` through :mod:`calculators.rulebook` (or from a mapping passed in).
- Inputs are frozen dataclasses validated on construction; results are frozen dataclasses.
  Every bad input raises :class:`CalculatorInputError`, naming the field and what it allows.

Use a calculator by name::

    from calculators import CALCULATORS
    CALCULATORS["shooting"].run({"wounds": [2, 2, 2, 1], "attack": 6, "defense": 5, "armor": 3})

or by module: ``from calculators import shooting; shooting.run({...})``.
"""

from . import (
    action_points,
    charge,
    damage_roll,
    dice_split,
    drowning,
    melee,
    morale,
    morale_states,
    morale_trigger,
    movement,
    planner,
    priority,
    rank_test,
    regroup,
    shooting,
    spells,
)
from .errors import CalculatorInputError, Plural, RuleValueMissing
from .params import N_, Nn_, Param
from .registry import Calculator
from .rulebook import RuleValues

CALCULATORS: dict[str, Calculator] = {
    module.CALCULATOR.name: module.CALCULATOR
    for module in (
        shooting,
        melee,
        regroup,
        planner,
        charge,
        movement,
        action_points,
        spells,
        damage_roll,
        dice_split,
        morale,
        morale_states,
        rank_test,
        drowning,
        priority,
        morale_trigger,
    )
}
"""Every calculator by its name (``shooting``, ``melee``, ...)."""

__all__ = [
    "CALCULATORS",
    "N_",
    "Calculator",
    "CalculatorInputError",
    "Nn_",
    "Param",
    "Plural",
    "RuleValueMissing",
    "RuleValues",
    "action_points",
    "charge",
    "damage_roll",
    "dice_split",
    "drowning",
    "melee",
    "morale",
    "morale_states",
    "morale_trigger",
    "movement",
    "planner",
    "priority",
    "rank_test",
    "regroup",
    "shooting",
    "spells",
]

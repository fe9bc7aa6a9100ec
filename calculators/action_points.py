"""Action points a Kensei unit has this turn (kensei.action-points, kensei.reaction-cost).

>>> run({"unit_type": "infantry", "reactions": 1})["action_points"]
1
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from .inputs import make_inputs
from .params import N_, choice, count
from .registry import Calculator
from .results import Result, Step, figure

UNIT_TYPES = ("infantry", "cavalry", "creature", "harasser", "lone_model", "character", "large_creature")

PARAMS = (
    choice(
        "unit_type",
        N_("Unit type"),
        N_("Creatures here are those that are not large."),
        "kensei.action-points",
        UNIT_TYPES,
        default="infantry",
    ),
    count(
        "reactions",
        N_("Reactions"),
        N_("Withstand and shoot or counter-charge made in the opponent's phase: paid this phase."),
        "kensei.reaction-cost",
        10,
    ),
)

ActionPointsInputs = make_inputs("ActionPointsInputs", PARAMS, None, "Inputs of the action points.", __name__)


@dataclass(frozen=True)
class ActionPointsResult(Result):
    NAME = "action-points"
    action_points: Annotated[int, figure(N_("Action points"))]


def compute(inputs: Any) -> ActionPointsResult:
    """The action points left for this phase.

    Args:
        inputs: an :data:`ActionPointsInputs`.
    """
    rules = inputs.rules
    base = rules.value("kensei.action-points", inputs.unit_type)
    steps = [Step("kensei.action-points", "base", N_("Action points per turn"), base)]
    spent = inputs.reactions * rules.value("kensei.reaction-cost", "action_points")
    if spent:
        steps.append(
            Step(
                "kensei.reaction-cost",
                "reactions",
                N_("Reactions made in the opponent's phase"),
                -spent,
                "modifier",
            )
        )
    points = max(0, base - spent)
    return ActionPointsResult.reported("kensei.action-points", *steps, action_points=points)


CALCULATOR = Calculator(
    N_("Action points"),
    "kensei.action-points",
    "kensei",
    ActionPointsInputs,
    ActionPointsResult,
    compute,
    question=N_("How many action points a unit has this turn, once its reactions are paid."),
)
run = CALCULATOR.run

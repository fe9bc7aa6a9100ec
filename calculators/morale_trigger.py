"""Casualties that force a Ronin Morale test (ronin.morale-triggers): a quarter of the starting
strength taken out in one turn, rounded up.

>>> run({"starting_fighters": 10})["casualty_threshold"]
3
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from .inputs import make_inputs
from .params import N_, whole_number
from .registry import Calculator
from .results import Result, Step, figure

PARAMS = (
    whole_number(
        "starting_fighters",
        N_("Starting fighters"),
        N_("The warband's strength at the start."),
        "ronin.morale-triggers",
        1,
        200,
    ),
)

MoraleTriggerInputs = make_inputs("MoraleTriggerInputs", PARAMS, None, "Inputs of the casualty trigger.", __name__)


@dataclass(frozen=True)
class MoraleTriggerResult(Result):
    NAME = "morale-trigger"
    casualty_threshold: Annotated[int, figure(N_("Fighters taken out in a turn that force a test"))]


def compute(inputs: Any) -> MoraleTriggerResult:
    """The smallest number of fighters taken out in one turn that forces a test.

    Args:
        inputs: a :data:`MoraleTriggerInputs`.
    """
    rules = inputs.rules
    numerator = rules.value("ronin.morale-triggers", "casualties_numerator")
    denominator = rules.value("ronin.morale-triggers", "casualties_denominator")
    threshold = -(-inputs.starting_fighters * numerator // denominator)  # rounded up
    share = Step(
        "ronin.morale-triggers", "share", N_("Share of the starting strength"), f"{numerator}/{denominator}", "text"
    )
    return MoraleTriggerResult.reported("ronin.morale-triggers", share, casualty_threshold=threshold)


CALCULATOR = Calculator(
    N_("Morale test trigger"),
    "ronin.morale-triggers",
    "ronin",
    MoraleTriggerInputs,
    MoraleTriggerResult,
    compute,
    question=N_("How many fighters taken out in one turn force a Morale test."),
)
run = CALCULATOR.run

"""Casualties that force a Ronin Morale test (ronin.morale-triggers): a quarter of the starting
strength taken out in one turn, rounded up.

>>> run({"starting_fighters": 10})["casualty_threshold"]
3
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .inputs import make_inputs
from .params import N_, Param
from .registry import Calculator
from .results import Figure, Result, Step

PARAMS = (
    Param(
        "starting_fighters",
        "int",
        N_("Starting fighters"),
        N_("The warband's strength at the start."),
        "ronin.morale-triggers",
        minimum=1,
        maximum=200,
    ),
)

MoraleTriggerInputs = make_inputs("MoraleTriggerInputs", PARAMS, None, "Inputs of the casualty trigger.", __name__)


@dataclass(frozen=True)
class MoraleTriggerResult(Result):
    NAME = "morale-trigger"
    casualty_threshold: int
    steps: tuple[Step, ...]

    def payload(self) -> dict[str, Any]:
        return {"casualty_threshold": self.casualty_threshold}

    def figures(self) -> tuple[Figure, ...]:
        return (
            Figure(
                "casualty_threshold",
                N_("Fighters taken out in a turn that force a test"),
                self.casualty_threshold,
            ),
        )


def compute(inputs: Any) -> MoraleTriggerResult:
    """The smallest number of fighters taken out in one turn that forces a test.

    Args:
        inputs: a :data:`MoraleTriggerInputs`.
    """
    rules = inputs.rules
    numerator = rules.value("ronin.morale-triggers", "casualties_numerator")
    denominator = rules.value("ronin.morale-triggers", "casualties_denominator")
    threshold = -(-inputs.starting_fighters * numerator // denominator)  # rounded up
    steps = (
        Step(
            "ronin.morale-triggers",
            "share",
            N_("Share of the starting strength"),
            f"{numerator}/{denominator}",
            "text",
        ),
        Step(
            "ronin.morale-triggers",
            "casualty_threshold",
            N_("Fighters taken out in a turn that force a test"),
            threshold,
        ),
    )
    return MoraleTriggerResult(threshold, steps)


CALCULATOR = Calculator(
    "morale-trigger",
    N_("Morale test trigger"),
    "ronin.morale-triggers",
    "ronin",
    MoraleTriggerInputs,
    compute,
)
run = CALCULATOR.run

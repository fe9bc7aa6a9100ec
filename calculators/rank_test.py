"""Ronin's Rank test of a wavering or panicking warband (ronin.wavering, ronin.panic).

A fighter of a wavering warband needs d6 + Rank of at least the target to move into contact; in
a panicking warband, to act at all on activation (else it flees).

>>> run({"rank": 3, "state": "wavering"})["p_success"]
0.5
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any

from .choices import MORALE_STATES
from .inputs import make_inputs
from .params import N_, choice, whole_number
from .registry import Calculator
from .results import Result, entry, figure
from .rulebook import LOWEST_FACE, d6_faces

RULES_BY_STATE = {"wavering": "ronin.wavering", "panic": "ronin.panic"}
"""The morale states that call for a Rank test, and the rule that states its target."""

PARAMS = (
    whole_number("rank", N_("Rank"), N_("The fighter's Rank."), "ronin.wavering", 0, 10),
    choice(
        "state",
        N_("Warband's state"),
        N_("Wavering: to move into contact; panic: to act at all."),
        "ronin.morale-states",
        tuple(state for state in MORALE_STATES if state in RULES_BY_STATE),
        default="wavering",
    ),
)

RankTestInputs = make_inputs("RankTestInputs", PARAMS, None, "Inputs of a Rank test.", __name__)


@dataclass(frozen=True)
class RankTestResult(Result):
    NAME = "rank-test"
    target: Annotated[int, entry(N_("Success on d6 + Rank of at least"))]
    p_success: Annotated[Fraction, figure(N_("Chance of success"), "probability")]


def compute(inputs: Any) -> RankTestResult:
    """The chance that d6 + Rank reaches the target.

    Args:
        inputs: a :data:`RankTestInputs`.
    """
    rules = inputs.rules
    rule = RULES_BY_STATE[inputs.state]
    target = rules.value(rule, "target")
    faces = d6_faces(rules)
    p = Fraction(sum(roll + inputs.rank >= target for roll in range(LOWEST_FACE, faces + 1)), faces)
    return RankTestResult.reported(rule, target=target, p_success=p)


CALCULATOR = Calculator(
    N_("Rank test"),
    "ronin.wavering",
    "ronin",
    RankTestInputs,
    RankTestResult,
    compute,
    question=N_("The chance that a wavering or panicking fighter passes its Rank test."),
)
run = CALCULATOR.run

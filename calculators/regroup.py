"""Regrouping a unit that runs away (Kensei 8.3.2, kensei.regroup).

Each attempt costs a commandment point and succeeds on a d10 equal to or lower than the unit's
Honor plus modifiers; a second attempt is made only after a failed first. Within range of
Mystical Terrain a unit regroups at once, without a roll.

>>> run({"honor": 6, "attempts": 2})["p_regroup"]
0.84
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any

from .inputs import make_inputs
from .params import N_, Param, characteristic, flag, whole_number
from .registry import Calculator
from .results import Result, Step, figure
from .rulebook import LOWEST_FACE, RuleValues, d10_faces

PARAMS = (
    characteristic("honor", N_("Honor"), N_("The unit's Honor (HR)."), "kensei.regroup"),
    whole_number(
        "bonus",
        N_("Bonus"),
        N_("Modifiers from a Bushi hero in the unit or a character with the Commandment trait nearby."),
        "kensei.regroup",
        -10,
        10,
        default=0,
    ),
    Param(
        "attempts",
        "int",
        N_("Attempts"),
        N_("Attempts planned, one commandment point each: the second is made, and paid, only after a failed first."),
        "kensei.regroup",
        default=1,
        minimum=1,
        maximum_rule=("kensei.regroup", "attempts"),
    ),
    flag(
        "mystical",
        N_("Near Mystical Terrain"),
        N_("The unit regroups at once, without a roll."),
        "kensei.mystical-terrain",
    ),
)

RegroupInputs = make_inputs("RegroupInputs", PARAMS, None, "Inputs of a regroup attempt.", __name__)


def regroup_chance(honor: int, bonus: int, rules: RuleValues) -> Fraction:
    """P(one attempt regroups): a d10 equal to or lower than Honor plus modifiers."""
    faces = d10_faces(rules)
    target = honor + bonus
    return Fraction(sum(roll <= target for roll in range(LOWEST_FACE, faces + 1)), faces)


@dataclass(frozen=True)
class RegroupResult(Result):
    NAME = "regroup"
    p_per_attempt: Annotated[Fraction, figure(N_("Chance per attempt"), "probability")]
    p_regroup: Annotated[Fraction, figure(N_("Chance to regroup"), "probability")]
    expected_cp: Annotated[Fraction, figure(N_("Expected commandment points spent"))]


def compute(inputs: Any) -> RegroupResult:
    """The chance to regroup and the commandment points it is expected to cost.

    Args:
        inputs: a :data:`RegroupInputs`.
    """
    rules = inputs.rules
    p = regroup_chance(inputs.honor, inputs.bonus, rules)
    cost = rules.value("kensei.regroup", "cost_per_attempt")
    steps = [
        Step(
            "kensei.regroup",
            "target",
            N_("Regroup on a d10 equal to or lower than"),
            inputs.honor + inputs.bonus,
        ),
        RegroupResult.step("p_per_attempt", "kensei.regroup", p),
    ]
    if inputs.mystical:
        steps.append(
            Step(
                "kensei.mystical-terrain",
                "mystical",
                N_("Near Mystical Terrain: regroups at once"),
                N_("no roll, no commandment point"),
                "text",
            )
        )
        return RegroupResult(p, Fraction(1), Fraction(0), steps=tuple(steps))
    fail_all = (1 - p) ** inputs.attempts
    # the k-th attempt is made (and paid) only when the k - 1 before it failed
    expected_cp = cost * sum(((1 - p) ** k for k in range(inputs.attempts)), Fraction(0))
    steps.append(Step("kensei.regroup", "cost_per_attempt", N_("Commandment points per attempt"), cost))
    steps.append(RegroupResult.step("p_regroup", "kensei.regroup", 1 - fail_all))
    return RegroupResult(p, 1 - fail_all, expected_cp, steps=tuple(steps))


CALCULATOR = Calculator(
    N_("Regroup"),
    "kensei.regroup",
    "kensei",
    RegroupInputs,
    RegroupResult,
    compute,
    question=N_("The chance that a fleeing unit regroups, with one or two attempts."),
)
run = CALCULATOR.run

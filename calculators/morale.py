"""Ronin's Morale test (ronin.morale-test, ronin.morale-modifiers, ronin.banner).

2d6 plus modifiers equal to or lower than the warband's Morale passes; a double 1 always
passes and a double 6 always fails. A banner allows rerolling a failed test.

>>> run({"morale": 7})["p_pass"]
0.5833333333333334
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any

from .inputs import make_inputs
from .params import N_, characteristic, flag
from .registry import Calculator
from .results import Result, Step, entry, figure
from .rulebook import LOWEST_FACE, RuleValues, d6_faces

MORALE_FLAGS = (
    flag("under_half", N_("Fewer than half the fighters left"), N_("Worsens the roll."), "ronin.morale-modifiers"),
    flag(
        "commander",
        N_("A Commander on the table"),
        N_("A fighter with the Commander skill is alive on the table: improves the roll."),
        "ronin.morale-modifiers",
    ),
    flag("banner", N_("Banner"), N_("The warband may reroll a failed test."), "ronin.banner"),
)

MORALE_PARAM = characteristic("morale", N_("Morale"), N_("The warband's Morale."), "ronin.morale-test")
"""The warband's Morale, shared with the morale-over-turns calculator."""

PARAMS = (
    MORALE_PARAM,
    flag("wavering", N_("Wavering"), N_("The warband is wavering: worsens the roll."), "ronin.morale-modifiers"),
    *MORALE_FLAGS,
)

MoraleInputs = make_inputs("MoraleInputs", PARAMS, None, "Inputs of a Morale test.", __name__)


def roll_modifier(rules: RuleValues, *, wavering: bool, under_half: bool, commander: bool) -> list[Step]:
    """The modifiers added to the 2d6, each with its rule."""
    steps = []
    for applies, key, label in (
        (under_half, "under_half", N_("Fewer than half the fighters left")),
        (wavering, "wavering", N_("Wavering")),
        (commander, "commander", N_("A Commander on the table")),
    ):
        if applies:
            steps.append(
                Step(
                    "ronin.morale-modifiers",
                    key,
                    label,
                    rules.value("ronin.morale-modifiers", key),
                    "modifier",
                )
            )
    return steps


def pass_chance(morale: int, modifier: int, banner: bool, rules: RuleValues) -> Fraction:
    """P(pass) of one Morale test, the banner's rerolls of a failed test included."""
    faces = d6_faces(rules)
    dice = range(LOWEST_FACE, faces + 1)
    passes = 0
    for first in dice:
        for second in dice:
            if first == second == LOWEST_FACE:
                passes += 1
            elif first == second == faces:
                continue
            else:
                passes += first + second + modifier <= morale
    single = Fraction(passes, faces * faces)
    rerolls = rules.value("ronin.banner", "rerolls") if banner else 0
    return 1 - (1 - single) ** (1 + rerolls)


@dataclass(frozen=True)
class MoraleResult(Result):
    NAME = "morale"
    p_pass: Annotated[Fraction, figure(N_("Chance to pass"), "probability")]
    modifier: Annotated[int, entry()]


def compute(inputs: Any) -> MoraleResult:
    """The chance to pass one Morale test.

    Args:
        inputs: a :data:`MoraleInputs`.
    """
    rules = inputs.rules
    steps = [
        Step(
            "ronin.morale-test",
            "morale",
            N_("Pass on 2d6 plus modifiers equal to or lower than"),
            inputs.morale,
        )
    ]
    modifiers = roll_modifier(rules, wavering=inputs.wavering, under_half=inputs.under_half, commander=inputs.commander)
    modifier = sum(int(step.value) for step in modifiers)
    steps += modifiers
    steps.append(
        Step(
            "ronin.morale-test",
            "doubles",
            N_("A double 1 always passes, a double 6 always fails"),
            N_("whatever the modifiers"),
            "text",
        )
    )
    if inputs.banner:
        steps.append(
            Step(
                "ronin.banner",
                "banner",
                N_("Banner: rerolls of a failed test"),
                rules.value("ronin.banner", "rerolls"),
            )
        )
    p_pass = pass_chance(inputs.morale, modifier, inputs.banner, rules)
    steps.append(MoraleResult.step("p_pass", "ronin.morale-test", p_pass))
    return MoraleResult(p_pass, modifier, steps=tuple(steps))


CALCULATOR = Calculator(
    N_("Morale test"),
    "ronin.morale-test",
    "ronin",
    MoraleInputs,
    MoraleResult,
    compute,
    question=N_("The chance that a warband passes its Morale test."),
)
run = CALCULATOR.run

"""Spell penalties, the level limit, Blocking and Ki rolls (kensei.spell-penalty and neighbours).

The penalty of each spell cast in a turn is its level plus the number of other spells cast that
turn. A spell's level may exceed the Onmyouiji's by at most the stated margin (flagged, not an
error, so that a player can see what is out of reach). Blocking succeeds on a d10 higher than
the caster's Ki minus the spell's difficulty, as the sentence reads (``ki-minus``); the other reading
(``roll-minus``: the roll minus the difficulty must beat Ki) is an option, and the note on
kensei.blocking gives both. A Ki roll (a Taisho ability, a strategic order)
succeeds on a d10 equal to or lower than Ki.

>>> run({"levels": [1, 3, 4]})["penalties"]
[-3, -5, -6]
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any

from .errors import CalculatorInputError
from .inputs import make_inputs
from .params import N_, Param, characteristic, choice, whole_number
from .registry import Calculator
from .results import Result, Step, entry, figure
from .rulebook import LOWEST_FACE, RuleValues, d10_faces

BLOCKING_RULES = ("ki-minus", "roll-minus")
"""The two readings of Blocking: a d10 above Ki minus the difficulty (the default, as the sentence
reads) or a d10 minus the difficulty above Ki, that is above Ki plus the difficulty."""
BLOCKING_READING_NOTE = "kensei.blocking#blocking-target"
"""The note on the two readings, which the step of the other reading cites."""

PARAMS = (
    Param(
        "levels",
        "int_list",
        N_("Spell levels"),
        N_("The level of each spell cast this turn, e.g. 1,3,4."),
        "kensei.spell-penalty",
        minimum=1,
        maximum=10,
        min_length=1,
        max_length=10,
    ),
    whole_number(
        "onmyouiji_level",
        N_("Onmyouiji level"),
        N_("Flags spells above the level the caster may cast."),
        "kensei.spell-level-limit",
        0,
        10,
        default=None,
    ),
    characteristic(
        "caster_ki",
        N_("Caster's Ki"),
        N_("For the chance to block: the casting Onmyouiji's Ki."),
        "kensei.blocking",
        default=None,
    ),
    characteristic(
        "difficulty",
        N_("Spell difficulty"),
        N_("For the chance to block: the spell's difficulty."),
        "kensei.blocking",
        default=None,
    ),
    choice(
        "blocking_rule",
        N_("Blocking reading"),
        N_("Whether the spell's difficulty comes off the caster's Ki, as the sentence reads, or off the roll."),
        "kensei.blocking",
        BLOCKING_RULES,
    ),
    characteristic(
        "taisho_ki",
        N_("Taisho's Ki"),
        N_("For the chance of a Ki roll for a Taisho ability or a strategic order."),
        "kensei.taisho-abilities",
        default=None,
    ),
)


def _check(inputs: Any) -> None:
    if (inputs.caster_ki is None) != (inputs.difficulty is None):
        missing = "caster_ki" if inputs.caster_ki is None else "difficulty"
        other = "difficulty" if missing == "caster_ki" else "caster_ki"
        raise CalculatorInputError(missing, N_("is needed with {0} for the chance to block"), (other,))


SpellsInputs = make_inputs("SpellsInputs", PARAMS, _check, "Inputs of the spells of a turn.", __name__)


def d10_at_most(target: int, rules: RuleValues) -> Fraction:
    """P(d10 equal to or lower than ``target``)."""
    faces = d10_faces(rules)
    return Fraction(sum(roll <= target for roll in range(LOWEST_FACE, faces + 1)), faces)


MINUS = "\u2212"
"""The minus sign (not a hyphen), as every signed number of the reference is written."""


def _signed_list(numbers: tuple[int, ...]) -> str:
    """``−3, −5, −6``: how the penalties read as one figure, each with a true minus sign."""
    return ", ".join(f"{number:+d}".replace("-", MINUS) for number in numbers)


@dataclass(frozen=True)
class SpellsResult(Result):
    NAME = "spells"
    penalties: Annotated[tuple[int, ...], figure(N_("Penalties"), "text", display=_signed_list)]
    level_limit: Annotated[int | None, figure(N_("Highest level the Onmyouiji may cast"))]
    over_limit: Annotated[tuple[bool, ...], entry(N_("Spells above that level"), "text")]
    p_block: Annotated[Fraction | None, figure(N_("Chance to block"), "probability")]
    p_ki_roll: Annotated[Fraction | None, figure(N_("Chance of the Ki roll"), "probability")]


def penalty_steps(levels: tuple[int, ...], penalties: tuple[int, ...]) -> list[Step]:
    """How many other spells there are, then each spell's penalty, as the rule counts them."""
    steps = [Step("kensei.spell-penalty", "other_spells", N_("Other spells cast this turn"), len(levels) - 1)]
    steps += [
        Step(
            "kensei.spell-penalty",
            f"penalty_{i + 1}",
            N_("Penalty of a spell of level {level}"),
            penalty,
            "modifier",
            label_numbers=(("level", level),),
        )
        for i, (level, penalty) in enumerate(zip(levels, penalties, strict=True))
    ]
    return steps


def level_limit_steps(levels: tuple[int, ...], level_limit: int) -> list[Step]:
    """The highest level the Onmyouiji may cast, and the spells above it (flagged, not refused)."""
    steps = [SpellsResult.step("level_limit", "kensei.spell-level-limit", level_limit)]
    above = [level for level in levels if level > level_limit]
    if above:
        steps.append(
            SpellsResult.step("over_limit", "kensei.spell-level-limit", ", ".join(str(level) for level in above))
        )
    return steps


def block_chance(caster_ki: int, difficulty: int, reading: str, rules: RuleValues) -> tuple[Fraction, list[Step]]:
    """The chance to block and its steps: the reading (only when it is not the default), the face to beat."""
    steps = []
    if reading == BLOCKING_RULES[0]:
        target = caster_ki - difficulty
    else:
        target = caster_ki + difficulty
        steps.append(Step(BLOCKING_READING_NOTE, "blocking_rule", N_("Blocking reading"), reading, "text"))
    steps.append(Step("kensei.blocking", "block_above", N_("Block on a d10 higher than"), target))
    return 1 - d10_at_most(target, rules), steps


def compute(inputs: Any) -> SpellsResult:
    """Penalties, level limit and chances.

    Args:
        inputs: a :data:`SpellsInputs`.
    """
    rules = inputs.rules
    others = len(inputs.levels) - 1
    penalties = tuple(-(level + others) for level in inputs.levels)
    steps = penalty_steps(inputs.levels, penalties)
    level_limit = None
    over_limit: tuple[bool, ...] = ()
    if inputs.onmyouiji_level is not None:
        level_limit = inputs.onmyouiji_level + rules.value("kensei.spell-level-limit", "levels_above")
        over_limit = tuple(level > level_limit for level in inputs.levels)
        steps += level_limit_steps(inputs.levels, level_limit)
    p_block = None
    if inputs.caster_ki is not None:
        p_block, block_steps = block_chance(inputs.caster_ki, inputs.difficulty, inputs.blocking_rule, rules)
        steps += block_steps
        steps.append(SpellsResult.step("p_block", "kensei.blocking", p_block))
    p_ki_roll = None
    if inputs.taisho_ki is not None:
        p_ki_roll = d10_at_most(inputs.taisho_ki, rules)
        steps.append(SpellsResult.step("p_ki_roll", "kensei.taisho-abilities", p_ki_roll))
    return SpellsResult(penalties, level_limit, over_limit, p_block, p_ki_roll, steps=tuple(steps))


CALCULATOR = Calculator(
    N_("Spells"),
    "kensei.spell-penalty",
    "kensei",
    SpellsInputs,
    SpellsResult,
    compute,
    question=N_("The penalty of each spell cast this turn, and the chance to block it."),
)
run = CALCULATOR.run

"""Ranged attacks in Kensei: the Wounds a unit's volley deals (design section 8, ranged attacks).

>>> result = run({"wounds": [2, 2, 2, 1], "attack": 6, "defense": 5, "armor": 3})
>>> result["dice"], result["effective_attack"]
(7, 6)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .errors import CalculatorInputError
from .inputs import make_inputs
from .kensei_dice import DAMAGE_RULE_PARAM, damage_chance, hit_chance, strike_die, through_chance
from .params import N_, Param
from .pmf import Pmf
from .registry import Calculator
from .results import Distribution, Figure, Result, Step, Table
from .rulebook import RuleValues

MAX_DICE = 200
"""Most attack dice in one volley: keeps every volley under a second."""

STAT = {"kind": "int", "minimum": 0, "maximum": 20}

PARAMS = (
    Param(
        "dice",
        "int",
        N_("Attack dice"),
        N_("Number of dice rolled; or give the Wounds of each model."),
        "kensei.shooting-dice",
        default=None,
        minimum=0,
        maximum=MAX_DICE,
    ),
    Param(
        "wounds",
        "int_list",
        N_("Wounds of each model"),
        N_("Remaining Wounds of each model that fires, e.g. 2,2,2,1: one die per Wound."),
        "kensei.shooting-dice",
        default=None,
        minimum=0,
        maximum=20,
        min_length=1,
        max_length=100,
    ),
    Param(
        "attack",
        **STAT,
        label=N_("Attack"),
        help=N_("The shooters' Attack: a hit needs a higher roll."),
        rule_id="kensei.hit-roll",
    ),
    Param(
        "defense",
        **STAT,
        label=N_("Defense"),
        help=N_("Defense of the target's highest-ranked model: a lower roll cancels a hit."),
        rule_id="kensei.defense-roll",
    ),
    Param("armor", **STAT, label=N_("Armor"), help=N_("The target's Armor."), rule_id="kensei.damage-roll"),
    Param(
        "range",
        "choice",
        N_("Range"),
        N_("Short range helps the Attack roll, long range hinders it; out of range, nothing hits."),
        "kensei.firing",
        default="normal",
        choices=("short", "normal", "long", "out"),
    ),
    Param(
        "precision",
        "bool",
        N_("Greater Precision"),
        N_("The shot costs more action points and improves the Attack."),
        "kensei.greater-precision",
        default=False,
    ),
    Param(
        "second_shot",
        "bool",
        N_("Second shot"),
        N_("This volley is the second of Multiple Shots, at worse Attack."),
        "kensei.multiple-shots",
        default=False,
    ),
    Param(
        "multiple_shots",
        "bool",
        N_("Both volleys of Multiple Shots"),
        N_("Shoot, reload and shoot again: the total of both volleys, the second at worse Attack."),
        "kensei.multiple-shots",
        default=False,
    ),
    Param(
        "moved",
        "choice",
        N_("Shooters moved"),
        N_("Marching or running before shooting worsens the Attack."),
        "kensei.moving-before-shooting",
        default="none",
        choices=("none", "march", "run"),
    ),
    Param(
        "cover",
        "choice",
        N_("Target's cover"),
        N_("Cover worsens the shooters' Attack, heavy cover more than light."),
        "kensei.cover",
        default="none",
        choices=("none", "light", "heavy"),
    ),
    Param(
        "shooter_in",
        "choice",
        N_("Shooters stand in"),
        N_("Shooting from deep forest or from a stream, brook, bog or ford worsens the Attack."),
        "kensei.deep-forest",
        default="none",
        choices=("none", "deep-forest", "water"),
    ),
    Param(
        "target_in_water",
        "bool",
        N_("Target in water"),
        N_("The target stands in a stream, brook, bog or ford, which lowers its Defense."),
        "kensei.shallow-water",
        default=False,
    ),
    DAMAGE_RULE_PARAM,
)


def _check(inputs: Any) -> None:
    if (inputs.dice is None) == (inputs.wounds is None):
        raise CalculatorInputError("dice", N_("give either {0} or {1}, not both and not neither"), ("dice", "wounds"))
    if inputs.second_shot and inputs.multiple_shots:
        raise CalculatorInputError(
            "second_shot", N_("cannot be combined with {0}, which already includes it"), ("multiple_shots",)
        )
    volleys = 2 if inputs.multiple_shots else 1
    if inputs.dice is not None and inputs.dice * volleys > MAX_DICE:
        raise CalculatorInputError(
            "dice",
            N_("must be at most {most} per volley with {0}, got {dice}"),
            ("multiple_shots",),
            {"most": MAX_DICE // volleys, "dice": inputs.dice},
        )
    if inputs.wounds is not None and _dice_from_wounds(inputs.wounds, inputs.rules) * volleys > MAX_DICE:
        raise CalculatorInputError(
            "wounds",
            N_("must give at most {most} dice per volley, got {dice}"),
            values={"most": MAX_DICE // volleys, "dice": _dice_from_wounds(inputs.wounds, inputs.rules)},
        )


ShootingInputs = make_inputs("ShootingInputs", PARAMS, _check, "Inputs of a ranged attack.", __name__)

_RANGE_KEYS = {"short": "short_range", "long": "long_range"}
_MOVED_KEYS = {"march": "marched", "run": "ran"}
_COVER_RULES = {"light": "kensei.light-cover", "heavy": "kensei.heavy-cover"}
_SHOOTER_RULES = {"deep-forest": "kensei.deep-forest", "water": "kensei.shallow-water"}


@dataclass(frozen=True)
class ShootingResult(Result):
    """Total Wounds of the volley (both volleys with Multiple Shots)."""

    NAME = "shooting"
    dice: int
    volleys: int
    effective_attack: int
    effective_defense: int
    wounds: Distribution
    steps: tuple[Step, ...]

    def payload(self) -> dict[str, Any]:
        return {
            "dice": self.dice,
            "volleys": self.volleys,
            "effective_attack": self.effective_attack,
            "effective_defense": self.effective_defense,
            **self.wounds.to_json(),
        }

    def figures(self) -> tuple[Figure, ...]:
        return (
            Figure("dice", N_("Attack dice"), self.dice),
            Figure("effective_attack", N_("Effective Attack"), self.effective_attack),
            Figure("effective_defense", N_("Effective Defense"), self.effective_defense),
            Figure("mean", N_("Expected Wounds"), self.wounds.mean),
        )

    def tables(self) -> tuple[Table, ...]:
        return (self.wounds.table("pmf", N_("Wounds dealt"), N_("Wounds")),)


def _dice_from_wounds(wounds: tuple[int, ...], rules: RuleValues) -> int:
    return sum(wounds) * rules.value("kensei.shooting-dice", "dice_per_wound")


def attack_modifiers(inputs: Any) -> list[Step]:
    """Every modifier to the shooters' Attack, each with its rule (not the Multiple Shots one)."""
    rules = inputs.rules
    steps = []
    if inputs.range in _RANGE_KEYS:
        key = _RANGE_KEYS[inputs.range]
        label = N_("Short range") if inputs.range == "short" else N_("Long range")
        steps.append(Step("kensei.firing", key, label, rules.value("kensei.firing", key), "modifier"))
    if inputs.precision:
        steps.append(
            Step(
                "kensei.greater-precision",
                "precision",
                N_("Greater Precision"),
                rules.value("kensei.greater-precision", "attack"),
                "modifier",
            )
        )
    if inputs.second_shot:
        steps.append(
            Step(
                "kensei.multiple-shots",
                "second_shot",
                N_("Second shot"),
                rules.value("kensei.multiple-shots", "second_shot_attack"),
                "modifier",
            )
        )
    if inputs.moved in _MOVED_KEYS:
        key = _MOVED_KEYS[inputs.moved]
        label = N_("Shooters marched") if inputs.moved == "march" else N_("Shooters ran")
        steps.append(
            Step(
                "kensei.moving-before-shooting",
                key,
                label,
                rules.value("kensei.moving-before-shooting", key),
                "modifier",
            )
        )
    if inputs.cover in _COVER_RULES:
        rule = _COVER_RULES[inputs.cover]
        label = N_("Target in light cover") if inputs.cover == "light" else N_("Target in heavy cover")
        steps.append(Step(rule, "cover", label, rules.value(rule, "ranged_attack"), "modifier"))
    if inputs.shooter_in in _SHOOTER_RULES:
        rule = _SHOOTER_RULES[inputs.shooter_in]
        label = N_("Shooters in deep forest") if inputs.shooter_in == "deep-forest" else N_("Shooters in water")
        steps.append(Step(rule, "shooter_in", label, rules.value(rule, "shooting_attack"), "modifier"))
    return steps


def compute(inputs: Any) -> ShootingResult:
    """The exact distribution of the Wounds a volley deals.

    Args:
        inputs: a :data:`ShootingInputs`.
    """
    rules = inputs.rules
    per_volley = inputs.dice if inputs.dice is not None else _dice_from_wounds(inputs.wounds, rules)
    volleys = 2 if inputs.multiple_shots else 1
    steps = [Step("kensei.shooting-dice", "dice", N_("Attack dice per volley"), per_volley)]
    steps.append(Step("kensei.hit-roll", "attack", N_("Attack"), inputs.attack))
    modifiers = attack_modifiers(inputs)
    effective_attack = inputs.attack + sum(int(step.value) for step in modifiers)
    steps += [
        *modifiers,
        Step("kensei.hit-roll", "effective_attack", N_("Effective Attack"), effective_attack),
    ]

    steps.append(Step("kensei.defense-roll", "defense", N_("Defense"), inputs.defense))
    effective_defense = inputs.defense
    if inputs.target_in_water:
        water = rules.value("kensei.shallow-water", "defense")
        effective_defense += water
        steps.append(Step("kensei.shallow-water", "target_in_water", N_("Target in water"), water, "modifier"))
    steps.append(Step("kensei.defense-roll", "effective_defense", N_("Effective Defense"), effective_defense))
    steps.append(
        Step(
            "kensei.roll-of-ten",
            "roll_of_ten",
            N_("Defense against a Roll of Ten"),
            -rules.value("kensei.roll-of-ten", "defense_reduction"),
            "modifier",
        )
    )
    steps.append(Step("kensei.damage-roll", "damage_rule", N_("Damage reading"), inputs.damage_rule, "text"))

    attacks = [effective_attack]
    if inputs.multiple_shots:
        second = effective_attack + rules.value("kensei.multiple-shots", "second_shot_attack")
        attacks.append(second)
        steps.append(
            Step(
                "kensei.multiple-shots",
                "second_volley_attack",
                N_("Effective Attack of the second volley"),
                second,
            )
        )
    if inputs.range == "out":
        steps.append(Step("kensei.firing", "out_of_range", N_("Out of range: the shot is spent, no hit"), 0))
        total = Pmf.point(0)
    else:
        total = Pmf.point(0)
        for attack in attacks:
            die = strike_die(attack, effective_defense, inputs.armor, inputs.damage_rule, rules)
            total = total + die.sum_of(per_volley)
        die = strike_die(effective_attack, effective_defense, inputs.armor, inputs.damage_rule, rules)
        hits, faces = hit_chance(effective_attack, rules)
        steps.append(
            Step("kensei.hit-roll", "p_hit", N_("Chance that a die hits"), Fraction(hits, faces), "probability")
        )
        if hits:
            steps.append(
                Step(
                    "kensei.defense-roll",
                    "p_through",
                    N_("Chance that a hit gets through Defense"),
                    through_chance(effective_attack, effective_defense, rules),
                    "probability",
                )
            )
        steps.append(
            Step(
                "kensei.damage-roll",
                "p_damage",
                N_("Chance that a Damage roll deals Wounds"),
                damage_chance(inputs.armor, inputs.damage_rule, rules),
                "probability",
            )
        )
        steps.append(
            Step(
                "kensei.damage-roll",
                "p_die_wounds",
                N_("Chance that a die deals Wounds"),
                1 - die.probability(0),
                "probability",
            )
        )
        steps.append(Step("kensei.damage-roll", "die_mean", N_("Expected Wounds per die"), die.mean()))
    return ShootingResult(
        per_volley * volleys,
        volleys,
        effective_attack,
        effective_defense,
        Distribution.of(total),
        tuple(steps),
    )


CALCULATOR = Calculator("shooting", N_("Ranged attack"), "kensei.firing", "kensei", ShootingInputs, compute)
run = CALCULATOR.run

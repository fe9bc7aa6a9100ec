"""Ranged attacks in Kensei: the Wounds a unit's volley deals (design section 8, ranged attacks).

>>> result = run({"wounds": [2, 2, 2, 1], "attack": 6, "defense": 5, "armor": 3})
>>> result["dice"], result["effective_attack"]
(7, 6)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any

from .action_points import UNIT_TYPES
from .choices import COVER, COVER_RULES, NONE
from .errors import CalculatorInputError
from .inputs import make_inputs
from .kensei_dice import (
    DAMAGE_RULE_PARAM,
    DEFENSE_RULE_PARAM,
    damage_chance,
    defense_reading_steps,
    hit_chance,
    strike_die,
    through_chance,
)
from .orders import action_cost
from .params import CHARACTERISTIC, N_, Nn_, Param, characteristic, choice, flag, whole_number
from .pmf import Pmf
from .registry import Calculator
from .results import Distribution, Result, Step, Tabled, entry, figure
from .rulebook import RuleValues

MAX_DICE = 200
"""Most attack dice in one volley: keeps every volley under a second."""

RANGES = ("short", "normal", "long", "out")
"""The range bands of kensei.firing; out of range, nothing hits."""

RANGE_MODIFIERS = {"short": ("short_range", N_("Short range")), "long": ("long_range", N_("Long range"))}
"""The range bands that change the Attack: the key of their value in kensei.firing, and their label."""

MOVED_MODIFIERS = {"march": ("marched", N_("Shooters marched")), "run": ("ran", N_("Shooters ran"))}
"""How the shooters moved: the key of its value in kensei.moving-before-shooting, and its label."""

COVER_LABELS = {"light": N_("Target in light cover"), "heavy": N_("Target in heavy cover")}

SHOOTER_IN = {
    "deep-forest": ("kensei.deep-forest", N_("Shooters in deep forest")),
    "water": ("kensei.shallow-water", N_("Shooters in water")),
}
"""Where the shooters stand, when it changes the Attack: the rule, and the label."""

MAX_MODELS = 100
"""Most models in one shooting unit (as many as the per-model list of Wounds takes)."""

SHOOTERS = (("dice",), ("wounds",), ("models", "wounds_each"))
"""The ways of giving the shooters, of which exactly one is used: the number of dice, the Wounds
of each model (a mixed unit), or the number of models and the Wounds each has."""

PARAMS = (
    whole_number(
        "dice",
        N_("Attack dice"),
        N_("Number of dice rolled, instead of the models and their Wounds."),
        "kensei.shooting-dice",
        0,
        MAX_DICE,
        default=None,
    ),
    Param(
        "wounds",
        "int_list",
        N_("Wounds of each model"),
        N_("For a unit whose models have different Wounds, e.g. 2,2,2,1, instead of the models and their Wounds."),
        "kensei.shooting-dice",
        default=None,
        minimum=CHARACTERISTIC["minimum"],
        maximum=CHARACTERISTIC["maximum"],
        min_length=1,
        max_length=MAX_MODELS,
    ),
    whole_number(
        "models", N_("Models"), N_("Models of the unit that fire."), "kensei.shooting-dice", 1, MAX_MODELS, default=None
    ),
    whole_number(
        "wounds_each",
        N_("Wounds each"),
        N_("Remaining Wounds of each of these models: one die per Wound."),
        "kensei.shooting-dice",
        1,
        CHARACTERISTIC["maximum"],
        default=None,
    ),
    characteristic("attack", N_("Attack"), N_("The shooters' Attack: a hit needs a higher roll."), "kensei.hit-roll"),
    characteristic(
        "defense",
        N_("Defense"),
        N_("Defense of the target's highest-ranked model: a lower roll cancels a hit."),
        "kensei.defense-roll",
    ),
    characteristic("armor", N_("Armor"), N_("The target's Armor."), "kensei.damage-roll"),
    choice(
        "range",
        N_("Range"),
        N_("Short range helps the Attack roll, long range hinders it; out of range, nothing hits."),
        "kensei.firing",
        RANGES,
        default="normal",
    ),
    flag(
        "precision",
        N_("Greater Precision"),
        N_("The shot costs more action points and improves the Attack."),
        "kensei.greater-precision",
    ),
    flag(
        "second_shot",
        N_("Second shot"),
        N_("This volley is the second of Multiple Shots, at worse Attack."),
        "kensei.multiple-shots",
    ),
    flag(
        "multiple_shots",
        N_("Both volleys of Multiple Shots"),
        N_("Shoot, reload and shoot again: the total of both volleys, the second at worse Attack."),
        "kensei.multiple-shots",
    ),
    choice(
        "moved",
        N_("Shooters moved"),
        N_("Marching or running before shooting worsens the Attack."),
        "kensei.moving-before-shooting",
        (NONE, *MOVED_MODIFIERS),
    ),
    choice(
        "cover",
        N_("Target's cover"),
        N_("Cover worsens the shooters' Attack, heavy cover more than light."),
        "kensei.cover",
        COVER,
    ),
    choice(
        "shooter_in",
        N_("Shooters stand in"),
        N_("Shooting from deep forest or from a stream, brook, bog or ford worsens the Attack."),
        "kensei.deep-forest",
        (NONE, *SHOOTER_IN),
    ),
    flag(
        "target_in_water",
        N_("Target in water"),
        N_("The target stands in a stream, brook, bog or ford, which lowers its Defense."),
        "kensei.shallow-water",
    ),
    DAMAGE_RULE_PARAM,
    DEFENSE_RULE_PARAM,
)


def _check_shooters(inputs: Any) -> None:
    """Exactly one way of giving the shooters (:data:`SHOOTERS`), and both numbers of the models' way."""
    given = [way for way in SHOOTERS if any(getattr(inputs, name) is not None for name in way)]
    if len(given) != 1:
        at = "wounds" if given == [SHOOTERS[1], SHOOTERS[2]] else "dice"
        raise CalculatorInputError(
            at,
            N_("give either {0} or {1} or {2} with {3}, exactly one of them"),
            ("dice", "wounds", "models", "wounds_each"),
        )
    if given[0] == SHOOTERS[2]:
        missing = "models" if inputs.models is None else "wounds_each" if inputs.wounds_each is None else None
        if missing is not None:
            other = "wounds_each" if missing == "models" else "models"
            raise CalculatorInputError(missing, N_("is needed with {0}"), (other,))


def declared_orders(inputs: Any) -> tuple[str, ...]:
    """The cheapest orders that give the shot described: a Movement first if the shooters moved; fire,
    reload, fire for Multiple Shots (or its second volley); one shot with Greater Precision."""
    shots = ("fire", "reload", "fire") if inputs.second_shot or inputs.multiple_shots else ("fire",)
    if inputs.precision:
        shots = ("precise-fire", *shots[1:])
    return (inputs.moved,) * (inputs.moved in MOVED_MODIFIERS) + shots


def _check_action_points(inputs: Any) -> None:
    """A shot that needs more action points than any unit has is refused (kensei.action-points): the
    Attack modifiers of Greater Precision, Multiple Shots and a move would otherwise add up to a volley
    no unit can declare."""
    rules = inputs.rules
    needed = sum(action_cost(action, rules) for action in declared_orders(inputs))
    most = max(rules.value("kensei.action-points", unit_type) for unit_type in UNIT_TYPES)
    if needed > most:
        volleys = "multiple_shots" if inputs.multiple_shots else "second_shot"
        field, other = ("precision", volleys) if inputs.precision else ("moved", volleys)
        raise CalculatorInputError(
            field,
            Nn_(
                "cannot go with {0}: together they need {needed} action point; no unit has more than {most}",
                "cannot go with {0}: together they need {needed} action points; no unit has more than {most}",
                "needed",
            ),
            (other,),
            {"needed": needed, "most": most},
        )


def _check(inputs: Any) -> None:
    _check_shooters(inputs)
    if inputs.second_shot and inputs.multiple_shots:
        raise CalculatorInputError(
            "second_shot", N_("cannot be combined with {0}, which already includes it"), ("multiple_shots",)
        )
    _check_action_points(inputs)
    volleys = 2 if inputs.multiple_shots else 1
    if inputs.dice is not None and inputs.dice * volleys > MAX_DICE:
        raise CalculatorInputError(
            "dice",
            N_("must be at most {most} per volley with {0}, got {dice}"),
            ("multiple_shots",),
            {"most": MAX_DICE // volleys, "dice": inputs.dice},
        )
    if inputs.dice is None and _dice_per_volley(inputs) * volleys > MAX_DICE:
        raise CalculatorInputError(
            "wounds" if inputs.wounds is not None else "models",
            Nn_(
                "must give at most {most} die per volley, got {dice}",
                "must give at most {most} dice per volley, got {dice}",
                "most",
            ),
            values={"most": MAX_DICE // volleys, "dice": _dice_per_volley(inputs)},
        )


ShootingInputs = make_inputs("ShootingInputs", PARAMS, _check, "Inputs of a ranged attack.", __name__)


@dataclass(frozen=True)
class ShootingResult(Result):
    """Total Wounds of the volley (both volleys with Multiple Shots)."""

    NAME = "shooting"
    dice: Annotated[int, figure(N_("Attack dice"))]
    volleys: Annotated[int, entry()]
    effective_attack: Annotated[int, figure(N_("Effective Attack"))]
    effective_defense: Annotated[int, figure(N_("Effective Defense"))]
    wounds: Annotated[Distribution, Tabled("pmf", N_("Wounds dealt"), N_("Wounds"), ("mean", N_("Expected Wounds")))]


def _dice_from_wounds(wounds: tuple[int, ...], rules: RuleValues) -> int:
    return sum(wounds) * rules.value("kensei.shooting-dice", "dice_per_wound")


def _dice_per_volley(inputs: Any) -> int:
    """The dice of one volley, however the shooters were given."""
    if inputs.dice is not None:
        return int(inputs.dice)
    if inputs.wounds is not None:
        return _dice_from_wounds(inputs.wounds, inputs.rules)
    return _dice_from_wounds((inputs.wounds_each,) * inputs.models, inputs.rules)


def shooter_steps(inputs: Any) -> list[Step]:
    """The shooters as given, when the dice are derived from models and their Wounds."""
    if inputs.models is None:
        return []
    return [
        Step("kensei.shooting-dice", "models", N_("Models"), inputs.models, "number"),
        Step("kensei.shooting-dice", "wounds_each", N_("Wounds each"), inputs.wounds_each, "number"),
    ]


def _modifier(rules: RuleValues, rule: str, key: str, label: str, value_key: str) -> Step:
    """A step that adds the number ``value_key`` of ``rule`` to the roll."""
    return Step(rule, key, label, rules.value(rule, value_key), "modifier")


def attack_modifiers(inputs: Any) -> list[Step]:
    """Every modifier to the shooters' Attack, each with its rule (not the Multiple Shots one)."""
    rules = inputs.rules
    steps = []
    if inputs.range in RANGE_MODIFIERS:
        key, label = RANGE_MODIFIERS[inputs.range]
        steps.append(_modifier(rules, "kensei.firing", key, label, key))
    if inputs.precision:
        steps.append(_modifier(rules, "kensei.greater-precision", "precision", N_("Greater Precision"), "attack"))
    if inputs.second_shot:
        steps.append(_modifier(rules, "kensei.multiple-shots", "second_shot", N_("Second shot"), "second_shot_attack"))
    if inputs.moved in MOVED_MODIFIERS:
        key, label = MOVED_MODIFIERS[inputs.moved]
        steps.append(_modifier(rules, "kensei.moving-before-shooting", key, label, key))
    if inputs.cover in COVER_RULES:
        steps.append(_modifier(rules, COVER_RULES[inputs.cover], "cover", COVER_LABELS[inputs.cover], "ranged_attack"))
    if inputs.shooter_in in SHOOTER_IN:
        rule, label = SHOOTER_IN[inputs.shooter_in]
        steps.append(_modifier(rules, rule, "shooter_in", label, "shooting_attack"))
    return steps


def effective_attack(inputs: Any) -> tuple[int, list[Step]]:
    """The shooters' Attack with every modifier, and the steps that show it."""
    modifiers = attack_modifiers(inputs)
    attack = inputs.attack + sum(int(step.value) for step in modifiers)
    return attack, [
        Step("kensei.hit-roll", "attack", N_("Attack"), inputs.attack),
        *modifiers,
        ShootingResult.step("effective_attack", "kensei.hit-roll", attack),
    ]


def effective_defense(inputs: Any) -> tuple[int, list[Step]]:
    """The target's Defense (lower in water), and the steps that show it, the Roll of Ten's included.

    The Roll of Ten lowers it only for the hits rolled on a ten: that is a step here, and the
    per-die distribution (:func:`~calculators.kensei_dice.strike_die`) applies it.
    """
    rules = inputs.rules
    defense = inputs.defense
    steps = [Step("kensei.defense-roll", "defense", N_("Defense"), defense)]
    if inputs.target_in_water:
        water = rules.value("kensei.shallow-water", "defense")
        defense += water
        steps.append(Step("kensei.shallow-water", "target_in_water", N_("Target in water"), water, "modifier"))
    steps.append(ShootingResult.step("effective_defense", "kensei.defense-roll", defense))
    reduction = rules.value("kensei.roll-of-ten", "defense_reduction")
    steps.append(Step("kensei.roll-of-ten", "roll_of_ten", N_("Defense against a Roll of Ten"), -reduction, "modifier"))
    return defense, steps


def volley_attacks(inputs: Any, attack: int) -> tuple[list[int], list[Step]]:
    """The effective Attack of each volley: with Multiple Shots, the second at worse Attack."""
    if not inputs.multiple_shots:
        return [attack], []
    second = attack + inputs.rules.value("kensei.multiple-shots", "second_shot_attack")
    label = N_("Effective Attack of the second volley")
    return [attack, second], [Step("kensei.multiple-shots", "second_volley_attack", label, second)]


def die_chances(die: Pmf, attack: int, defense: int, inputs: Any) -> list[Step]:
    """One die of the first volley, roll by roll: to hit, through Defense, to wound, and its Wounds."""
    rules = inputs.rules
    hits, faces = hit_chance(attack, rules)
    steps = [Step("kensei.hit-roll", "p_hit", N_("Chance that a die hits"), Fraction(hits, faces), "probability")]
    if hits:  # a chance given a hit means nothing when no face hits
        p_through = through_chance(attack, defense, rules, inputs.defense_rule)
        label = N_("Chance that a hit gets through Defense")
        steps.append(Step("kensei.defense-roll", "p_through", label, p_through, "probability"))
    p_damage = damage_chance(inputs.armor, inputs.damage_rule, rules)
    p_die_wounds = 1 - die.probability(0)
    return [
        *steps,
        Step("kensei.damage-roll", "p_damage", N_("Chance that a Damage roll deals Wounds"), p_damage, "probability"),
        Step("kensei.damage-roll", "p_die_wounds", N_("Chance that a die deals Wounds"), p_die_wounds, "probability"),
        Step("kensei.damage-roll", "die_mean", N_("Expected Wounds per die"), die.mean()),
    ]


def compute(inputs: Any) -> ShootingResult:
    """The exact distribution of the Wounds a volley deals.

    Args:
        inputs: a :data:`ShootingInputs`.
    """
    rules = inputs.rules
    per_volley = _dice_per_volley(inputs)
    attack, attack_steps = effective_attack(inputs)
    defense, defense_steps = effective_defense(inputs)
    attacks, volley_steps = volley_attacks(inputs, attack)
    steps = [
        *shooter_steps(inputs),
        Step("kensei.shooting-dice", "dice", N_("Attack dice per volley"), per_volley),
        *attack_steps,
        *defense_steps,
        *defense_reading_steps(inputs.defense_rule),
        Step("kensei.damage-roll", "damage_rule", N_("Damage reading"), inputs.damage_rule, "text"),
        *volley_steps,
    ]
    total = Pmf.point(0)
    if inputs.range == "out":
        steps.append(Step("kensei.firing", "out_of_range", N_("Out of range: the shot is spent, no hit"), 0))
    else:
        reading = (inputs.damage_rule, rules, inputs.defense_rule)
        dice = [strike_die(each, defense, inputs.armor, *reading) for each in attacks]
        for die in dice:
            total = total + die.sum_of(per_volley)
        steps += die_chances(dice[0], attack, defense, inputs)
    return ShootingResult(
        per_volley * len(attacks), len(attacks), attack, defense, Distribution.of(total), steps=tuple(steps)
    )


CALCULATOR = Calculator(
    N_("Ranged attack"),
    "kensei.firing",
    "kensei",
    ShootingInputs,
    ShootingResult,
    compute,
    question=N_("How many Wounds a volley deals, and the chance of each number."),
)
run = CALCULATOR.run

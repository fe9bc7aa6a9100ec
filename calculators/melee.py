"""One round of Kensei melee between two units (design section 8, melee combat).

Initiative decides who strikes first (an opposed d10 + Initiative, ties rolled again). The first
striker rolls all its combat dice; the Wounds it deals are removed before the other unit strikes
with what it has left, and a unit wiped out does not strike back. Victory, draw or defeat follows
from the Damage Difference (Wounds dealt by A minus Wounds dealt by B). Side A is the player's own
unit, side B the enemy unit (:data:`~calculators.choices.SIDE_NAMES`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from math import lcm
from typing import Any

from .choices import COVER, COVER_RULES, NONE, SIDES
from .errors import CalculatorInputError
from .inputs import make_inputs
from .kensei_dice import DEFENSE_RULE_PARAM, defense_reading_steps, strike_die
from .params import N_, Nn_, Param, characteristic, choice, count, flag, whole_number
from .pmf import Pmf
from .registry import Calculator
from .results import Distribution, Figure, Result, Step, StepKind, Table, Value, tail_sums, to_floats
from .rulebook import LOWEST_FACE, RuleValues, d10_faces

MAX_WOUNDS = 200
"""Most Wounds (and models) a side may have: keeps every combat under a second."""

MAX_EXTRA_DICE = 20
MAX_DEFENSIVE = 10


CHARGE_ATTACK_KEYS = {"infantry": "infantry_attack", "cavalry": "cavalry_attack", "large": "infantry_attack"}
"""Who charged, and the key of its Attack modifier in kensei.charge-bonuses: infantry, creatures and
harassers on foot; cavalry and mounted harassers; large creatures (which charge as infantry)."""

SIDE_PARAMS = (
    whole_number(
        "models",
        N_("Models"),
        N_("Models in the unit; outnumbering compares them."),
        "kensei.outnumbering",
        1,
        MAX_WOUNDS,
    ),
    whole_number(
        "wounds",
        N_("Wounds"),
        N_("The unit's remaining Wounds: one combat die each."),
        "kensei.combat-dice",
        1,
        MAX_WOUNDS,
    ),
    characteristic(
        "attack", N_("Attack"), N_("A hit needs a roll higher than the Attack."), "kensei.melee-attack-roll"
    ),
    characteristic(
        "defense", N_("Defense"), N_("A Defense roll lower than it cancels a hit."), "kensei.melee-defense-roll"
    ),
    characteristic("armor", N_("Armor"), N_("A Damage roll must beat it to wound."), "kensei.melee-damage-roll"),
    characteristic(
        "initiative",
        N_("Initiative"),
        N_("Added to the d10 that decides who strikes first."),
        "kensei.initiative-resolution",
    ),
    choice(
        "charge",
        N_("Charged this turn"),
        N_("Infantry, creatures and harassers on foot; cavalry and mounted harassers; large creatures."),
        "kensei.charge-bonuses",
        (NONE, *CHARGE_ATTACK_KEYS),
    ),
    choice("cover", N_("Cover"), N_("Cover in melee raises Defense and Initiative."), "kensei.cover", COVER),
    flag("in_water", N_("In water"), N_("The unit stands in a stream, brook, bog or ford."), "kensei.shallow-water"),
    count(
        "defensive",
        N_("Defensive Position"),
        N_("Defense bought with combat dice; not for a unit that charged or counter-charged."),
        "kensei.defensive-position",
        MAX_DEFENSIVE,
    ),
    count(
        "extra_dice",
        N_("Extra combat dice"),
        N_("Dice from weapons or abilities."),
        "kensei.combat-dice",
        MAX_EXTRA_DICE,
    ),
    flag(
        "counter_charge",
        N_("Won against a counter-charge"),
        N_("The unit's charge or counter-charge succeeded against a counter-charge: bonus dice."),
        "kensei.counter-charge",
    ),
)
"""Each side's inputs, named without the side (``models``, not ``a_models``)."""


def _side_params(side: str) -> tuple[Param, ...]:
    """The inputs of side ``side``: ``a_models``, ``a_wounds``... grouped under the side."""
    return tuple(replace(param, name=f"{side}_{param.name}", group=side) for param in SIDE_PARAMS)


PARAMS = (
    *(param for side in SIDES for param in _side_params(side)),
    choice(
        "first",
        N_("Who strikes first"),
        N_("Roll for it: the opposed Initiative roll decides; or your unit, or the enemy unit, strikes first."),
        "kensei.initiative-resolution",
        ("roll", *SIDES),
    ),
    DEFENSE_RULE_PARAM,
)


@dataclass(frozen=True)
class Side:
    """A unit's figures for the combat, every modifier applied."""

    name: str
    wounds: int
    bonus_dice: int
    effective_attack: int
    effective_defense: int
    armor: int
    initiative: int

    def combat_dice(self, wounds_left: int) -> int:
        """Dice rolled with ``wounds_left`` Wounds: none once wiped out (kensei.combat-dice)."""
        return max(0, wounds_left + self.bonus_dice) if wounds_left > 0 else 0


def _field(inputs: Any, side: str, name: str) -> Any:
    return getattr(inputs, f"{side}_{name}")


def outnumbering(own_models: int, enemy_models: int, rules: RuleValues) -> int:
    """Bonus dice when the enemy has at most a third, or at most half, as many models."""
    if enemy_models * rules.value("kensei.outnumbering", "third_ratio") <= own_models:
        return rules.value("kensei.outnumbering", "third_bonus")
    if enemy_models * rules.value("kensei.outnumbering", "half_ratio") <= own_models:
        return rules.value("kensei.outnumbering", "half_bonus")
    return 0


def _check(inputs: Any) -> None:
    for side in SIDES:
        models, wounds = _field(inputs, side, "models"), _field(inputs, side, "wounds")
        if models > wounds:
            raise CalculatorInputError(
                f"{side}_models",
                N_("must be at most {0} ({wounds}): every model has a Wound"),
                (f"{side}_wounds",),
                {"wounds": wounds},
            )
        if _field(inputs, side, "defensive"):
            if _field(inputs, side, "charge") != NONE or _field(inputs, side, "counter_charge"):
                raise CalculatorInputError(
                    f"{side}_defensive",
                    N_("must be 0 for a unit that charged or counter-charged ({0}, {1})"),
                    (f"{side}_charge", f"{side}_counter_charge"),
                )
            dice = _dice_before_defense(inputs, side)
            cost = _field(inputs, side, "defensive") * inputs.rules.value(
                "kensei.defensive-position", "dice_per_defense"
            )
            if cost > dice:
                raise CalculatorInputError(
                    f"{side}_defensive",
                    Nn_(
                        "costs {cost} combat die but the unit has only {dice}",
                        "costs {cost} combat dice but the unit has only {dice}",
                        "cost",
                    ),
                    values={"cost": cost, "dice": dice},
                )


def _other(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


def _dice_before_defense(inputs: Any, side: str) -> int:
    rules: RuleValues = inputs.rules
    other = _other(side)
    dice: int = _field(inputs, side, "wounds") + _field(inputs, side, "extra_dice")
    dice += outnumbering(_field(inputs, side, "models"), _field(inputs, other, "models"), rules)
    if _field(inputs, side, "counter_charge"):
        dice += rules.value("kensei.counter-charge", "bonus_dice")
    return dice


MeleeInputs = make_inputs("MeleeInputs", PARAMS, _check, "Inputs of one round of melee.", __name__)


class SideSteps:
    """The steps of one side's figures: keys prefixed with the side, grouped under it."""

    def __init__(self, side: str, steps: list[Step]) -> None:
        self.side = side
        self.steps = steps

    def add(self, rule: str, key: str, label: str, value: Value, kind: StepKind = "modifier") -> None:
        self.steps.append(Step(rule, f"{self.side}_{key}", label, value, kind, group=self.side))

    def modifier(self, rule: str, key: str, label: str, value: int) -> int:
        """``value``, recorded as a modifier (so that it is stated once where it is added)."""
        self.add(rule, key, label, value)
        return value


def combat_dice_bonus(inputs: Any, side: str, record: SideSteps) -> int:
    """Dice added to (or, for Defensive Position, taken from) the one per Wound (kensei.combat-dice)."""
    rules = inputs.rules
    bonus = 0
    outnumbering_dice = outnumbering(_field(inputs, side, "models"), _field(inputs, _other(side), "models"), rules)
    if outnumbering_dice:
        bonus += record.modifier("kensei.outnumbering", "outnumbering", N_("Outnumbering"), outnumbering_dice)
    if _field(inputs, side, "counter_charge"):
        dice = rules.value("kensei.counter-charge", "bonus_dice")
        bonus += record.modifier("kensei.counter-charge", "counter_charge", N_("Won against a counter-charge"), dice)
    if extra := _field(inputs, side, "extra_dice"):
        bonus += record.modifier("kensei.combat-dice", "extra_dice", N_("Extra combat dice"), extra)
    if defensive := _field(inputs, side, "defensive"):
        dice = defensive * rules.value("kensei.defensive-position", "dice_per_defense")
        label = N_("Dice given up for Defensive Position")
        bonus += record.modifier("kensei.defensive-position", "defensive_dice", label, -dice)
    return bonus


def charge_bonuses(inputs: Any, side: str, record: SideSteps) -> tuple[int, int]:
    """The Attack and Initiative modifiers of a unit that charged (kensei.charge-bonuses)."""
    charge = _field(inputs, side, "charge")
    if charge == NONE:
        return 0, 0
    rules = inputs.rules
    attack = rules.value("kensei.charge-bonuses", CHARGE_ATTACK_KEYS[charge])
    record.add("kensei.charge-bonuses", "charge_attack", N_("Charge: Attack"), attack)
    initiative = rules.value("kensei.charge-bonuses", "initiative")
    record.add("kensei.charge-bonuses", "charge_initiative", N_("Charge: Initiative"), initiative)
    return attack, initiative


def defense_bonuses(inputs: Any, side: str, record: SideSteps) -> tuple[int, int]:
    """The Defense and Initiative modifiers of cover, Defensive Position and water."""
    rules = inputs.rules
    defense = initiative = 0
    cover = _field(inputs, side, "cover")
    if cover in COVER_RULES:
        rule = COVER_RULES[cover]
        defense += record.modifier(rule, "cover_defense", N_("Cover: Defense"), rules.value(rule, "melee_defense"))
        initiative += record.modifier(
            rule, "cover_initiative", N_("Cover: Initiative"), rules.value(rule, "melee_initiative")
        )
    if defensive := _field(inputs, side, "defensive"):
        raised = defensive * rules.value("kensei.defensive-position", "defense")
        label = N_("Defensive Position: Defense")
        defense += record.modifier("kensei.defensive-position", "defensive_defense", label, raised)
    if _field(inputs, side, "in_water"):
        water = rules.value("kensei.shallow-water", "defense")
        defense += record.modifier("kensei.shallow-water", "in_water", N_("In water: Defense"), water)
    return defense, initiative


def side_figures(inputs: Any, side: str, steps: list[Step]) -> Side:
    """Side ``side``'s dice, Attack, Defense and Initiative, each modifier recorded in ``steps``."""
    record = SideSteps(side, steps)
    wounds = _field(inputs, side, "wounds")
    record.add("kensei.combat-dice", "wounds", N_("Combat dice from Wounds"), wounds, "number")
    bonus = combat_dice_bonus(inputs, side, record)
    record.add("kensei.combat-dice", "combat_dice", N_("Combat dice"), max(0, wounds + bonus), "number")
    charge_attack, charge_initiative = charge_bonuses(inputs, side, record)
    attack = _field(inputs, side, "attack") + charge_attack
    record.add("kensei.melee-attack-roll", "effective_attack", N_("Effective Attack"), attack, "number")
    defense_bonus, cover_initiative = defense_bonuses(inputs, side, record)
    defense = _field(inputs, side, "defense") + defense_bonus
    initiative = _field(inputs, side, "initiative") + charge_initiative + cover_initiative
    record.add("kensei.melee-defense-roll", "effective_defense", N_("Effective Defense"), defense, "number")
    record.add("kensei.initiative-resolution", "initiative", N_("Initiative"), initiative, "number")
    return Side(side, wounds, bonus, attack, defense, _field(inputs, side, "armor"), initiative)


def first_strike_chance(a_initiative: int, b_initiative: int, rules: RuleValues) -> Fraction:
    """P(A strikes first): each side rolls d10 + Initiative, ties are rolled again."""
    faces = range(LOWEST_FACE, d10_faces(rules) + 1)
    a_wins = sum(a + a_initiative > b + b_initiative for a in faces for b in faces)
    b_wins = sum(a + a_initiative < b + b_initiative for a in faces for b in faces)
    return Fraction(a_wins, a_wins + b_wins)


@dataclass(frozen=True, eq=False, repr=False)
class Exchange:
    """Integer weights, over ``total``, of one strike order's outcome (or of both: :func:`both_orders`).

    ``difference[i]`` weighs (Wounds dealt by the first striker minus by the second) equal to
    ``i - first.wounds``; ``by_first`` and ``by_second`` weigh the Wounds each one deals.
    """

    difference: list[int]
    by_first: list[int]
    by_second: list[int]
    total: int


def exchange(first: Side, second: Side, first_die: Pmf, second_die: Pmf) -> Exchange:
    """The outcome when ``first`` strikes first.

    The second striker's distribution for each number of dice is computed once
    (``sums_up_to``), whatever the path that led to it.
    """
    dealt_first = first_die.sum_of(first.combat_dice(first.wounds)).capped(second.wounds)
    most = second.combat_dice(second.wounds)
    sums = second_die.sums_up_to(most)
    base = second_die.total
    difference = [0] * (first.wounds + second.wounds + 1)
    by_first = [0] * (second.wounds + 1)
    by_second = [0] * (first.wounds + 1)
    for x, weight in zip(dealt_first.outcomes, dealt_first.weights, strict=True):
        if not weight:
            continue
        dice = second.combat_dice(second.wounds - x)
        scale = weight * base ** (most - dice)  # to the common denominator base ** most
        dealt_second = sums[dice].capped(first.wounds)
        by_first[x] += scale * dealt_second.total
        for y, w in zip(dealt_second.outcomes, dealt_second.weights, strict=True):
            if w:
                w *= scale
                difference[x - y + first.wounds] += w
                by_second[y] += w
    return Exchange(difference, by_first, by_second, dealt_first.total * base**most)


@dataclass(frozen=True)
class MeleeResult(Result):
    """Side A's victory, draw and defeat, the Damage Difference and the Wounds each side deals."""

    NAME = "melee"
    a: Side
    b: Side
    p_a_first: Fraction
    damage_difference: tuple[Fraction, ...]  # from -a.wounds to b.wounds
    a_dealt: Distribution
    b_dealt: Distribution
    p_a_wiped: Fraction
    p_b_wiped: Fraction

    @property
    def victory(self) -> Fraction:
        return sum(self.damage_difference[self.a.wounds + 1 :], Fraction(0))

    @property
    def draw(self) -> Fraction:
        return self.damage_difference[self.a.wounds]

    @property
    def defeat(self) -> Fraction:
        return sum(self.damage_difference[: self.a.wounds], Fraction(0))

    def payload(self) -> dict[str, Any]:
        low = -self.a.wounds
        return {
            "p_a_first": float(self.p_a_first),
            "victory": float(self.victory),
            "draw": float(self.draw),
            "defeat": float(self.defeat),
            "damage_difference_pmf": {str(low + i): float(p) for i, p in enumerate(self.damage_difference)},
            "mean_damage_difference": float(self.a_dealt.mean - self.b_dealt.mean),
            "a_dealt_pmf": to_floats(self.a_dealt.pmf),
            "b_dealt_pmf": to_floats(self.b_dealt.pmf),
            "a_dealt_mean": float(self.a_dealt.mean),
            "b_dealt_mean": float(self.b_dealt.mean),
            "p_a_wiped": float(self.p_a_wiped),
            "p_b_wiped": float(self.p_b_wiped),
            "a_dice": self.a.combat_dice(self.a.wounds),
            "b_dice": self.b.combat_dice(self.b.wounds),
        }

    def figures(self) -> tuple[Figure, ...]:
        return (
            Figure("p_a_first", N_("Your unit strikes first"), self.p_a_first, "probability"),
            Figure("victory", N_("Victory for your unit"), self.victory, "probability"),
            Figure("draw", N_("Draw"), self.draw, "probability"),
            Figure("defeat", N_("Defeat for your unit"), self.defeat, "probability"),
            Figure("a_dealt_mean", N_("Expected Wounds dealt by your unit"), self.a_dealt.mean),
            Figure("b_dealt_mean", N_("Expected Wounds dealt by the enemy unit"), self.b_dealt.mean),
            Figure("p_a_wiped", N_("Your unit wiped out"), self.p_a_wiped, "probability"),
            Figure("p_b_wiped", N_("Enemy unit wiped out"), self.p_b_wiped, "probability"),
        )

    def tables(self) -> tuple[Table, ...]:
        low = -self.a.wounds
        return (
            Table(
                "damage_difference_pmf",
                N_("Damage Difference (yours minus the enemy's)"),
                N_("Difference"),
                tuple(range(low, self.b.wounds + 1)),
                self.damage_difference,
                tail_sums(self.damage_difference),
            ),
            self.a_dealt.table("a_dealt_pmf", N_("Wounds dealt by your unit"), N_("Wounds")),
            self.b_dealt.table("b_dealt_pmf", N_("Wounds dealt by the enemy unit"), N_("Wounds")),
        )


def a_strikes_first(inputs: Any, a: Side, b: Side) -> Fraction:
    """P(A strikes first): the opposed Initiative roll, unless a side is said to strike first."""
    if inputs.first == "roll":
        return first_strike_chance(a.initiative, b.initiative, inputs.rules)
    return Fraction(int(inputs.first == "a"))


def both_orders(a: Side, b: Side, a_die: Pmf, b_die: Pmf, p_a_first: Fraction) -> Exchange:
    """The outcome from A's side over both strike orders, in exact integer weights.

    Each order's weights are brought to one common denominator and weighted by the chance of
    that order; when B strikes first, its Damage Difference reversed is A's.
    """
    parts: list[tuple[int, Exchange]] = []
    chance_a, chance_b = p_a_first.numerator, p_a_first.denominator - p_a_first.numerator
    if chance_a:
        parts.append((chance_a, exchange(a, b, a_die, b_die)))
    if chance_b:
        ex = exchange(b, a, b_die, a_die)
        parts.append((chance_b, Exchange(ex.difference[::-1], ex.by_second, ex.by_first, ex.total)))
    common = lcm(*(part.total for _, part in parts))
    combined = Exchange([0] * (a.wounds + b.wounds + 1), [0] * (b.wounds + 1), [0] * (a.wounds + 1), 0)
    for chance, part in parts:
        scale = chance * (common // part.total)
        for target, source in zip(
            (combined.difference, combined.by_first, combined.by_second),
            (part.difference, part.by_first, part.by_second),
            strict=True,
        ):
            for i, weight in enumerate(source):
                target[i] += weight * scale
    return replace(combined, total=common * p_a_first.denominator)


def compute(inputs: Any) -> MeleeResult:
    """The exact outcome of one round of melee.

    Args:
        inputs: a :data:`MeleeInputs`.
    """
    steps: list[Step] = []
    a = side_figures(inputs, "a", steps)
    b = side_figures(inputs, "b", steps)
    p_a_first = a_strikes_first(inputs, a, b)
    label = N_("Chance that your unit strikes first")
    steps.append(Step("kensei.initiative-resolution", "p_a_first", label, p_a_first, "probability"))
    steps += defense_reading_steps(inputs.defense_rule)
    a_die = strike_die(a.effective_attack, b.effective_defense, b.armor, "threshold", inputs.rules, inputs.defense_rule)
    b_die = strike_die(b.effective_attack, a.effective_defense, a.armor, "threshold", inputs.rules, inputs.defense_rule)
    outcome = both_orders(a, b, a_die, b_die, p_a_first)
    steps.append(
        Step(
            "kensei.combat-resolution",
            "rule",
            N_("Damage Difference: Wounds dealt by your unit minus by the enemy unit"),
            N_("above 0 victory, 0 draw, below 0 defeat"),
            "text",
        )
    )
    denominator = outcome.total
    return MeleeResult(
        a,
        b,
        p_a_first,
        tuple(Fraction(w, denominator) for w in outcome.difference),
        Distribution.of(Pmf(tuple(outcome.by_first))),
        Distribution.of(Pmf(tuple(outcome.by_second))),
        Fraction(outcome.by_second[a.wounds], denominator),
        Fraction(outcome.by_first[b.wounds], denominator),
        steps=tuple(steps),
    )


CALCULATOR = Calculator(
    N_("Melee combat"),
    "kensei.combat-sequence",
    "kensei",
    MeleeInputs,
    MeleeResult,
    compute,
    question=N_("The chances of victory, draw and defeat for your unit, and the Wounds each side deals."),
)
run = CALCULATOR.run

"""One Kensei attack die: Attack roll, Defense roll and Damage roll (shared by shooting and melee).

Per die (kensei.hit-roll, kensei.roll-of-ten, kensei.defense-roll, kensei.damage-roll):

- it hits when the d10 is higher than the effective Attack; a hit on the highest face (the Roll
  of Ten) lowers the target's Defense for that hit;
- the target cancels the hit when its Defense roll is lower than its effective Defense (the
  ``lower`` reading, the texts'; ``at-most`` also cancels on a roll equal to it), and a Defense
  roll of 1 always cancels;
- the Damage roll deals Wounds by the ``threshold`` reading (1 nothing, 10 two Wounds, otherwise
  one Wound above Armor) or the ``subtractive`` one (roll minus Armor, 1 nothing, no doubling).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from .choices import DAMAGE_RULES, DEFENSE_RULES
from .params import N_, choice
from .pmf import Pmf
from .results import Step
from .rulebook import LOWEST_FACE, RuleValues, d10_faces

DAMAGE_RULE_PARAM = choice(
    "damage_rule",
    N_("Damage reading"),
    N_("Threshold: the Damage roll as melee reads it; subtractive: roll minus Armor, as the ranged text reads it."),
    "kensei.damage-roll",
    DAMAGE_RULES,
    default="threshold",
)
"""The two readings of the Damage roll (see the clarification on kensei.damage-roll)."""

DEFENSE_RULE_PARAM = choice(
    "defense_rule",
    N_("Defense reading"),
    N_("Whether a Defense roll equal to the Defense cancels the hit: the texts say only a lower roll does."),
    "kensei.defense-roll",
    DEFENSE_RULES,
    default="lower",
)
"""The two readings of the Defense roll; the texts' is the default (see the note it cites)."""
DEFENSE_READING_NOTE = "kensei.defense-roll#lower-than-defense"
"""The note on the Defense roll's readings, which a step showing the other reading cites."""


def defense_reading_steps(defense_rule: str) -> list[Step]:
    """The Defense roll's reading as a step citing its note, shown only when it is not the texts' own (so
    that a result by the texts' reading stays as it was)."""
    if defense_rule == DEFENSE_RULE_PARAM.default:
        return []
    return [Step(DEFENSE_READING_NOTE, "defense_rule", N_("Defense reading"), defense_rule, "text")]


def damage_wounds(roll: int, armor: int, damage_rule: str, rules: RuleValues) -> int:
    """Wounds dealt by one Damage roll against ``armor`` (kensei.damage-roll)."""
    if roll == rules.value("kensei.damage-roll", "no_effect_roll"):
        return 0
    if damage_rule == "subtractive":
        return max(0, roll - armor)
    if roll == rules.value("kensei.damage-roll", "critical_roll"):
        return rules.value("kensei.damage-roll", "critical_wounds")
    return rules.value("kensei.damage-roll", "wounds_per_hit") if roll > armor else 0


def defense_cancels(roll: int, effective_defense: int, rules: RuleValues, defense_rule: str = "lower") -> bool:
    """Whether a Defense roll cancels a hit (kensei.defense-roll), by the ``lower`` or ``at-most`` reading."""
    if roll == rules.value("kensei.defense-roll", "always_cancels_roll"):
        return True
    return roll <= effective_defense if defense_rule == "at-most" else roll < effective_defense


def strike_die(
    effective_attack: int,
    effective_defense: int,
    armor: int,
    damage_rule: str,
    rules: RuleValues,
    defense_rule: str = "lower",
) -> Pmf:
    """The Wounds one attack die deals, weighted over the faces**3 equally likely roll triples."""
    faces = d10_faces(rules)
    roll_of_ten = rules.value("kensei.roll-of-ten", "critical_roll")
    reduction = rules.value("kensei.roll-of-ten", "defense_reduction")
    rolls = range(LOWEST_FACE, faces + 1)
    damage = Counter(damage_wounds(roll, armor, damage_rule, rules) for roll in rolls)
    counts: Counter[int] = Counter()
    for hit_roll in rolls:
        if hit_roll <= effective_attack:
            counts[0] += faces * faces
            continue
        defense = effective_defense - (reduction if hit_roll == roll_of_ten else 0)
        cancelled = sum(defense_cancels(roll, defense, rules, defense_rule) for roll in rolls)
        counts[0] += cancelled * faces
        for wounds, ways in damage.items():
            counts[wounds] += (faces - cancelled) * ways
    return Pmf.from_counts(counts)


def hit_chance(effective_attack: int, rules: RuleValues) -> tuple[int, int]:
    """``(faces that hit, faces)`` of the Attack roll."""
    faces = d10_faces(rules)
    return sum(roll > effective_attack for roll in range(LOWEST_FACE, faces + 1)), faces


def through_chance(
    effective_attack: int, effective_defense: int, rules: RuleValues, defense_rule: str = "lower"
) -> Fraction:
    """P(a hit is not cancelled by the Defense roll | the die hit), Roll of Ten included.

    The Roll of Ten lowers Defense only for the hits rolled on the highest face, so the chance
    depends on the Attack through the share of hits that are tens.

    Raises:
        ValueError: when no face hits (the chance given a hit is then undefined).
    """
    faces = d10_faces(rules)
    roll_of_ten = rules.value("kensei.roll-of-ten", "critical_roll")
    reduction = rules.value("kensei.roll-of-ten", "defense_reduction")
    rolls = range(LOWEST_FACE, faces + 1)
    hit_rolls = [roll for roll in rolls if roll > effective_attack]
    if not hit_rolls:
        raise ValueError(f"no face of the d10 beats an Attack of {effective_attack}")
    through = 0
    for hit_roll in hit_rolls:
        defense = effective_defense - (reduction if hit_roll == roll_of_ten else 0)
        through += sum(not defense_cancels(roll, defense, rules, defense_rule) for roll in rolls)
    return Fraction(through, len(hit_rolls) * faces)


def damage_chance(armor: int, damage_rule: str, rules: RuleValues) -> Fraction:
    """P(one Damage roll against ``armor`` deals at least one Wound)."""
    faces = d10_faces(rules)
    rolls = range(LOWEST_FACE, faces + 1)
    return Fraction(sum(damage_wounds(roll, armor, damage_rule, rules) > 0 for roll in rolls), faces)

"""The calculator options for two readings the texts leave open, against a brute-force enumeration of
every die and against icepool (a test-only oracle), and their defaults against the figures before the
options existed (shared links must show the same numbers).

- the Defense roll (kensei.defense-roll): ``lower`` (the texts: a roll lower than Defense cancels a hit)
  or ``at-most`` (a roll of Defense or less), in shooting and in melee;
- Blocking (kensei.blocking): ``ki-minus`` (a d10 above Ki minus the difficulty, as the sentence reads)
  or ``roll-minus`` (the d10 minus the difficulty above Ki).
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import icepool
import pytest

from calculators import CALCULATORS, RuleValues

R = RuleValues.bundled().as_dict()
D10 = range(1, 11)


def evaluate(name: str, **inputs):
    return CALCULATORS[name].evaluate(inputs)


def bf_cancels(defense_roll: int, target: int, reading: str) -> bool:
    if defense_roll == R["kensei.defense-roll"]["always_cancels_roll"]:
        return True
    return defense_roll <= target if reading == "at-most" else defense_roll < target


def bf_wounds(hit: int, defense_roll: int, damage: int, attack: int, defense: int, armor: int, reading: str) -> int:
    """One die's Wounds from its three rolls (threshold damage), by the Defense reading given."""
    if hit <= attack:
        return 0
    target = defense - (R["kensei.roll-of-ten"]["defense_reduction"] if hit == 10 else 0)
    if bf_cancels(defense_roll, target, reading) or damage == 1:
        return 0
    if damage == 10:
        return R["kensei.damage-roll"]["critical_wounds"]
    return 1 if damage > armor else 0


def bf_volley(dice: int, attack: int, defense: int, armor: int, reading: str) -> dict[int, Fraction]:
    """Every roll of every die enumerated: (3 d10 per die) ** dice outcomes."""
    one = Counter(bf_wounds(*rolls, attack, defense, armor, reading) for rolls in itertools.product(D10, repeat=3))
    total: Counter[int] = Counter()
    for combo in itertools.product(one.items(), repeat=dice):
        ways = 1
        for _, w in combo:
            ways *= w
        total[sum(wounds for wounds, _ in combo)] += ways
    return {k: Fraction(v, 1000**dice) for k, v in total.items()}


def as_dict(pmf) -> dict[int, Fraction]:
    return {k: p for k, p in enumerate(pmf) if p}


@pytest.mark.parametrize("reading", ["lower", "at-most"])
@pytest.mark.parametrize("defense", [0, 1, 2, 5, 10, 11])
@pytest.mark.parametrize("attack", [0, 5, 9])
def test_shooting_defense_reading_matches_enumeration(attack, defense, reading):
    for dice in (1, 2):
        result = evaluate("shooting", dice=dice, attack=attack, defense=defense, armor=3, defense_rule=reading)
        assert as_dict(result.wounds.pmf) == bf_volley(dice, attack, defense, 3, reading)


def icepool_die(attack: int, defense: int, armor: int, reading: str) -> icepool.Die:
    return icepool.map(
        lambda hit, roll, damage: bf_wounds(hit, roll, damage, attack, defense, armor, reading),
        icepool.d10,
        icepool.d10,
        icepool.d10,
    )


@pytest.mark.parametrize("reading", ["lower", "at-most"])
@pytest.mark.parametrize(("attack", "defense"), list(itertools.product([2, 6], [3, 7])))
def test_shooting_defense_reading_against_icepool(attack, defense, reading):
    result = CALCULATORS["shooting"].run({"dice": 4, "attack": attack, "defense": defense, "armor": 2,
                                          "defense_rule": reading})  # fmt: skip
    oracle = 4 @ icepool_die(attack, defense, 2, reading)
    for k, p in enumerate(result["pmf"]):
        expected = float(oracle.probability(k)) if k in oracle else 0.0
        assert abs(p - expected) <= 1e-12, (k, p, expected)


def test_equal_or_lower_saves_more_than_lower():
    """Defense 6: the texts cancel on 1 to 5, the other reading on 1 to 6."""
    lower = evaluate("shooting", dice=1, attack=0, defense=6, armor=0, defense_rule="lower")
    at_most = evaluate("shooting", dice=1, attack=0, defense=6, armor=0, defense_rule="at-most")
    assert at_most.wounds.pmf[0] > lower.wounds.pmf[0]


MELEE = {
    "a_models": 1, "a_wounds": 2, "a_attack": 4, "a_defense": 6, "a_armor": 2, "a_initiative": 3,
    "b_models": 1, "b_wounds": 1, "b_attack": 5, "b_defense": 5, "b_armor": 3, "b_initiative": 3,
}  # fmt: skip


def bf_melee_dealt(reading: str) -> tuple[dict[int, Fraction], dict[int, Fraction]]:
    """Wounds dealt by A and by B, every Initiative roll and every die enumerated (one model a side)."""
    rolls = [(x + MELEE["a_initiative"], y + MELEE["b_initiative"]) for x, y in itertools.product(D10, repeat=2)]
    decided = [ra > rb for ra, rb in rolls if ra != rb]
    p_a_first = Fraction(sum(decided), len(decided))
    a_die = bf_volley(1, MELEE["a_attack"], MELEE["b_defense"], MELEE["b_armor"], reading)
    b_die = bf_volley(1, MELEE["b_attack"], MELEE["a_defense"], MELEE["a_armor"], reading)
    by_a: Counter = Counter()
    by_b: Counter = Counter()

    def dice_total(die: dict[int, Fraction], dice: int) -> dict[int, Fraction]:
        total: Counter = Counter({0: Fraction(1)})
        for _ in range(dice):
            nxt: Counter = Counter()
            for t, p in total.items():
                for w, q in die.items():
                    nxt[t + w] += p * q
            total = nxt
        return dict(total)

    for a_first, chance in ((True, p_a_first), (False, 1 - p_a_first)):
        first, second = ("a", "b") if a_first else ("b", "a")
        first_die, second_die = (a_die, b_die) if a_first else (b_die, a_die)
        for total, p in dice_total(first_die, MELEE[f"{first}_wounds"]).items():
            dealt = min(total, MELEE[f"{second}_wounds"])
            left = MELEE[f"{second}_wounds"] - dealt
            for back_total, q in dice_total(second_die, left).items():
                back = min(back_total, MELEE[f"{first}_wounds"])
                (by_a if a_first else by_b)[dealt] += chance * p * q
                (by_b if a_first else by_a)[back] += chance * p * q
    return dict(by_a), dict(by_b)


@pytest.mark.parametrize("reading", ["lower", "at-most"])
def test_melee_defense_reading_matches_enumeration(reading):
    result = evaluate("melee", **MELEE, defense_rule=reading)
    by_a, by_b = bf_melee_dealt(reading)
    assert as_dict(result.a_dealt.pmf) == by_a
    assert as_dict(result.b_dealt.pmf) == by_b


@pytest.mark.parametrize("name", ["shooting", "melee"])
def test_the_texts_reading_is_the_default_and_adds_no_step(name):
    inputs = {"dice": 3, "attack": 5, "defense": 6, "armor": 2} if name == "shooting" else MELEE
    default = CALCULATORS[name].run(inputs)
    assert default == CALCULATORS[name].run({**inputs, "defense_rule": "lower"})
    assert all(step["key"] != "defense_rule" for step in default["steps"])
    other = CALCULATORS[name].run({**inputs, "defense_rule": "at-most"})
    cited = [step["rule"] for step in other["steps"] if step["key"] == "defense_rule"]
    assert cited == ["kensei.defense-roll#lower-than-defense"]


@pytest.mark.parametrize("reading", ["ki-minus", "roll-minus"])
@pytest.mark.parametrize(("ki", "difficulty"), list(itertools.product([0, 3, 6, 10], [0, 2, 5])))
def test_blocking_reading_matches_enumeration(ki, difficulty, reading):
    if reading == "ki-minus":
        blocks = sum(roll > ki - difficulty for roll in D10)
    else:
        blocks = sum(roll - difficulty > ki for roll in D10)
    result = evaluate("spells", levels=[1], caster_ki=ki, difficulty=difficulty, blocking_rule=reading)
    assert result.p_block == Fraction(blocks, 10)
    oracle = (icepool.d10 - difficulty > ki) if reading == "roll-minus" else (icepool.d10 > ki - difficulty)
    assert result.p_block == Fraction(oracle.probability(True))


def test_blocking_default_is_the_sentence_as_written():
    inputs = {"levels": [2], "caster_ki": 6, "difficulty": 3}
    default = CALCULATORS["spells"].run(inputs)
    assert default == CALCULATORS["spells"].run({**inputs, "blocking_rule": "ki-minus"})
    assert default["p_block"] == pytest.approx(0.7)  # a d10 above 6 - 3
    harder = CALCULATORS["spells"].run({**inputs, "blocking_rule": "roll-minus"})
    assert harder["p_block"] == pytest.approx(0.1)  # a d10 above 6 + 3
    assert [s["rule"] for s in harder["steps"] if s["key"] == "blocking_rule"] == ["kensei.blocking#blocking-target"]

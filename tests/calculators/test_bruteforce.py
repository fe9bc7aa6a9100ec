"""Every calculator with dice against a brute-force enumeration of every die outcome.

The references here restate the rules (design.md section 8) directly, die by die, with
``itertools.product`` over all faces, and share no code with ``calculators`` beyond the rule
values; results are compared as exact fractions.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from functools import cache

import pytest

from calculators import CALCULATORS, RuleValues

R = RuleValues.bundled().as_dict()
D10 = range(1, 11)
D6 = range(1, 7)


def evaluate(name: str, **inputs):
    return CALCULATORS[name].evaluate(inputs)


# -- Kensei: one attack die ---------------------------------------------------------------------


def bf_wounds(hit: int, defense_roll: int, damage: int, attack: int, defense: int, armor: int, rule: str) -> int:
    """The Wounds of one die from its three rolls, by the rules as design.md reads them."""
    if hit <= attack:
        return 0
    if hit == 10:
        defense -= R["kensei.roll-of-ten"]["defense_reduction"]
    if defense_roll == 1 or defense_roll < defense:
        return 0
    if damage == 1:
        return 0
    if rule == "subtractive":
        return max(0, damage - armor)
    if damage == 10:
        return R["kensei.damage-roll"]["critical_wounds"]
    return 1 if damage > armor else 0


@cache
def bf_die(attack: int, defense: int, armor: int, rule: str) -> tuple[tuple[int, int], ...]:
    """(wounds, ways) of one die over all 1000 roll triples."""
    counts = Counter(bf_wounds(h, d, g, attack, defense, armor, rule) for h, d, g in itertools.product(D10, repeat=3))
    return tuple(sorted(counts.items()))


def bf_dice(dice: list[tuple[int, int, int, str]]) -> dict[int, Fraction]:
    """Total Wounds of several independent dice, each (attack, defense, armor, rule), enumerated jointly."""
    per_die = [bf_die(*die) for die in dice]
    total: Counter[int] = Counter()
    for combo in itertools.product(*per_die):
        ways = 1
        for _, w in combo:
            ways *= w
        total[sum(wounds for wounds, _ in combo)] += ways
    denominator = 1000 ** len(dice)
    return {k: Fraction(v, denominator) for k, v in total.items()}


def as_dict(pmf) -> dict[int, Fraction]:
    return {k: p for k, p in enumerate(pmf) if p}


@pytest.mark.parametrize("rule", ["threshold", "subtractive"])
@pytest.mark.parametrize("armor", [0, 3, 9, 10])
@pytest.mark.parametrize("defense", [0, 1, 2, 5, 10, 11])
@pytest.mark.parametrize("attack", [0, 1, 6, 9, 10])
def test_shooting_matches_enumeration(attack, defense, armor, rule):
    for dice in (1, 2, 3):
        result = evaluate("shooting", dice=dice, attack=attack, defense=defense, armor=armor, damage_rule=rule)
        assert as_dict(result.wounds.pmf) == bf_dice([(attack, defense, armor, rule)] * dice)
        assert sum(result.wounds.pmf) == 1


def test_two_dice_match_every_one_of_a_million_outcomes():
    """No shortcut at all: the six rolls of two dice, 10**6 outcomes."""
    counts: Counter[int] = Counter()
    one = {(h, d, g): bf_wounds(h, d, g, 4, 6, 2, "threshold") for h, d, g in itertools.product(D10, repeat=3)}
    for first in one.values():
        for second in one.values():
            counts[first + second] += 1
    expected = {k: Fraction(v, 10**6) for k, v in counts.items()}
    result = evaluate("shooting", dice=2, attack=4, defense=6, armor=2)
    assert as_dict(result.wounds.pmf) == expected


MODIFIER_CASES = [
    # (inputs, attack change, defense change)
    ({"range": "short"}, R["kensei.firing"]["short_range"], 0),
    ({"range": "long"}, R["kensei.firing"]["long_range"], 0),
    ({"precision": True}, R["kensei.greater-precision"]["attack"], 0),
    ({"second_shot": True}, R["kensei.multiple-shots"]["second_shot_attack"], 0),
    ({"moved": "march"}, R["kensei.moving-before-shooting"]["marched"], 0),
    ({"moved": "run"}, R["kensei.moving-before-shooting"]["ran"], 0),
    ({"cover": "light"}, R["kensei.light-cover"]["ranged_attack"], 0),
    ({"cover": "heavy"}, R["kensei.heavy-cover"]["ranged_attack"], 0),
    ({"shooter_in": "deep-forest"}, R["kensei.deep-forest"]["shooting_attack"], 0),
    ({"shooter_in": "water"}, R["kensei.shallow-water"]["shooting_attack"], 0),
    ({"target_in_water": True}, 0, R["kensei.shallow-water"]["defense"]),
    (
        {"range": "long", "precision": True, "moved": "run", "cover": "heavy", "shooter_in": "water"},
        R["kensei.firing"]["long_range"]
        + R["kensei.greater-precision"]["attack"]
        + R["kensei.moving-before-shooting"]["ran"]
        + R["kensei.heavy-cover"]["ranged_attack"]
        + R["kensei.shallow-water"]["shooting_attack"],
        0,
    ),
]


@pytest.mark.parametrize(
    ("modifiers", "attack_change", "defense_change"),
    MODIFIER_CASES,
    ids=[",".join(f"{k}={v}" for k, v in case[0].items()) for case in MODIFIER_CASES],
)
def test_shooting_modifiers(modifiers, attack_change, defense_change):
    result = evaluate("shooting", dice=2, attack=5, defense=6, armor=3, **modifiers)
    assert result.effective_attack == 5 + attack_change
    assert result.effective_defense == 6 + defense_change
    assert as_dict(result.wounds.pmf) == bf_dice([(5 + attack_change, 6 + defense_change, 3, "threshold")] * 2)


def test_multiple_shots_add_a_second_volley_at_worse_attack():
    second = 5 + R["kensei.multiple-shots"]["second_shot_attack"]
    result = evaluate("shooting", dice=2, attack=5, defense=4, armor=2, multiple_shots=True)
    assert result.dice == 4
    assert as_dict(result.wounds.pmf) == bf_dice([(5, 4, 2, "threshold")] * 2 + [(second, 4, 2, "threshold")] * 2)


def test_out_of_range_hits_nothing():
    result = evaluate("shooting", dice=5, attack=0, defense=0, armor=0, range="out")
    assert result.wounds.pmf == (1,)


def test_worked_example_four_archers_roll_seven_dice():
    assert evaluate("shooting", wounds=[2, 2, 2, 1], attack=6, defense=5, armor=3).dice == 7


@pytest.mark.parametrize("rule", ["threshold", "subtractive"])
def test_damage_roll_every_face_and_armor(rule):
    for roll, armor in itertools.product(D10, range(0, 12)):
        # a hit rolled on a 10 against Defense 0, whose Defense roll of 10 does not cancel
        expected = bf_wounds(10, 10, roll, 0, 0, armor, rule)
        assert evaluate("damage-roll", roll=roll, armor=armor, damage_rule=rule).wounds == expected


def test_damage_roll_worked_example_ten_against_no_armor_subtractive():
    assert evaluate("damage-roll", roll=10, armor=0, damage_rule="subtractive").wounds == 10


# -- Kensei: melee ------------------------------------------------------------------------------


def bf_side(inputs: dict, side: str) -> dict:
    """A side's figures computed afresh from the rule values."""
    other = "b" if side == "a" else "a"

    def get(name, default=None):
        return inputs.get(f"{side}_{name}", default)

    own, enemy = get("models"), inputs[f"{other}_models"]
    bonus = get("extra_dice", 0)
    if 3 * enemy <= own:
        bonus += R["kensei.outnumbering"]["third_bonus"]
    elif 2 * enemy <= own:
        bonus += R["kensei.outnumbering"]["half_bonus"]
    if get("counter_charge", False):
        bonus += R["kensei.counter-charge"]["bonus_dice"]
    bonus -= get("defensive", 0) * R["kensei.defensive-position"]["dice_per_defense"]
    attack, initiative, defense = get("attack"), get("initiative"), get("defense")
    charge = get("charge", "none")
    if charge != "none":
        attack += R["kensei.charge-bonuses"]["cavalry_attack" if charge == "cavalry" else "infantry_attack"]
        initiative += R["kensei.charge-bonuses"]["initiative"]
    cover = get("cover", "none")
    if cover != "none":
        defense += R[f"kensei.{cover}-cover"]["melee_defense"]
        initiative += R[f"kensei.{cover}-cover"]["melee_initiative"]
    defense += get("defensive", 0) * R["kensei.defensive-position"]["defense"]
    if get("in_water", False):
        defense += R["kensei.shallow-water"]["defense"]
    return {
        "wounds": get("wounds"),
        "bonus": bonus,
        "attack": attack,
        "defense": defense,
        "armor": get("armor"),
        "initiative": initiative,
    }


def bf_strike(dice: int, attacker: dict, target: dict) -> Counter[int]:
    """Ways (over 1000**dice) for each uncapped total of ``dice`` attack dice."""
    per_die = bf_die(attacker["attack"], target["defense"], target["armor"], "threshold")
    total: Counter[int] = Counter()
    for combo in itertools.product(per_die, repeat=dice):
        ways = 1
        for _, w in combo:
            ways *= w
        total[sum(wounds for wounds, _ in combo)] += ways
    return total


def bf_melee(inputs: dict) -> dict[tuple[int, int], Fraction]:
    """P(dealt by A, dealt by B), every Initiative roll and every die enumerated."""
    a, b = bf_side(inputs, "a"), bf_side(inputs, "b")
    first = inputs.get("first", "roll")
    if first == "roll":
        rolls = [(x + a["initiative"], y + b["initiative"]) for x, y in itertools.product(D10, repeat=2)]
        decided = [ra > rb for ra, rb in rolls if ra != rb]  # ties are rolled again
        p_a_first = Fraction(sum(decided), len(decided))
    else:
        p_a_first = Fraction(int(first == "a"))
    joint: Counter = Counter()
    for a_first, chance in ((True, p_a_first), (False, 1 - p_a_first)):
        if not chance:
            continue
        striker, victim = (a, b) if a_first else (b, a)
        dice = max(0, striker["wounds"] + striker["bonus"])
        for total, ways in bf_strike(dice, striker, victim).items():
            dealt = min(total, victim["wounds"])
            left = victim["wounds"] - dealt
            back_dice = max(0, left + victim["bonus"]) if left > 0 else 0
            p_first = chance * Fraction(ways, 1000**dice)
            for back_total, back_ways in bf_strike(back_dice, victim, striker).items():
                back = min(back_total, striker["wounds"])
                p = p_first * Fraction(back_ways, 1000**back_dice)
                joint[(dealt, back) if a_first else (back, dealt)] += p
    return dict(joint)


BASE = {
    "a_attack": 4,
    "a_defense": 5,
    "a_armor": 2,
    "a_initiative": 2,
    "b_attack": 5,
    "b_defense": 4,
    "b_armor": 3,
    "b_initiative": 3,
}
MELEE_CASES = {
    "1v1": {"a_models": 1, "a_wounds": 1, "b_models": 1, "b_wounds": 1},
    "2v1": {"a_models": 1, "a_wounds": 2, "b_models": 1, "b_wounds": 1},
    "2v2 outnumbering": {"a_models": 2, "a_wounds": 2, "b_models": 1, "b_wounds": 2},
    "third outnumbering": {"a_models": 3, "a_wounds": 3, "b_models": 1, "b_wounds": 1},
    "cavalry charge": {"a_models": 1, "a_wounds": 2, "b_models": 2, "b_wounds": 2, "a_charge": "cavalry"},
    "infantry charge, cover": {
        "a_models": 1,
        "a_wounds": 1,
        "b_models": 1,
        "b_wounds": 2,
        "a_charge": "infantry",
        "b_cover": "heavy",
    },
    "large charge, water": {
        "a_models": 1,
        "a_wounds": 1,
        "b_models": 1,
        "b_wounds": 1,
        "a_charge": "large",
        "b_in_water": True,
        "a_cover": "light",
    },
    "defensive": {
        "a_models": 1,
        "a_wounds": 2,
        "b_models": 1,
        "b_wounds": 2,
        "b_extra_dice": 1,
        "b_defensive": 1,
    },
    "counter-charge": {"a_models": 1, "a_wounds": 1, "b_models": 1, "b_wounds": 2, "a_counter_charge": True},
    "A first": {"a_models": 2, "a_wounds": 2, "b_models": 2, "b_wounds": 2, "first": "a"},
    "B first": {"a_models": 2, "a_wounds": 2, "b_models": 2, "b_wounds": 2, "first": "b"},
    "sure hits": {
        "a_models": 2,
        "a_wounds": 2,
        "b_models": 1,
        "b_wounds": 2,
        "a_attack": 0,
        "b_defense": 0,
        "b_armor": 0,
        "b_attack": 0,
        "a_defense": 0,
        "a_armor": 0,
    },
}


@pytest.mark.parametrize("case", MELEE_CASES.values(), ids=MELEE_CASES.keys())
def test_melee_matches_enumeration(case):
    inputs = {**BASE, **case}
    result = evaluate("melee", **inputs)
    joint = bf_melee(inputs)
    a_wounds, b_wounds = inputs["a_wounds"], inputs["b_wounds"]
    difference = Counter()
    a_dealt, b_dealt = Counter(), Counter()
    for (x, y), p in joint.items():
        difference[x - y] += p
        a_dealt[x] += p
        b_dealt[y] += p
    assert {k - a_wounds: p for k, p in enumerate(result.damage_difference) if p} == {
        k: p for k, p in difference.items() if p
    }
    assert as_dict(result.a_dealt.pmf) == {k: p for k, p in a_dealt.items() if p}
    assert as_dict(result.b_dealt.pmf) == {k: p for k, p in b_dealt.items() if p}
    assert result.victory == sum(p for k, p in difference.items() if k > 0)
    assert result.p_b_wiped == a_dealt[b_wounds]
    assert result.p_a_wiped == b_dealt[a_wounds]


# -- Kensei: regroup, planner, charge, spells, arithmetic ----------------------------------------


@pytest.mark.parametrize("attempts", [1, 2])
@pytest.mark.parametrize(("honor", "bonus"), [(0, 0), (3, 0), (5, 2), (6, -1), (10, 0), (9, 3)])
def test_regroup_matches_enumeration(honor, bonus, attempts):
    regrouped, spent = Fraction(0), Fraction(0)
    for rolls in itertools.product(D10, repeat=attempts):
        made = next((i + 1 for i, roll in enumerate(rolls) if roll <= honor + bonus), None)
        chance = Fraction(1, 10**attempts)
        regrouped += chance * (made is not None)
        spent += chance * (made if made is not None else attempts)
    result = evaluate("regroup", honor=honor, bonus=bonus, attempts=attempts)
    assert result.p_regroup == regrouped
    assert result.expected_cp == spent
    assert result.p_per_attempt == Fraction(sum(r <= honor + bonus for r in D10), 10)


def test_regroup_near_mystical_terrain_is_certain_and_free():
    result = evaluate("regroup", honor=2, attempts=2, mystical=True)
    assert (result.p_regroup, result.expected_cp) == (1, 0)


def bf_best(chances: tuple[Fraction, ...], points: int) -> Fraction:
    """Exhaustive search over every policy: any unit next, any retry decision after seeing each roll."""
    if points == 0 or not chances:
        return Fraction(0)
    best = Fraction(0)
    for i, p in enumerate(chances):
        rest = chances[:i] + chances[i + 1 :]
        best = max(best, bf_best(rest, points))  # this unit is not attempted at all
        after_first_fail = bf_best(rest, points - 1)
        if points >= 2:
            retry = p * (1 + bf_best(rest, points - 2)) + (1 - p) * bf_best(rest, points - 2)
            after_first_fail = max(after_first_fail, retry)
        best = max(best, p * (1 + bf_best(rest, points - 1)) + (1 - p) * after_first_fail)
    return best


def bf_follow(plans, points: int) -> tuple[Counter, Fraction]:
    """Distribution of units regrouped (and points spent) when following the planner's plans,
    every d10 of every attempt enumerated."""
    counts: Counter = Counter()
    spent = Fraction(0)
    rolls_per_unit = 2
    for rolls in itertools.product(D10, repeat=rolls_per_unit * len(plans)):
        left, regrouped = points, 0
        for index, plan in enumerate(plans):
            attempts = dict(plan.attempts_by_points)[left]
            target = plan.honor + plan.bonus
            for roll in rolls[index * rolls_per_unit : index * rolls_per_unit + attempts]:
                left -= 1
                if roll <= target:
                    regrouped += 1
                    break
        chance = Fraction(1, 10 ** len(rolls))
        counts[regrouped] += chance
        spent += chance * (points - left)
    return counts, spent


PLANNER_CASES = [
    ((6, 7), 1),
    ((6, 7), 2),
    ((6, 7), 3),
    ((3, 9), 2),
    ((5, 5), 3),
    ((2, 8), 4),
    ((10, 0), 2),
    ((6, 7, 4), 2),
    ((6, 7, 4), 3),
    ((9, 5, 2), 4),
    ((5, 5, 5), 6),
    ((1, 4, 8), 5),
]


@pytest.mark.parametrize(("honors", "points"), PLANNER_CASES, ids=[f"{h}-{p}" for h, p in PLANNER_CASES])
def test_planner_is_optimal_among_all_policies(honors, points):
    result = evaluate("planner", honors=list(honors), points=points)
    chances = tuple(Fraction(sum(r <= h for r in D10), 10) for h in honors)
    assert result.regrouped.mean == bf_best(chances, points)


@pytest.mark.parametrize(("honors", "points"), [((6, 7), 2), ((3, 9), 3), ((5, 8), 1), ((2, 2), 4)])
def test_planner_distribution_matches_enumeration(honors, points):
    result = evaluate("planner", honors=list(honors), points=points)
    counts, spent = bf_follow(result.plans, points)
    assert as_dict(result.regrouped.pmf) == {k: p for k, p in counts.items() if p}
    assert result.expected_cp == spent


def test_planner_three_units_distribution():
    """Two d10 per unit, each seen only as regrouping or not: 2**6 outcomes weighted by their chances
    (the same as grouping the 10**6 faces; rolls the plan never makes add up to certainty)."""
    result = evaluate("planner", honors=[4, 7, 5], bonuses=[1, 0, -1], points=3)
    chances = [Fraction(sum(roll <= plan.honor + plan.bonus for roll in D10), 10) for plan in result.plans]
    counts: Counter = Counter()
    for outcomes in itertools.product([True, False], repeat=6):
        chance = Fraction(1)
        for i, success in enumerate(outcomes):
            chance *= chances[i // 2] if success else 1 - chances[i // 2]
        left, regrouped = 3, 0
        for index, plan in enumerate(result.plans):
            for success in outcomes[2 * index : 2 * index + dict(plan.attempts_by_points)[left]]:
                left -= 1
                if success:
                    regrouped += 1
                    break
        counts[regrouped] += chance
    assert as_dict(result.regrouped.pmf) == {k: p for k, p in counts.items() if p}


def test_planner_budget_from_the_general():
    points = R["kensei.commandment-points"]["daimyo"] + R["kensei.position-of-dominance"]["commandment_points"]
    result = evaluate("planner", general="daimyo", dominance=True, honors=[5], taisho_ability=True)
    assert result.points == points
    assert result.available == points - R["kensei.taisho-abilities"]["cost"]


@pytest.mark.parametrize("indirect", [False, True])
@pytest.mark.parametrize("dice", ["1d10", "2d10"])
def test_charge_matches_enumeration(dice, indirect):
    count = int(dice[0])
    for distance in range(0, 23):
        success = Fraction(0)
        for rolls in itertools.product(D10, repeat=count):
            total = sum(rolls)
            ok = total >= distance and (not indirect or total >= R["kensei.indirect-charge"]["minimum_roll"])
            success += Fraction(ok, 10**count)
        assert evaluate("charge", dice=dice, distance=distance, indirect=indirect).p_success == success


@pytest.mark.parametrize("unit_type", ["infantry", "cavalry", "large_creature", "harasser_on_foot"])
def test_charge_dice_by_unit_type(unit_type):
    dice = f"{R['kensei.charge-dice'][unit_type]}d10"
    assert (
        evaluate("charge", unit_type=unit_type, distance=9).p_success
        == evaluate("charge", dice=dice, distance=9).p_success
    )


@pytest.mark.parametrize(("levels", "penalties"), [([1], [-1]), ([1, 3], [-2, -4]), ([1, 3, 4], [-3, -5, -6])])
def test_spell_penalties_worked_examples(levels, penalties):
    assert list(evaluate("spells", levels=levels).penalties) == penalties


@pytest.mark.parametrize(("ki", "difficulty"), [(5, 2), (8, 8), (3, 7), (12, 1)])
def test_blocking_and_ki_roll_match_enumeration(ki, difficulty):
    result = evaluate("spells", levels=[2], caster_ki=ki, difficulty=difficulty, taisho_ki=ki)
    assert result.p_block == Fraction(sum(roll > ki - difficulty for roll in D10), 10)
    assert result.p_ki_roll == Fraction(sum(roll <= ki for roll in D10), 10)


def test_spell_level_limit_is_flagged():
    result = evaluate("spells", levels=[1, 3, 4], onmyouiji_level=2)
    assert result.over_limit == (False, False, True)


@pytest.mark.parametrize(("dice", "expected"), [(0, 0), (1, 1), (6, 3), (7, 4), (8, 4)])
def test_dice_split(dice, expected):
    assert evaluate("dice-split", combat_dice=dice).minimum_for_charged == expected
    assert next(k for k in range(dice + 1) if 2 * k >= dice) == expected


def test_movement_worked_example_running_penalty():
    assert evaluate("movement", unit_type="infantry", running=True, penalty_cm=2).distance_cm == 18


@pytest.mark.parametrize(
    ("inputs", "expected"),
    [
        ({"unit_type": "cavalry"}, 15),
        ({"unit_type": "large"}, 13),
        ({"unit_type": "cavalry", "obstacles": 1, "facings": 1}, 15 - 3 - 2),
        ({"unit_type": "infantry", "pivots": 1, "very_high_obstacles": 0, "obstacles": 2}, 10 - 3 - 4),
        ({"unit_type": "infantry", "very_high_obstacles": 1}, 0),
        ({"unit_type": "infantry", "difficult_terrain": True}, 5),
        ({"unit_type": "harasser", "difficult_terrain": True}, 10),
        ({"unit_type": "cavalry", "difficult_terrain": True, "running": True}, 15),
        ({"unit_type": "cavalry", "bridge": True}, Fraction(15, 2)),
    ],
)
def test_movement_examples(inputs, expected):
    assert evaluate("movement", **inputs).distance_cm == expected


@pytest.mark.parametrize(
    ("unit_type", "reactions", "expected"),
    [("infantry", 0, 2), ("infantry", 1, 1), ("character", 1, 2), ("harasser", 5, 0)],
)
def test_action_points(unit_type, reactions, expected):
    assert evaluate("action-points", unit_type=unit_type, reactions=reactions).action_points == expected


# -- Ronin ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("banner", [False, True])
@pytest.mark.parametrize(("wavering", "under_half", "commander"), list(itertools.product([False, True], repeat=3)))
@pytest.mark.parametrize("morale", [0, 2, 3, 6, 7, 9, 12, 13])
def test_morale_matches_enumeration(morale, wavering, under_half, commander, banner):
    modifiers = R["ronin.morale-modifiers"]
    modifier = wavering * modifiers["wavering"] + under_half * modifiers["under_half"]
    modifier += commander * modifiers["commander"]
    passes = 0
    rolls = 4 if banner else 2
    for dice in itertools.product(D6, repeat=rolls):
        ok = _passes(dice[0], dice[1], morale, modifier)
        if not ok and banner:
            ok = _passes(dice[2], dice[3], morale, modifier)
        passes += ok
    expected = Fraction(passes, 6**rolls)
    result = evaluate(
        "morale", morale=morale, wavering=wavering, under_half=under_half, commander=commander, banner=banner
    )
    assert result.p_pass == expected


def _passes(first: int, second: int, morale: int, modifier: int) -> bool:
    if first == second == 1:
        return True
    if first == second == 6:
        return False
    return first + second + modifier <= morale


@pytest.mark.parametrize(
    ("start", "triggers", "morale"),
    [("confident", [1, 0, 1], 7), ("wavering", [0, 0], 8), ("confident", [1, 1, 1], 5), ("panic", [1], 9)],
)
def test_morale_states_match_enumeration(start, triggers, morale):
    finals: Counter = Counter()
    per_turn = [(a, b) for a, b in itertools.product(D6, repeat=2)]
    for sequence in itertools.product(per_turn, repeat=len(triggers)):
        state = start
        for (first, second), triggered in zip(sequence, triggers, strict=True):
            if state == "wavering":
                wavering = R["ronin.morale-modifiers"]["wavering"]
                state = "confident" if _passes(first, second, morale, wavering) else "panic"
            elif state == "confident" and triggered:
                state = "confident" if _passes(first, second, morale, 0) else "wavering"
        finals[state] += Fraction(1, 36 ** len(triggers))
    result = evaluate("morale-states", morale=morale, start=start, turns=len(triggers), triggers=triggers)
    assert dict(zip(("confident", "wavering", "panic"), result.states[-1], strict=True)) == {
        state: finals[state] for state in ("confident", "wavering", "panic")
    }


@pytest.mark.parametrize("state", ["wavering", "panic"])
@pytest.mark.parametrize("rank", range(0, 8))
def test_rank_test(rank, state):
    expected = Fraction(sum(roll + rank >= R[f"ronin.{state}"]["target"] for roll in D6), 6)
    assert evaluate("rank-test", rank=rank, state=state).p_success == expected


@pytest.mark.parametrize(("heavy", "expected"), [(False, Fraction(1, 6)), (True, Fraction(2, 6))])
def test_drowning_on_a_six_or_five_up_in_heavy_armour(heavy, expected):
    assert evaluate("drowning", heavy_armour=heavy).p_drown == expected


def test_priority_roll_off_is_even():
    wins = sum(a > b for a, b in itertools.product(D6, repeat=2))
    decided = sum(a != b for a, b in itertools.product(D6, repeat=2))
    assert evaluate("priority").p_win == Fraction(wins, decided) == Fraction(1, 2)


@pytest.mark.parametrize(("fighters", "expected"), [(10, 3), (1, 1), (4, 1), (5, 2), (8, 2), (12, 3), (13, 4)])
def test_morale_trigger_quarter_rounded_up(fighters, expected):
    assert evaluate("morale-trigger", starting_fighters=fighters).casualty_threshold == expected
    assert next(k for k in range(fighters + 1) if 4 * k >= fighters) == expected

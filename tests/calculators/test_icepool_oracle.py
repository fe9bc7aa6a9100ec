"""icepool (pinned, a test dependency only) as an independent exact oracle on parameter grids."""

from __future__ import annotations

import itertools

import icepool
import pytest

from calculators import CALCULATORS, RuleValues

R = RuleValues.bundled().as_dict()
TOLERANCE = 1e-12


def run(name: str, **inputs) -> dict:
    return CALCULATORS[name].run(inputs)


def icepool_die_wounds(attack: int, defense: int, armor: int, rule: str) -> icepool.Die:
    """One attack die as an icepool expression over its Attack, Defense and Damage d10s."""

    def wounds(hit: int, defense_roll: int, damage: int) -> int:
        if hit <= attack:
            return 0
        target = defense - (R["kensei.roll-of-ten"]["defense_reduction"] if hit == 10 else 0)
        if defense_roll == 1 or defense_roll < target or damage == 1:
            return 0
        if rule == "subtractive":
            return max(0, damage - armor)
        return R["kensei.damage-roll"]["critical_wounds"] if damage == 10 else int(damage > armor)

    return icepool.map(wounds, icepool.d10, icepool.d10, icepool.d10)


def assert_pmf_close(ours: list[float], oracle: icepool.Die) -> None:
    high = max(len(ours) - 1, oracle.max_outcome())
    for k in range(high + 1):
        expected = float(oracle.probability(k)) if k in oracle else 0.0
        got = ours[k] if k < len(ours) else 0.0
        assert abs(got - expected) <= TOLERANCE, (k, got, expected)


@pytest.mark.parametrize("rule", ["threshold", "subtractive"])
@pytest.mark.parametrize(("attack", "defense", "armor"), list(itertools.product([2, 5, 8], [3, 6, 9], [0, 4, 7])))
def test_shooting_against_icepool(attack, defense, armor, rule):
    die = icepool_die_wounds(attack, defense, armor, rule)
    for dice in (1, 4, 10, 25):
        ours = run("shooting", dice=dice, attack=attack, defense=defense, armor=armor, damage_rule=rule)
        oracle = dice @ die
        assert_pmf_close(ours["pmf"], oracle)
        assert abs(ours["mean"] - float(oracle.mean())) <= 1e-9


def test_shooting_modifiers_against_icepool():
    ours = run(
        "shooting",
        wounds=[2, 2, 1],
        attack=5,
        defense=6,
        armor=3,
        range="long",
        cover="light",
        target_in_water=True,
        multiple_shots=True,
    )
    first = 5 + R["kensei.firing"]["long_range"] + R["kensei.light-cover"]["ranged_attack"]
    defense = 6 + R["kensei.shallow-water"]["defense"]
    second = first + R["kensei.multiple-shots"]["second_shot_attack"]
    oracle = 5 @ icepool_die_wounds(first, defense, 3, "threshold") + 5 @ icepool_die_wounds(
        second, defense, 3, "threshold"
    )
    assert_pmf_close(ours["pmf"], oracle)


@pytest.mark.parametrize("indirect", [False, True])
@pytest.mark.parametrize("dice", [1, 2])
def test_charge_against_icepool(dice, indirect):
    roll = dice @ icepool.d10
    for distance in range(0, 24):
        required = max(distance, R["kensei.indirect-charge"]["minimum_roll"]) if indirect else distance
        expected = float((roll >= required).probability(True)) if required > dice else 1.0
        ours = run("charge", dice=f"{dice}d10", distance=distance, indirect=indirect)["p_success"]
        assert abs(ours - expected) <= TOLERANCE


def _morale_test(morale: int, modifier: int) -> icepool.Die:
    def passes(first: int, second: int) -> bool:
        if first == second == 1:
            return True
        if first == second == 6:
            return False
        return first + second + modifier <= morale

    return icepool.map(passes, icepool.d6, icepool.d6)


@pytest.mark.parametrize("banner", [False, True])
@pytest.mark.parametrize("morale", range(0, 15))
@pytest.mark.parametrize(
    ("wavering", "under_half", "commander"),
    [(False, False, False), (True, False, True), (True, True, False), (False, True, True)],
)
def test_morale_against_icepool(morale, wavering, under_half, commander, banner):
    modifiers = R["ronin.morale-modifiers"]
    modifier = wavering * modifiers["wavering"] + under_half * modifiers["under_half"]
    modifier += commander * modifiers["commander"]
    single = _morale_test(morale, modifier)
    # with a banner, a failed test is rerolled once
    test = icepool.map(lambda first, second: first or second, single, single) if banner else single
    expected = float(test.probability(True)) if True in test else 0.0
    ours = run("morale", morale=morale, wavering=wavering, under_half=under_half, commander=commander, banner=banner)
    assert abs(ours["p_pass"] - expected) <= TOLERANCE


@pytest.mark.parametrize("attempts", [1, 2])
@pytest.mark.parametrize("honor", range(0, 12))
@pytest.mark.parametrize("bonus", [-2, 0, 1])
def test_regroup_against_icepool(honor, bonus, attempts):
    target = honor + bonus
    attempt = icepool.d10 <= target
    regrouped = attempt if attempts == 1 else icepool.map(lambda first, second: first or second, attempt, attempt)
    expected = float(regrouped.probability(True)) if True in regrouped else 0.0
    ours = run("regroup", honor=honor, bonus=bonus, attempts=attempts)
    assert abs(ours["p_regroup"] - expected) <= TOLERANCE
    p = float(attempt.probability(True)) if True in attempt else 0.0
    assert abs(ours["p_per_attempt"] - p) <= TOLERANCE

"""Properties that must hold for every input, checked with Hypothesis on exact fractions."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import CALCULATORS

SETTINGS = settings(max_examples=50, deadline=None)

stats = st.integers(min_value=0, max_value=12)
damage_rules = st.sampled_from(["threshold", "subtractive"])
shooting_modifiers = st.fixed_dictionaries(
    {},
    optional={
        "range": st.sampled_from(["short", "normal", "long", "out"]),
        "precision": st.booleans(),
        "moved": st.sampled_from(["none", "march", "run"]),
        "cover": st.sampled_from(["none", "light", "heavy"]),
        "shooter_in": st.sampled_from(["none", "deep-forest", "water"]),
        "target_in_water": st.booleans(),
        "multiple_shots": st.booleans(),
    },
).filter(lambda m: not (m.get("multiple_shots") and (m.get("precision") or m.get("moved", "none") != "none")))
"""Shots a unit can declare: Multiple Shots take every action point of the units that have most."""


def evaluate(name: str, **inputs):
    return CALCULATORS[name].evaluate(inputs)


def dominates(better: tuple[Fraction, ...], worse: tuple[Fraction, ...]) -> bool:
    """First-order stochastic dominance: P(at least k) never smaller, for every k."""
    length = max(len(better), len(worse))
    padded = [tuple(seq) + (Fraction(0),) * (length - len(seq)) for seq in (better, worse)]
    return all(b >= w for b, w in zip(*padded, strict=True))


@SETTINGS
@given(st.integers(0, 30), stats, stats, stats, damage_rules, shooting_modifiers)
def test_shooting_probabilities_sum_to_one(dice, attack, defense, armor, rule, modifiers):
    result = evaluate("shooting", dice=dice, attack=attack, defense=defense, armor=armor, damage_rule=rule, **modifiers)
    assert sum(result.wounds.pmf) == 1
    assert result.wounds.at_least[0] == 1
    assert all(0 <= p <= 1 for p in result.wounds.pmf)
    assert result.wounds.mean == sum(k * p for k, p in enumerate(result.wounds.pmf))


@SETTINGS
@given(st.integers(0, 30), st.integers(1, 10), stats, stats, stats, damage_rules, shooting_modifiers)
def test_more_dice_never_give_fewer_wounds(dice, more, attack, defense, armor, rule, modifiers):
    common = {"attack": attack, "defense": defense, "armor": armor, "damage_rule": rule, **modifiers}
    fewer = evaluate("shooting", dice=dice, **common)
    extra = evaluate("shooting", dice=dice + more, **common)
    assert dominates(extra.wounds.at_least, fewer.wounds.at_least)


@SETTINGS
@given(st.integers(1, 25), st.integers(1, 12), stats, stats, damage_rules)
def test_better_attack_never_gives_fewer_wounds(dice, attack, defense, armor, rule):
    common = {"dice": dice, "defense": defense, "armor": armor, "damage_rule": rule}
    worse = evaluate("shooting", attack=attack, **common)
    better = evaluate("shooting", attack=attack - 1, **common)
    assert dominates(better.wounds.at_least, worse.wounds.at_least)


@SETTINGS
@given(st.integers(1, 25), stats, stats, st.integers(0, 11), damage_rules)
def test_more_armor_never_gives_more_wounds(dice, attack, defense, armor, rule):
    common = {"dice": dice, "attack": attack, "defense": defense, "damage_rule": rule}
    assert dominates(
        evaluate("shooting", armor=armor, **common).wounds.at_least,
        evaluate("shooting", armor=armor + 1, **common).wounds.at_least,
    )


side = st.fixed_dictionaries(
    {
        "wounds": st.integers(1, 12),
        "attack": stats,
        "defense": stats,
        "armor": stats,
        "initiative": stats,
        "charge": st.sampled_from(["none", "infantry", "cavalry", "large"]),
        "cover": st.sampled_from(["none", "light", "heavy"]),
        "in_water": st.booleans(),
        "extra_dice": st.integers(0, 3),
    }
)


def melee_inputs(a: dict, b: dict, a_models: int, b_models: int, first: str) -> dict:
    inputs = {f"a_{k}": v for k, v in a.items()} | {f"b_{k}": v for k, v in b.items()}
    inputs["a_models"] = min(a_models, a["wounds"])
    inputs["b_models"] = min(b_models, b["wounds"])
    return inputs | {"first": first}


@SETTINGS
@given(side, side, st.integers(1, 12), st.integers(1, 12), st.sampled_from(["roll", "a", "b"]))
def test_melee_victory_draw_defeat_sum_to_one(a, b, a_models, b_models, first):
    result = evaluate("melee", **melee_inputs(a, b, a_models, b_models, first))
    assert result.victory + result.draw + result.defeat == 1
    assert sum(result.damage_difference) == 1
    assert sum(result.a_dealt.pmf) == sum(result.b_dealt.pmf) == 1
    assert len(result.a_dealt.pmf) == b["wounds"] + 1  # never more Wounds than the target has
    assert 0 <= result.p_a_first <= 1


@SETTINGS
@given(side, side, st.integers(1, 12), st.integers(1, 12))
def test_melee_mirror_swaps_victory_and_defeat(a, b, a_models, b_models):
    forward = evaluate("melee", **melee_inputs(a, b, a_models, b_models, "roll"))
    mirror = evaluate("melee", **melee_inputs(b, a, b_models, a_models, "roll"))
    assert (forward.victory, forward.draw, forward.defeat) == (mirror.defeat, mirror.draw, mirror.victory)
    assert forward.p_a_first == 1 - mirror.p_a_first


@SETTINGS
@given(side, side, st.integers(1, 12), st.integers(1, 12))
def test_melee_striking_first_never_hurts(a, b, a_models, b_models):
    first = evaluate("melee", **melee_inputs(a, b, a_models, b_models, "a"))
    second = evaluate("melee", **melee_inputs(a, b, a_models, b_models, "b"))
    assert first.victory >= second.victory
    assert first.defeat <= second.defeat


honors = st.lists(st.integers(0, 10), min_size=1, max_size=5)


@SETTINGS
@given(honors, st.integers(0, 11))
def test_more_commandment_points_never_lower_expected_regroups(units, points):
    fewer = evaluate("planner", honors=units, points=points)
    more = evaluate("planner", honors=units, points=points + 1)
    assert more.regrouped.mean >= fewer.regrouped.mean
    assert sum(more.regrouped.pmf) == 1
    assert fewer.expected_cp <= points


@SETTINGS
@given(honors, st.integers(0, 12))
def test_planner_never_beats_the_sum_of_each_unit_alone(units, points):
    result = evaluate("planner", honors=units, points=points)
    alone = sum(evaluate("regroup", honor=honor, attempts=2).p_regroup for honor in units)
    assert result.regrouped.mean <= alone


@SETTINGS
@given(st.integers(0, 19), st.booleans(), st.booleans(), st.booleans(), st.booleans())
def test_morale_rises_with_morale_and_banner(morale, wavering, under_half, commander, banner):
    flags = {"wavering": wavering, "under_half": under_half, "commander": commander}
    low = evaluate("morale", morale=morale, banner=banner, **flags).p_pass
    high = evaluate("morale", morale=morale + 1, banner=banner, **flags).p_pass
    assert low <= high
    assert (
        evaluate("morale", morale=morale, banner=True, **flags).p_pass
        >= evaluate("morale", morale=morale, banner=False, **flags).p_pass
    )
    assert Fraction(1, 36) <= low <= Fraction(35, 36) or banner  # the doubles always decide


@SETTINGS
@given(
    st.integers(0, 12),
    st.sampled_from(["confident", "wavering", "panic"]),
    st.lists(st.integers(0, 1), min_size=1, max_size=20),
    st.booleans(),
)
def test_morale_states_stay_a_distribution(morale, start, triggers, banner):
    result = evaluate(
        "morale-states", morale=morale, start=start, turns=len(triggers), triggers=triggers, banner=banner
    )
    panic = [state[2] for state in result.states]
    assert all(sum(state) == 1 for state in result.states)
    assert panic == sorted(panic)  # Panic is final


@SETTINGS
@given(st.integers(0, 40), st.sampled_from(["1d10", "2d10"]), st.booleans())
def test_charge_is_harder_further(distance, dice, indirect):
    near = evaluate("charge", dice=dice, distance=distance, indirect=indirect).p_success
    far = evaluate("charge", dice=dice, distance=distance + 1, indirect=indirect).p_success
    assert far <= near
    assert evaluate("charge", dice=dice, distance=distance).p_success >= near

"""The orders advisor: exactly the sequences the rules allow, each row equal to the calculators run
with the inputs it links to, and a whole turn checked against a brute-force enumeration of every die."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction

import pytest
from test_bruteforce import D10, R, bf_dice, bf_melee
from unit_profiles import ARCHERS, EVERY_TYPE, SAMURAI, unit_of_type, units_file

from calculators import CALCULATORS, CalculatorInputError
from calculators.advisor import OBJECTIVES, READINGS, advice_json, advise, explain
from calculators.advisor_odds import wounds_left
from calculators.enemy_reply import REPLIES
from calculators.orders import ACTIONS, CHARGE_READINGS, MAX_ACTIONS, parse_sequence
from calculators.profiles import KENSEI_UNIT_TYPES, read_units

NONE_READING = "none"
"""The default of ``lone_charge``: a character or lone model does not charge."""

# ---- Legality, derived here from the rule values alone -------------------------------------------

PRICE = {
    "march": R["kensei.movement"]["action_points"],
    "run": R["kensei.movement"]["action_points"],
    "charge": R["kensei.movement"]["action_points"],
    "fire": R["kensei.firing"]["action_points"],
    "precise-fire": R["kensei.greater-precision"]["action_points"],
    "reload": R["kensei.loading"]["action_points"],
}
ACTION_POINTS = {unit_type: unit_type for unit_type in KENSEI_UNIT_TYPES} | {  # kensei.action-points' types
    "harasser_on_foot": "harasser",  # by a profile's type: both kinds of harasser are "harassers" there
    "mounted_harasser": "harasser",
}
ROLLS_CHARGE_DICE = set(R["kensei.charge-dice"])  # the types the charge dice table lists
HAS_MOVEMENT = {
    "infantry",
    "cavalry",
    "harasser_on_foot",
    "mounted_harasser",
    "character",
    "large_creature",
    "lone_model",
}


def allowed(actions, unit_type, *, ranged, loaded, failed_charge=False, reactions=0, reading="movement"):
    """Whether the rules allow ``actions``, restated from the rule texts and values."""
    points = (
        R["kensei.action-points"][ACTION_POINTS[unit_type]] - reactions * R["kensei.reaction-cost"]["action_points"]
    )
    if sum(PRICE[action] for action in actions) > max(0, points):
        return False
    if "charge" in actions[:-1]:  # kensei.charge-orders: nothing after a charge
        return False
    movements = sum(action in ("march", "run") for action in actions)
    if reading == "movement":
        movements += "charge" in actions
    if movements > 1:  # kensei.movement: one Movement per turn
        return False
    if failed_charge and "run" in actions:  # kensei.failed-charge
        return False
    if unit_type not in HAS_MOVEMENT and ({"march", "run"} & set(actions)):
        return False
    if "charge" in actions and unit_type not in ROLLS_CHARGE_DICE:
        return False
    weapon = loaded
    for action in actions:
        if action in ("fire", "precise-fire", "reload") and not ranged:
            return False
        if action in ("fire", "precise-fire"):
            if not weapon:
                return False
            weapon = False
        if action == "reload":
            if weapon:
                return False
            weapon = True
    return True


MOST_ACTION_POINTS = max(R["kensei.action-points"].values())


def every_sequence(longest: int = MOST_ACTION_POINTS + 1):
    """Every sequence up to one action longer than any unit can pay for (each action costs at least 1)."""
    assert min(PRICE.values()) >= 1 and longest <= MAX_ACTIONS
    for length in range(longest + 1):
        yield from itertools.product(ACTIONS, repeat=length)


SITUATIONS = [
    {"ranged": True, "loaded": True},
    {"ranged": True, "loaded": False},
    {"ranged": False, "loaded": False},
    {"ranged": True, "loaded": True, "failed_charge": True},
    {"ranged": True, "loaded": True, "reactions": 1},
    {"ranged": True, "loaded": True, "reading": "after-move"},
    {"ranged": True, "loaded": False, "reactions": 3},
]


@pytest.mark.parametrize("situation", SITUATIONS, ids=lambda s: ",".join(f"{k}={v}" for k, v in s.items()))
@pytest.mark.parametrize("unit_type", KENSEI_UNIT_TYPES)
def test_the_sequences_offered_are_exactly_those_the_rules_allow(unit_type, situation):
    profile = unit_of_type(unit_type, ranged=situation["ranged"], loaded=situation["loaded"])
    mine, enemy = read_units(units_file(profile, {**SAMURAI}))
    asked = {
        "distance": 12,
        "failed_charge": situation.get("failed_charge", False),
        "reactions": situation.get("reactions", 0),
        "charge_reading": situation.get("reading", "movement"),
    }
    offered = {row.actions for row in advise(mine, enemy, asked).rows}
    rules = {k: v for k, v in situation.items() if k in ("failed_charge", "reactions", "reading")}
    expected = {
        actions
        for actions in every_sequence()
        if allowed(actions, unit_type, ranged=situation["ranged"], loaded=situation["loaded"], **rules)
    }
    assert offered == expected
    for actions in every_sequence(MOST_ACTION_POINTS):  # and every refused sequence is explained
        assert (explain(mine, enemy, asked, actions) is None) == (actions in expected), actions


def test_multiple_shots_with_greater_precision_needs_more_action_points_than_any_unit_has():
    hero, samurai = read_units(units_file(unit_of_type("character"), SAMURAI))
    offered = {row.actions for row in advise(hero, samurai, {"distance": 15}).rows}
    assert ("fire", "reload", "fire") in offered
    assert ("precise-fire", "reload", "fire") not in offered
    why = explain(hero, samurai, {"distance": 15}, ("precise-fire", "reload", "fire"))
    assert why == "not enough action points: 4 needed, 3 available"
    assert explain(hero, samurai, {"distance": 15}, ("fire", "fire")) == "the weapon is not loaded: reload it first"
    assert (
        explain(hero, samurai, {"distance": 15}, ("charge",))
        == "the charge dice table lists no dice for this unit type"
    )
    assert explain(hero, samurai, {"distance": 15, "engaged": True}, ("fire",)).startswith("a unit engaged in combat")
    for actions in (("fire", "shoot"), ("march",) * 7):  # the terminal refuses them first; the API too
        with pytest.raises(CalculatorInputError) as refused:
            explain(hero, samurai, {"distance": 15}, actions)
        assert refused.value.field == "why" and "march, run, fire" in refused.value.describe(str)


OTHER_PRICES = {  # orders with a price and no odds, and who may give them, read here from the rule data
    "spell": (R["kensei.spiritual-actions"]["action_points"], {"character"}),
    "concentration": (R["kensei.concentration"]["action_points"], {"character"}),
    "meditation": (R["kensei.meditation"]["action_points"], {"character"}),
    "action-ability": (R["kensei.action-abilities"]["action_points"], set(KENSEI_UNIT_TYPES)),
    "leave-construction": (R["kensei.occupying-construction"]["exit_action_points"], set(KENSEI_UNIT_TYPES)),
}


@pytest.mark.parametrize("unit_type", KENSEI_UNIT_TYPES)
def test_each_row_says_the_points_it_leaves_for_orders_without_odds(unit_type):
    mine, samurai = read_units(units_file(unit_of_type(unit_type), SAMURAI))
    advice = advise(mine, samurai, {"distance": 12, "reactions": 1})
    table = advice_json(advice)
    points = R["kensei.action-points"][ACTION_POINTS[unit_type]] - R["kensei.reaction-cost"]["action_points"]
    assert table["action_points"] == points
    for row in table["rows"]:
        if row["actions"][-1:] == ["charge"]:  # nothing may follow a charge (kensei.charge-orders)
            assert row["points_left"] == 0
            continue
        assert row["points_left"] == points - sum(PRICE[action] for action in row["actions"]) >= 0
    expected = [
        {"order": name, "rule": rule, "action_points": price}
        for (name, (price, types)), rule in zip(OTHER_PRICES.items(), OTHER_RULES, strict=True)
        if unit_type in types
    ]
    assert table["other_orders"] == expected


OTHER_RULES = (
    "kensei.spiritual-actions",
    "kensei.concentration",
    "kensei.meditation",
    "kensei.action-abilities",
    "kensei.occupying-construction",
)


def test_an_engaged_unit_gets_no_orders():
    archers, samurai = read_units(units_file(ARCHERS, SAMURAI))
    advice = advise(archers, samurai, {"distance": 0, "engaged": True})
    assert advice.out_of_the_game and advice.rows == ()


def test_a_sequence_is_read_as_typed():
    assert parse_sequence("fire, reload ,fire") == ("fire", "reload", "fire")
    with pytest.raises(ValueError, match="shoot"):
        parse_sequence("march,shoot")
    with pytest.raises(ValueError):
        parse_sequence(",".join(["march"] * (MAX_ACTIONS + 1)))


# ---- Exactness: each row is the calculators it links to ------------------------------------------


def _calculated(link):
    return CALCULATORS[link.calculator].evaluate(link.inputs)


def _convolve(a, b):
    out = [Fraction(0)] * (len(a) + len(b) - 1)
    for i, p in enumerate(a):
        for j, q in enumerate(b):
            out[i + j] += p * q
    return out


def _on_the_table(pmf, wounds):
    """P(min(X, wounds) = k): no unit loses more Wounds than it has."""
    pmf = list(pmf)
    return [*pmf[:wounds], sum(pmf[wounds:])] if len(pmf) > wounds else pmf


def _trim(pmf):
    pmf = list(pmf)
    while len(pmf) > 1 and pmf[-1] == 0:
        pmf.pop()
    return pmf


PAIRS = [
    (ARCHERS, SAMURAI, {"distance": 14}),
    (ARCHERS, SAMURAI, {"distance": 14, "charge_reading": "after-move", "enemy_cover": "light"}),
    (unit_of_type("character", wounds=(3,)), SAMURAI, {"distance": 9, "enemy_in_water": True, "shooter_in": "water"}),
    (unit_of_type("cavalry"), SAMURAI, {"distance": 12, "indirect": True, "enemy_defensive": 1}),
    (unit_of_type("mounted_harasser", wounds=(2, 2)), ARCHERS, {"distance": 25, "damage_rule": "subtractive"}),
    (SAMURAI, ARCHERS, {"distance": 8, "enemy_reaction": "shoot", "enemy_defensive": 1}),
    (unit_of_type("cavalry"), ARCHERS, {"distance": 14, "enemy_reaction": "shoot", "enemy_in_water": True}),
]


@pytest.mark.parametrize(("mine", "enemy", "situation"), PAIRS)
def test_every_row_equals_the_calculators_it_links_to(mine, enemy, situation):
    mine_profile, enemy_profile = read_units(units_file(mine, {**enemy, "name": "enemy"}))
    rows = advise(mine_profile, enemy_profile, situation).rows
    assert rows
    enemy_wounds, my_wounds = sum(enemy["wounds"]), sum(mine["wounds"])
    for row in rows:
        shots = [
            _calculated(link).wounds.pmf for link in row.links if link.calculator == "shooting" and link.side == "mine"
        ]
        answers = [link for link in row.links if link.side == "enemy"]
        assert bool(answers) == (situation.get("enemy_reaction") == "shoot" and row.p_reach is not None)
        for answer in answers:  # the enemy's reaction shot: its profile's dice at your unit's Defense and Armor
            assert answer.inputs["attack"] == enemy["attack"]
            assert (answer.inputs["defense"], answer.inputs["armor"]) == (mine["defense"], mine["armor"])
            if not shots:  # taken: the whole reaction shot (up to your Wounds), and the melee's return blows
                reaction = _on_the_table(_calculated(answer).wounds.pmf, my_wounds)
                assert row.expected_taken >= sum(k * p for k, p in enumerate(reaction))
            fights = [link for link in row.links if link.calculator == "melee"]
            assert all(fight.inputs["b_defensive"] == 0 for fight in fights)  # no Defensive Position after shooting
        shot = [Fraction(1)]
        for pmf in shots:
            shot = _convolve(shot, pmf)
        shot = _on_the_table(shot, enemy_wounds)
        if row.p_reach is None:
            assert _trim(row.dealt) == _trim(shot)
            continue
        reach = [link for link in row.links if link.calculator == "charge"]
        assert row.p_reach == _calculated(reach[0]).p_success
        certain = max(shot[:enemy_wounds], default=0) == 1  # the charge meets one size of the enemy's
        spread = any(sum(1 for p in _calculated(answer).wounds.pmf if p) > 1 for answer in answers)
        for run in row.links:  # a run is marked one of several exactly when the row mixes it with others
            if run.calculator == "melee":
                assert run.averaged == (not certain or spread), row.actions
            elif run.side == "enemy":
                assert run.averaged == (not certain)
            else:
                assert not run.averaged
        if len(shots) == 0 and row.p_reach and not answers:
            fight = _calculated(next(link for link in row.links if link.calculator == "melee"))
            expected = [row.p_reach * p for p in fight.a_dealt.pmf]
            expected[0] += 1 - row.p_reach
            assert _trim(row.dealt) == _trim(expected)
            assert row.victory == row.p_reach * fight.victory
            assert row.expected_taken == row.p_reach * fight.b_dealt.mean
        assert sum(row.dealt) == 1


@pytest.mark.parametrize("objective", OBJECTIVES)
def test_rows_are_sorted_by_the_objective(objective):
    archers, samurai = read_units(units_file(ARCHERS, SAMURAI))
    advice = advise(archers, samurai, {"distance": 9, "charge_reading": "after-move", "objective": objective})
    key = {
        "expected_wounds": lambda row: -row.expected_dealt,
        "at_least_one": lambda row: -row.at_least(1),
        "at_least_goal": lambda row: -row.at_least(advice.goal),
        "victory": lambda row: -row.victory,
        "fewest_taken": lambda row: row.expected_taken,
        "net": lambda row: row.expected_taken - row.expected_dealt,
    }[objective]
    scores = [key(row) for row in advice.rows]
    assert scores == sorted(scores)
    assert advice.goal == 2  # one samurai's Wounds
    document = advice_json(advice)
    assert [row["actions"] for row in document["rows"]] == [list(row.actions) for row in advice.rows]


def test_sequences_with_the_same_odds_are_one_group_in_the_tables_order():
    archers, samurai = read_units(units_file(ARCHERS, SAMURAI))
    advice = advise(archers, samurai, {"distance": 20})
    assert sorted(index for group in advice.groups for index in group) == list(range(len(advice.rows)))
    for group in advice.groups:
        assert list(group) == list(range(group[0], group[-1] + 1))  # neighbours in the table
        first = advice.rows[group[0]]
        for other in group[1:]:
            row = advice.rows[other]
            assert (row.dealt, row.victory, row.defeat, row.expected_taken) == (
                first.dealt, first.victory, first.defeat, first.expected_taken)  # fmt: skip
    fire = next(group for group in advice.groups if ("fire",) in [advice.rows[i].actions for i in group])
    assert {advice.rows[i].actions for i in fire} >= {("fire", "reload"), ("fire",), ("fire", "march"), ("fire", "run")}
    assert advice_json(advice)["groups"] == [list(group) for group in advice.groups]


def test_rows_of_equal_figures_keep_the_weapon_loaded_then_points_then_position():
    """Fire, then Reload keeps a loaded weapon; Fire alone keeps a point; Fire then March moves."""
    archers, samurai = read_units(units_file(ARCHERS, SAMURAI))
    rows = advise(archers, samurai, {"distance": 20}).rows
    fired = [row.actions for row in rows if row.actions in {("fire", "reload"), ("fire",), ("fire", "march")}]
    assert fired == [("fire", "reload"), ("fire",), ("fire", "march")]
    assert [row.loaded_after for row in rows if row.actions in {("fire", "reload"), ("fire",)}] == [True, False]


MOUNTED_ARCHERS = {**unit_of_type("mounted_harasser", wounds=(2,) * 10), "name": "mounted archers", "attack": 3}
SCOUTS = {**unit_of_type("harasser_on_foot", ranged=False, wounds=(1, 1)), "name": "scouts", "defense": 3, "armor": 1}


def test_no_figure_counts_more_wounds_than_the_enemy_has():
    """Ten 2-Wound mounted archers (20 dice) at two 1-Wound scouts: at most 2 Wounds, and the scouts
    destroyed by the shot are a victory that no charge is made for."""
    archers, scouts = read_units(units_file(MOUNTED_ARCHERS, SCOUTS))
    advice = advise(archers, scouts, {"distance": 10})
    for row in advice.rows:
        assert len(row.dealt) <= 3 and row.expected_dealt <= 2, row.actions
        assert row.at_least(10) == 0
        assert row.destroyed == row.dealt[-1] and sum(row.dealt) == 1
        if row.actions and row.actions[-1] == "charge":
            shot = next(other for other in advice.rows if other.actions == row.actions[:-1])
            assert row.p_charged == 1 - shot.destroyed  # the charge is made only at scouts still there
    fire = next(row for row in advice.rows if row.actions == ("fire",))
    assert fire.victory == fire.destroyed > Fraction(9, 10)
    by_victory = advise(archers, scouts, {"distance": 10, "objective": "victory"}).rows
    ranks = {row.actions: rank for rank, row in enumerate(by_victory)}
    assert ranks[("fire", "charge")] < ranks[("charge",)]


def test_a_charger_destroyed_by_the_reaction_shot_is_a_defeat():
    lone = {**unit_of_type("infantry", ranged=False, wounds=(1,)), "name": "lone"}
    archers = {**ARCHERS, "name": "archers", "attack": 2}
    mine, enemy = read_units(units_file(lone, archers))
    row = next(row for row in advise(mine, enemy, {"distance": 5, "enemy_reaction": "shoot"}).rows
               if row.actions == ("charge",))  # fmt: skip
    assert row.expected_taken <= 1
    assert row.p_charged is not None and 0 < row.p_charged < 1
    assert row.defeat >= 1 - row.p_charged
    assert row.victory + row.draw + row.defeat <= 1


def test_a_bad_situation_names_its_field():
    archers, samurai = read_units(units_file(ARCHERS, SAMURAI))
    with pytest.raises(CalculatorInputError, match="distance: must be an integer from 0 to 200"):
        advise(archers, samurai, {"distance": 201})
    with pytest.raises(CalculatorInputError, match="distance: is required"):
        advise(archers, samurai, {})
    with pytest.raises(CalculatorInputError, match="charge_reading: must be one of movement, after-move"):
        advise(archers, samurai, {"distance": 5, "charge_reading": "both"})
    assert set(CHARGE_READINGS) == {"movement", "after-move"}


def test_a_ronin_warband_is_not_advised():
    archers, band = read_units(units_file(ARCHERS, {"name": "band", "game": "ronin", "unit_type": "warband",
                                                    "fighters": 5, "morale": 7}))  # fmt: skip
    with pytest.raises(CalculatorInputError, match="enemy: must be a Kensei unit"):
        advise(archers, band, {"distance": 5})


def test_wounds_are_taken_off_one_model_at_a_time():
    assert wounds_left((2, 2, 1), 0) == (5, 3)
    assert wounds_left((2, 2, 1), 1) == (4, 3)
    assert wounds_left((2, 2, 1), 2) == (3, 2)
    assert wounds_left((2, 2, 1), 5) == (0, 0)
    assert wounds_left((2, 2, 1), 9) == (0, 0)


# ---- The whole turn, every die enumerated --------------------------------------------------------

SHOOTER = {
    **unit_of_type("infantry", wounds=(1,)),
    "attack": 4,
    "short_range_cm": 3,
    "range_cm": 10,
    "long_range_cm": 20,
}
TARGET = {
    **unit_of_type("infantry", ranged=False, wounds=(2,)),
    "name": "target",
    "attack": 6,
    "defense": 4,
    "armor": 2,
}


TARGET_ARCHER = {**TARGET, "ranged": True, "loaded": True, "short_range_cm": 4, "range_cm": 8, "long_range_cm": 16}
"""The target with a bow, to withstand and shoot."""


def _band_modifier(distance: int, unit: dict) -> int | None:
    """The Attack modifier of a shot at ``distance`` with ``unit``'s ranges; None when out of range."""
    if distance > unit["long_range_cm"]:
        return None
    if distance > unit["range_cm"]:
        return R["kensei.firing"]["long_range"]
    return R["kensei.firing"]["short_range"] if distance <= unit["short_range_cm"] else 0


def bf_turn(
    distance: int, actions: tuple[str, ...], reply: str = "fight", shooter: dict = SHOOTER
) -> tuple[dict[int, Fraction], Fraction, Fraction, Fraction]:
    """P(total Wounds dealt), P(victory), P(defeat) and the Wounds expected in return of an infantry
    turn made of ``actions`` (march, fire, charge in that order, each at most once) by ``shooter``
    (one-Wound models), with every roll of the shot, the charge die and the melee enumerated, the
    target answering the charge with ``reply``: ``fight``; ``shoot`` as the charge is declared, every
    die of its shot enumerated too; ``counter-charge``, charging back over its Movement from where
    the failed charge roll left the shooter; ``run-away``, fleeing (a victory) before any roll.

    On the table: no unit loses more Wounds than it has; the target destroyed by the shot is a
    victory and is not charged; the shooter destroyed by the reaction shot is a defeat."""
    attack, models = shooter["attack"], len(shooter["wounds"])
    if "march" in actions:
        attack += R["kensei.moving-before-shooting"]["marched"]
        keep = R["kensei.five-cm-rule"]["distance_cm"]
        distance = max(min(distance, keep), distance - R["kensei.movement"]["infantry"])
    modifier = _band_modifier(distance, shooter)
    attack = 10 if modifier is None else attack + modifier  # out of range: no die hits
    shot = {0: Fraction(1)}
    if "fire" in actions:
        shot = bf_dice([(attack, TARGET["defense"], TARGET["armor"], "threshold")] * models)
    total: Counter = Counter()
    victory = defeat = taken = Fraction(0)
    for rolled, p_shot in shot.items():
        dealt = min(rolled, TARGET["wounds"][0])
        left = TARGET["wounds"][0] - dealt
        if left == 0:  # destroyed by the shot: a victory, and nobody to charge
            victory += p_shot
        if left == 0 or "charge" not in actions or reply == "run-away":
            total[dealt] += p_shot
            victory += p_shot * (left > 0 and "charge" in actions)  # it fled
            continue
        answer = {0: Fraction(1)}
        band = _band_modifier(distance, TARGET_ARCHER)
        if reply == "shoot" and band is not None:
            die = (TARGET["attack"] + band, shooter["defense"], shooter["armor"], "threshold")
            answer = bf_dice([die] * (left * R["kensei.shooting-dice"]["dice_per_wound"]))
        for lost, p_answer in answer.items():
            p = p_shot * p_answer
            lost = min(lost, models)
            taken += p * lost
            if lost == models:  # the charger is gone: a defeat, and no charge
                defeat += p
                total[dealt] += p
                continue
            for roll in D10:
                fight = _bf_charge_melee(distance, roll, reply, shooter, models - lost, left)
                for (by_a, by_b), p_fight in fight.items():
                    q = p * Fraction(p_fight, 10)
                    total[dealt + by_a] += q
                    victory += q * (by_a > by_b)
                    defeat += q * (by_a < by_b)
                    taken += q * by_b
    return dict(total), victory, defeat, taken


def _bf_charge_melee(distance: int, roll: int, reply: str, shooter: dict, models: int, left: int) -> dict:
    """P(dealt by the shooter, dealt by the target) once the charge die shows ``roll``: the melee of a
    charge that reaches, of a counter-charge that reaches, or nothing (``{(0, 0): 1}``)."""
    sides = {
        "a_models": models, "a_wounds": models, "a_attack": shooter["attack"], "a_defense": shooter["defense"],
        "a_armor": shooter["armor"], "a_initiative": shooter["initiative"],
        "b_models": 1, "b_wounds": left, "b_attack": TARGET["attack"], "b_defense": TARGET["defense"],
        "b_armor": TARGET["armor"], "b_initiative": TARGET["initiative"],
    }  # fmt: skip
    if roll >= distance:
        return bf_melee({**sides, "a_charge": "infantry", "a_counter_charge": reply == "counter-charge"})
    if reply == "counter-charge" and distance - roll <= R["kensei.movement"]["infantry"]:
        return bf_melee({**sides, "b_charge": "infantry", "b_counter_charge": True})
    return {(0, 0): Fraction(1)}


TURNS = [
    (2, ("fire", "charge"), "movement"),
    (7, ("fire", "charge"), "movement"),
    (12, ("march", "charge"), "after-move"),
    (9, ("march", "charge"), "after-move"),
    (30, ("march", "fire"), "movement"),
    (14, ("fire",), "movement"),
    (25, ("fire",), "movement"),
]


REACTED = [  # the target withstands and shoots: at short, normal and long range, and out of range
    (2, ("fire", "charge"), "movement"),
    (7, ("charge",), "movement"),
    (12, ("march", "charge"), "after-move"),
    (9, ("march", "charge"), "after-move"),
    (10, ("fire", "charge"), "movement"),
    (14, ("charge",), "movement"),
    (20, ("charge",), "movement"),
]


COUNTERED = [  # the target counter-charges: its Movement reaches from every failed roll, from some, from none
    (2, ("fire", "charge"), "movement"),
    (7, ("charge",), "movement"),
    (12, ("march", "charge"), "after-move"),
    (14, ("charge",), "movement"),
    (25, ("charge",), "movement"),
]


PAIR = {**SHOOTER, "wounds": (1, 1)}
"""Two one-Wound archers: their volley may deal more Wounds than the target has (4 against 2), and
the target's reaction shot may destroy them."""

OVERKILL = [
    (2, ("fire", "charge"), "movement", False),
    (7, ("fire", "charge"), "movement", True),
    (9, ("fire",), "movement", False),
    (12, ("march", "charge"), "after-move", True),
]


@pytest.mark.parametrize(
    ("distance", "actions", "reading", "reaction", "shooter"),
    [(*turn, "fight", SHOOTER) for turn in TURNS]
    + [(*turn, "shoot", SHOOTER) for turn in REACTED]
    + [(*turn, "counter-charge", SHOOTER) for turn in COUNTERED]
    + [(*turn, "run-away", SHOOTER) for turn in TURNS[:3]]
    + [(*turn, "shoot" if reaction else "fight", PAIR) for *turn, reaction in OVERKILL]
    + [(*turn, "counter-charge", PAIR) for *turn, _ in OVERKILL],
)
def test_a_whole_turn_matches_an_enumeration_of_every_die(distance, actions, reading, reaction, shooter):
    mine, target = read_units(units_file(shooter, TARGET_ARCHER))
    situation = {"distance": distance, "charge_reading": reading, "enemy_reaction": reaction, "terrain_between": True}
    rows = advise(mine, target, situation).rows
    row = next(row for row in rows if row.actions == actions)
    total, victory, defeat, taken = bf_turn(distance, actions, reaction, shooter)
    assert {k: p for k, p in enumerate(row.dealt) if p} == {k: p for k, p in total.items() if p}
    assert max(k for k, p in enumerate(row.dealt) if p) <= TARGET["wounds"][0]
    assert row.destroyed == total.get(TARGET["wounds"][0], 0)
    assert row.victory == victory
    assert row.defeat == defeat
    assert row.expected_taken == taken
    assert row.net == row.expected_dealt - taken


def test_every_type_gets_a_table_in_every_reading():
    for profile in EVERY_TYPE:
        for reading in CHARGE_READINGS:
            mine, enemy = read_units(units_file(profile, SAMURAI))
            rows = advise(mine, enemy, {"distance": 6, "charge_reading": reading}).rows
            assert rows[-1].expected_dealt == 0 or rows[0].expected_dealt > 0
            assert all(sum(row.dealt) == 1 for row in rows)


def test_every_reading_the_advisor_relies_on_is_a_clarification_in_the_rule_data(book):
    notes = {f"{rule.id}#{note.id}": note.kind for rule in book.rules for note in rule.notes}
    for reading in READINGS:
        assert notes.get(reading) == "reading", reading


def test_the_weapon_may_be_loaded_or_not_whatever_the_profile_says():
    archers, samurai = read_units(units_file(ARCHERS, SAMURAI))
    unloaded = {row.actions for row in advise(archers, samurai, {"distance": 9, "weapon": "unloaded"}).rows}
    assert ("fire",) not in unloaded and ("reload", "fire") in unloaded
    as_profile = {row.actions for row in advise(archers, samurai, {"distance": 9}).rows}
    assert ("fire",) in as_profile and ("reload", "fire") not in as_profile
    spearmen = read_units(units_file({**ARCHERS, "ranged": False, "loaded": False}))[0]
    assert not any("fire" in row.actions for row in advise(spearmen, samurai, {"distance": 9, "weapon": "loaded"}).rows)


def test_the_orders_one_action_point_short_are_listed_apart_with_what_they_need():
    archers, samurai = read_units(units_file(ARCHERS, SAMURAI))
    advice = advise(archers, samurai, {"distance": 14})
    costly = dict(advice.too_costly)
    assert costly == {
        ("march", "precise-fire"): 3,
        ("run", "precise-fire"): 3,
        ("precise-fire", "charge"): 3,
        ("fire", "reload", "fire"): 3,
        ("fire", "reload", "charge"): 3,
    }
    offered = {row.actions for row in advice.rows}
    for actions in costly:
        assert actions not in offered
        assert explain(archers, samurai, {"distance": 14}, actions).startswith("not enough action points")
    hero = read_units(units_file(unit_of_type("character")))[0]
    assert dict(advise(hero, samurai, {"distance": 14}).too_costly)[("precise-fire", "reload", "fire")] == 4


def test_from_a_hill_the_longest_range_reaches_farther():
    archers, samurai = read_units(units_file(ARCHERS, SAMURAI))
    beyond = ARCHERS["long_range_cm"] + 5
    flat = next(row for row in advise(archers, samurai, {"distance": beyond}).rows if row.actions == ("fire",))
    hill = next(row for row in advise(archers, samurai, {"distance": beyond, "on_hill": True}).rows
                if row.actions == ("fire",))  # fmt: skip
    assert flat.expected_dealt == 0 and flat.links[0].inputs["range"] == "out"
    assert hill.expected_dealt > 0 and hill.links[0].inputs["range"] == "long"


def test_a_row_a_calculator_cannot_take_is_left_out_with_its_reason():
    """Sixty 2-Wound harassers (3 action points) at a hundred 3-Wound samurai: every charge needs a
    melee of 300 Wounds, Fire, Reload, Fire a volley of 240 dice; the other rows stand."""
    big = {**unit_of_type("harasser_on_foot", wounds=(2,) * 60), "name": "big"}
    huge = {**unit_of_type("infantry", ranged=False, wounds=(3,) * 100), "name": "huge"}
    mine, enemy = read_units(units_file(big, huge))
    advice = advise(mine, enemy, {"distance": 30})
    left_out = {actions: refusal for actions, refusal in advice.left_out}
    assert ("charge",) in left_out and left_out[("charge",)].calculator == "melee"
    assert left_out[("charge",)].error.field == "b_wounds"
    assert left_out[("fire", "reload", "fire")].calculator == "shooting"
    assert {row.actions for row in advice.rows}.isdisjoint(left_out)
    assert ("fire",) in {row.actions for row in advice.rows}
    document = advice_json(advice)
    entry = next(item for item in document["left_out"] if item["actions"] == ["charge"])
    assert entry["calculator"] == "melee" and entry["error"]["field"] == "b_wounds"


def test_contradictions_are_refused_with_the_input_to_change():
    archers, samurai = read_units(units_file(ARCHERS, SAMURAI))
    with pytest.raises(CalculatorInputError, match="distance: 0 cm is contact") as found:
        advise(archers, samurai, {"distance": 0})
    assert found.value.related == ("engaged",)
    assert advise(archers, samurai, {"distance": 0, "engaged": True}).out_of_the_game
    with pytest.raises(CalculatorInputError, match="goal: must be at most the enemy's Wounds: it has 8 Wounds"):
        advise(archers, samurai, {"distance": 10, "goal": 9})
    assert advise(archers, samurai, {"distance": 10, "goal": 8}).goal == 8
    keep = R["kensei.five-cm-rule"]["distance_cm"]
    with pytest.raises(CalculatorInputError, match=f"distance: units stay at least {keep} cm apart") as found:
        advise(archers, samurai, {"distance": keep - 1})
    assert found.value.related == ("failed_charge", "terrain_between")
    for allowed in ({"failed_charge": True}, {"terrain_between": True}):
        assert advise(archers, samurai, {"distance": keep - 1, **allowed}).rows
    assert advise(archers, samurai, {"distance": keep}).rows


def test_the_units_as_they_stand_are_checked_against_their_profiles():
    """Wounds left and the enemy's weapon, as a table's state gives them: a unit only loses models and
    Wounds, and only a ranged weapon is loaded; the refusal names the input."""
    archers, samurai = read_units(units_file(ARCHERS, SAMURAI))  # 6 archers of 1 Wound, 4 samurai of 2
    for situation, refusal in (
        ({"wounds_left": [1] * 7}, "wounds_left: must be at most the profile's models (6), each with at most 1 Wound"),
        (
            {"enemy_wounds_left": [3]},
            "enemy_wounds_left: must be at most the profile's models (4), each with at most 2",
        ),
        ({"enemy_weapon": "loaded"}, "enemy_weapon: needs a ranged weapon in the enemy's profile"),
    ):
        with pytest.raises(CalculatorInputError, match=refusal.replace("(", r"\(").replace(")", r"\)")):
            advise(archers, samurai, {"distance": 10, **situation})
    worn = advise(archers, samurai, {"distance": 10, "enemy_wounds_left": [2, 1]})
    assert len(worn.rows[0].dealt) == 4 and worn.goal == 2  # at most the 3 Wounds it has left
    with pytest.raises(CalculatorInputError, match="goal: must be at most the enemy's Wounds: it has 3 Wounds"):
        advise(archers, samurai, {"distance": 10, "enemy_wounds_left": [2, 1], "goal": 4})


def _bf_score(turn: tuple, objective: str) -> tuple[Fraction, Fraction]:
    """A reply's score for the player by ``objective`` (higher is better), then its Wounds expected."""
    total, victory, _, taken = turn
    expected = sum((k * p for k, p in total.items()), Fraction(0))
    scores = {"expected_wounds": expected, "victory": victory, "net": expected - taken, "fewest_taken": -taken}
    return scores[objective], expected


@pytest.mark.parametrize("objective", ["expected_wounds", "victory", "net", "fewest_taken"])
@pytest.mark.parametrize(
    ("distance", "actions", "reading"),
    [(7, ("charge",), "movement"), (2, ("fire", "charge"), "movement"), (12, ("march", "charge"), "after-move")],
)
def test_each_charge_is_scored_under_the_enemy_reply_worst_for_you(objective, distance, actions, reading):
    """Every reply enumerated die by die; the row is the one whose score is lowest for the player (the
    first in the order of REPLIES among equals), and names it."""
    mine, target = read_units(units_file(SHOOTER, TARGET_ARCHER))
    situation = {"distance": distance, "charge_reading": reading, "objective": objective, "terrain_between": True}
    row = next(row for row in advise(mine, target, situation).rows if row.actions == actions)
    scored = {reply: bf_turn(distance, actions, reply) for reply in REPLIES}
    worst = min(REPLIES, key=lambda reply: _bf_score(scored[reply], objective))
    assert row.reply == worst
    assert [each.reply for each in row.replies] == list(REPLIES)
    total, victory, defeat, taken = scored[worst]
    assert {k: p for k, p in enumerate(row.dealt) if p} == {k: p for k, p in total.items() if p}
    assert (row.victory, row.defeat, row.expected_taken) == (victory, defeat, taken)
    standing = advise(mine, target, situation | {"enemy_reaction": "best-standing"}).rows
    kept = next(each for each in standing if each.actions == actions)
    assert kept.reply == min(REPLIES[:3], key=lambda reply: _bf_score(scored[reply], objective))


def test_the_replies_open_to_the_enemy_follow_its_profile_and_its_turn():
    mine, archer = read_units(units_file(SHOOTER, TARGET_ARCHER))
    _, target = read_units(units_file(SHOOTER, TARGET))
    charge = ("charge",)

    def replies(enemy, **situation):
        rows = advise(mine, enemy, {"distance": 7, **situation}).rows
        return [each.reply for each in next(row for row in rows if row.actions == charge).replies]

    assert replies(archer) == ["fight", "shoot", "counter-charge", "run-away"]
    assert replies(target) == ["fight", "counter-charge", "run-away"]  # no bow: no reaction shot
    assert replies(archer, enemy_charged=True) == ["fight"]
    assert replies(archer, enemy_reaction="counter-charge") == ["counter-charge"]
    _, character = read_units(units_file(SHOOTER, {**unit_of_type("character", wounds=(3,)), "name": "hero"}))
    assert "counter-charge" not in replies(character)  # no charge dice for a character (the reading)
    with pytest.raises(CalculatorInputError) as refused:
        advise(mine, archer, {"distance": 7, "enemy_reaction": "shoot", "enemy_charged": True})
    assert refused.value.field == "enemy_reaction" and refused.value.related == ("enemy_charged",)
    with pytest.raises(CalculatorInputError) as refused:
        advise(mine, character, {"distance": 7, "enemy_reaction": "counter-charge"})
    assert refused.value.field == "enemy_reaction"


@pytest.mark.parametrize("reading", ["infantry", "cavalry"])
def test_a_character_charges_only_under_the_other_reading_and_then_as_the_type_chosen(reading):
    """kensei.charge-dice#unlisted-types: by default a character has no charge; read as infantry or as
    cavalry, its charge is that of a unit of that type with its characteristics, and an enemy
    character may counter-charge."""
    hero = {**unit_of_type("character", wounds=(3,)), "name": "hero"}
    twin = {**hero, "unit_type": reading, "name": "twin"}
    target = {**TARGET, "name": "target"}
    (character, enemy), (same, _) = read_units(units_file(hero, target)), read_units(units_file(twin, target))
    situation = {"distance": 8, "enemy_reaction": "fight"}
    assert not [row for row in advise(character, enemy, situation).rows if "charge" in row.actions]
    rows = {row.actions: row for row in advise(character, enemy, situation | {"lone_charge": reading}).rows}
    for actions in (("charge",), ("fire", "charge")):
        theirs = next(row for row in advise(same, enemy, situation).rows if row.actions == actions)
        mine = rows[actions]
        assert (mine.dealt, mine.p_reach, mine.victory, mine.defeat, mine.expected_taken) == (
            theirs.dealt, theirs.p_reach, theirs.victory, theirs.defeat, theirs.expected_taken
        )  # fmt: skip
    shooter, against = read_units(units_file(SHOOTER, hero))  # the hero has a loaded bow: it may shoot back
    opened = {NONE_READING: ["fight", "shoot", "run-away"], reading: ["fight", "shoot", "counter-charge", "run-away"]}
    for lone, replies in opened.items():
        found = advise(shooter, against, {"distance": 7, "lone_charge": lone}).rows
        assert [each.reply for each in next(row for row in found if row.actions == ("charge",)).replies] == replies


def test_the_json_names_the_whole_situation_and_it_gives_the_same_table_again():
    """A row that averages several calculator runs is reproduced by the advisor's own state: the JSON's
    situation (every input, defaults included) with the same two profiles gives the same rows."""
    samurai, archers = read_units(units_file(SAMURAI, ARCHERS))
    document = advice_json(advise(samurai, archers, {"distance": 8, "enemy_reaction": "shoot"}))
    assert document["situation"]["distance"] == 8 and document["situation"]["enemy_reaction"] == "shoot"
    assert document["situation"]["charge_reading"] == "movement"  # a default, written out
    again = advice_json(advise(samurai, archers, json.loads(json.dumps(document["situation"]))))
    assert again == document
    averaged = [run for row in document["rows"] for run in row["calculators"] if run["averaged"]]
    assert averaged  # the charge after the reaction shot averages a melee per loss of yours


@pytest.mark.parametrize("side", ["mine", "enemy"])
def test_a_unit_given_as_no_profile_is_refused_naming_its_side(side):
    """The Python API takes profiles read from a units file; a mapping in their place is named, not an
    AttributeError from deep inside."""
    archers, samurai = read_units(units_file(ARCHERS, SAMURAI))
    units = {"mine": archers, "enemy": samurai, side: {"name": "x"}}
    for call in (advise, lambda m, e, s: explain(m, e, s, ("fire",))):
        with pytest.raises(CalculatorInputError) as refused:
            call(units["mine"], units["enemy"], {"distance": 12})
        assert refused.value.field == side and "profile" in refused.value.describe(str)

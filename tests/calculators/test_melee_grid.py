"""The charge rows' melees summed at once (calculators.melee_grid) against the melee calculator run
once per pair of sizes, as the advisor did before: the same rows, figure for figure, exactly."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import pytest
from unit_profiles import ARCHERS, SAMURAI, unit_of_type, units_file

from calculators import CalculatorInputError
from calculators.advisor import prepared_turn as _turn
from calculators.advisor_odds import MOVES, Keeps, Link, Row, RowLeftOut, _rules_of, capped, loaded_after, sequence_row
from calculators.enemy_reply import scored_row
from calculators.melee import CALCULATOR as MELEE
from calculators.melee import Side, both_orders
from calculators.melee_grid import PairTables, ReactionAndBlow, convolve, power_row
from calculators.orders import action_cost, sequences
from calculators.pmf import Pmf
from calculators.profiles import read_units
from calculators.shooting import CALCULATOR as SHOOTING

# ---- The reference: one melee calculator run per pair of sizes ---------------------------------------


class PerPair:
    """The calculators run pair by pair: the enemy's reaction shot for each of its sizes, and the melee
    for each pair of sizes (the enemy taking as much Defensive Position as its dice pay for)."""

    def __init__(self, turn):
        self.turn = turn
        self.fights = {}
        self.answers = {}

    def reaction(self, lost, distance):
        turn = self.turn
        if not turn.enemy_shoots:
            return (Fraction(1),), None
        if (lost, distance) not in self.answers:
            mapping = turn.reaction_inputs(lost, distance)
            try:
                result = SHOOTING.evaluate(mapping, turn.rules)
            except CalculatorInputError as error:
                raise RowLeftOut("shooting", error) from None
            answer = capped(result.wounds.pmf, turn.mine_total)
            self.answers[(lost, distance)] = (answer, Link("shooting", mapping, side="enemy"))
        return self.answers[(lost, distance)]

    def fight(self, lost, lost_mine):
        if (lost, lost_mine) not in self.fights:
            self.fights[(lost, lost_mine)] = self._fight(lost, lost_mine)
        return self.fights[(lost, lost_mine)]

    def _fight(self, lost, lost_mine):
        mapping = self.turn.melee_inputs(lost, lost_mine)
        if mapping["b_wounds"] == 0 or mapping["a_wounds"] == 0:
            return None
        while True:
            try:
                result = MELEE.evaluate(mapping, self.turn.rules)
                break
            except CalculatorInputError as error:
                if error.field != "b_defensive" or not mapping["b_defensive"]:
                    raise RowLeftOut("melee", error) from None
                mapping["b_defensive"] -= 1
        return result, Link("melee", mapping)


def reference_row(turn, actions, pairs):
    """The row the advisor gave before the grid: every pair of sizes a melee calculator run."""
    shot, links = turn.shots(actions)
    shot = shot + (Fraction(0),) * (turn.enemy_total + 1 - len(shot))
    cost = sum(action_cost(action, turn.rules) for action in actions)
    keeps = Keeps(loaded_after(actions, turn.situation.loaded), sum(1 for a in actions if a in (*MOVES, "charge")))
    rules = tuple(dict.fromkeys(_rules_of(actions)))
    if not actions or actions[-1] != "charge":
        return Row(actions, cost, shot, victory=shot[turn.enemy_total], links=links, rules=rules, keeps=keeps)
    p_reach, charge_link = turn.reach(actions)
    start = turn.distance_after(tuple(action for action in actions if action in MOVES))
    dealt = list(shot)
    charged = victory = draw = defeat = taken = Fraction(0)
    reaction_links, melee_links = [], []
    for lost, p_shot in enumerate(shot[: turn.enemy_total]):
        if not p_shot:
            continue
        answer, answer_link = pairs.reaction(lost, start)
        if answer_link is not None and not reaction_links:  # one of several when other sizes may be met
            reaction_links.append(replace(answer_link, averaged=p_shot != 1))
        for lost_mine, p_answer in enumerate(answer):
            p = p_shot * p_answer
            if not p:
                continue
            taken += p * lost_mine
            fight = pairs.fight(lost, lost_mine)
            if fight is None:
                defeat += p
                continue
            charged += p
            if not p_reach:
                continue
            result, link = fight
            dealt[lost] -= p * p_reach
            for extra, p_fight in enumerate(result.a_dealt.pmf):
                dealt[lost + extra] += p * p_reach * p_fight
            victory += p * p_reach * result.victory
            draw += p * p_reach * result.draw
            defeat += p * p_reach * result.defeat
            taken += p * p_reach * result.b_dealt.mean
            if not melee_links:  # one of several unless its pair of sizes is certain
                melee_links.append(replace(link, averaged=p != 1))
    if reaction_links:
        rules = (*rules, "kensei.reactions", "kensei.withstand-and-shoot")
    links = (*links, *reaction_links, *((charge_link,) if charged else ()), *melee_links)
    return Row(
        actions, cost, tuple(dealt), p_reach=p_reach if charged else None, victory=shot[turn.enemy_total] + victory,
        draw=draw, defeat=defeat, expected_taken=taken, links=links, rules=rules, p_charged=charged, keeps=keeps,
    )  # fmt: skip


def assert_same_rows(mine, enemy, situation, reply=None):
    """Every sequence's row, fast and per pair: equal in every figure (exact fractions) and link; a row
    left out, left out by the same calculator with the same refusal. ``reply``: the melees of that
    reply of the enemy's (a counter-charge met, or the enemy's counter-charge reaching your unit)."""
    mine_profile, enemy_profile = read_units(units_file(mine, {**enemy, "name": "enemy"}))
    inputs, turn = _turn(mine_profile, enemy_profile, situation, None)
    _, reference = _turn(mine_profile, enemy_profile, situation, None)
    if reply is not None:
        turn, reference = turn.replying(reply), reference.replying(reply)
    pairs = PerPair(reference)
    charges = 0
    for actions in sequences(turn.situation, inputs.rules):
        try:
            fast = sequence_row(turn, actions)
        except RowLeftOut as refusal:
            fast = ("left out", refusal.calculator, str(refusal.error))
        try:
            slow = reference_row(reference, actions, pairs)
        except RowLeftOut as refusal:
            slow = ("left out", refusal.calculator, str(refusal.error))
        assert fast == slow, actions
        charges += bool(actions) and actions[-1] == "charge"
    assert charges


def _unit(unit_type="infantry", wounds=(1, 1), **stats):
    return {**unit_of_type(unit_type, wounds=wounds), "name": "unit", **stats}


# ---- The grid of units ---------------------------------------------------------------------------------

SHOOT = {"distance": 5, "enemy_reaction": "shoot"}
FIGHT = {"distance": 5, "enemy_reaction": "fight"}

NAMED = {
    "one Wound each, shoot": (_unit(wounds=(1,) * 4), _unit(wounds=(1,) * 4), SHOOT),
    "two Wounds against one": (_unit(wounds=(2, 2, 2)), _unit(wounds=(1,) * 5, attack=4), SHOOT),
    "mixed Wounds": (_unit(wounds=(3, 2, 1, 1)), _unit(wounds=(2, 1, 2), defense=7), SHOOT),
    "yours a third of theirs": (_unit(wounds=(2, 2)), _unit(wounds=(1,) * 7, attack=3), SHOOT),
    "theirs at most a third of yours": (_unit(wounds=(1,) * 7), _unit(wounds=(3, 2)), SHOOT),
    "theirs at most half of yours": (_unit(wounds=(1,) * 5), _unit(wounds=(2, 2, 1)), FIGHT),
    "Defensive Position": (_unit(wounds=(1,) * 5), _unit(wounds=(2,) * 3), FIGHT | {"enemy_defensive": 2}),
    "Defensive Position it cannot pay": (_unit(wounds=(2,) * 2), _unit(wounds=(1, 1)), FIGHT | {"enemy_defensive": 3}),
    "Defensive Position in cover": (
        _unit(wounds=(1,) * 6), _unit(wounds=(2,) * 3), FIGHT | {"enemy_defensive": 1, "enemy_cover": "heavy"}
    ),
    "enemy in water, strikes first": (_unit(wounds=(2,) * 3, initiative=1), _unit(wounds=(2,) * 3, initiative=9),
                                      SHOOT | {"enemy_in_water": True}),
    "cavalry, you strike first": (_unit("cavalry", wounds=(2,) * 3, initiative=9), _unit(wounds=(1,) * 6), SHOOT),
    "reaction at long range": (_unit(wounds=(1,) * 4), _unit(wounds=(2,) * 3), SHOOT | {"distance": 24}),
    "reaction out of range": (_unit(wounds=(1,) * 4), _unit(wounds=(2,) * 3), SHOOT | {"distance": 45}),
    "subtractive reaction": (_unit(wounds=(2,) * 3), _unit(wounds=(1,) * 4, attack=0),
                             SHOOT | {"damage_rule": "subtractive"}),
    "a march first": (_unit(wounds=(1,) * 5), _unit(wounds=(2,) * 3), SHOOT | {"distance": 12,
                                                                            "charge_reading": "after-move"}),
    "no hit possible": (_unit(wounds=(2,) * 2, attack=10), _unit(wounds=(2,) * 2, defense=10), SHOOT),
    "archers against samurai": (ARCHERS, SAMURAI, FIGHT | {"distance": 8, "enemy_defensive": 1}),
    "samurai against archers": (SAMURAI, ARCHERS, SHOOT | {"distance": 8}),
}  # fmt: skip
"""Units chosen for a reading each: model counts, Wounds per model, who strikes first, Defense and
Defensive Position, outnumbering at a half and a third either way, the reaction or none."""


@pytest.mark.parametrize(("mine", "enemy", "situation"), NAMED.values(), ids=NAMED.keys())
def test_each_row_is_the_melee_calculator_run_pair_by_pair(mine, enemy, situation):
    assert_same_rows(mine, enemy, situation)


COUNTER_CHARGES = {
    "samurai against archers": (SAMURAI, ARCHERS, FIGHT | {"distance": 8}),
    "archers against samurai": (ARCHERS, SAMURAI, FIGHT | {"distance": 8, "enemy_cover": "light"}),
    "equal dice on both sides": (_unit("mounted_harasser", wounds=(2, 2), attack=5, defense=5, armor=3),
                                 {**ARCHERS, "name": "enemy"}, FIGHT | {"distance": 25, "damage_rule": "subtractive"}),
    "theirs at most a third of yours": (_unit(wounds=(1,) * 7), _unit(wounds=(3, 2)), FIGHT),
    "mixed Wounds": (_unit(wounds=(3, 2, 1, 1)), _unit(wounds=(2, 1, 2), defense=7), FIGHT),
    "twenty Wounds against two": (_unit("mounted_harasser", wounds=(2,) * 10, attack=3),
                                  _unit("harasser_on_foot", wounds=(1, 1), defense=3, armor=1), FIGHT),
}  # fmt: skip
"""Units whose melees after a counter-charge are checked pair by pair: among them, two sides whose
strike dice are equal (the tables of each side are then told apart by side, not by die), and a
small enemy with bonus dice striking back at a large unit (its blow read deep in its tables)."""


@pytest.mark.parametrize("reply", ["counter-charge", "counter-charged"])
@pytest.mark.parametrize(("mine", "enemy", "situation"), COUNTER_CHARGES.values(), ids=COUNTER_CHARGES.keys())
def test_the_melees_of_a_counter_charge_are_the_melee_calculator_run_pair_by_pair(mine, enemy, situation, reply):
    assert_same_rows(mine, enemy, situation, reply)


STATS = {"attack": (0, 3, 5, 7, 9), "defense": (2, 5, 7, 10), "armor": (0, 3, 6), "initiative": (1, 4, 8)}


def _random_unit(rng: random.Random, unit_type: str) -> dict:
    wounds = tuple(rng.choice((1, 1, 2, 3)) for _ in range(rng.choice((1, 2, 3, 5, 8))))
    return _unit(unit_type, wounds=wounds, **{stat: rng.choice(choices) for stat, choices in STATS.items()})


@pytest.mark.parametrize("seed", range(12))
def test_random_units_give_the_same_rows(seed):
    rng = random.Random(seed)
    mine = _random_unit(rng, rng.choice(("infantry", "cavalry", "harasser_on_foot", "large_creature")))
    enemy = _random_unit(rng, "infantry")
    situation = {
        "distance": rng.choice((3, 6, 9, 14)),
        "enemy_reaction": rng.choice(("fight", "shoot")),
        "enemy_defensive": rng.choice((0, 0, 1, 2)),
        "enemy_cover": rng.choice(("none", "light")),
        "charge_reading": rng.choice(("movement", "after-move")),
        "terrain_between": True,  # 3 cm apart otherwise breaks kensei.five-cm-rule
    }
    assert_same_rows(mine, enemy, situation)


MEDIUM = {
    "fourteen of two Wounds, shoot": (_unit(wounds=(2,) * 14), _unit(wounds=(2,) * 12), SHOOT | {"distance": 9}),
    "twelve of one against four of three": (_unit(wounds=(1,) * 12), _unit(wounds=(3,) * 4), SHOOT),
    "eight of two, Defensive Position": (_unit(wounds=(2,) * 8), _unit(wounds=(2,) * 8),
                                         FIGHT | {"distance": 9, "enemy_defensive": 2}),
}  # fmt: skip
"""Medium units: the enemy's outnumbering and yours both arise as the shots and the reaction thin
the ranks."""


@pytest.mark.parametrize(("mine", "enemy", "situation"), MEDIUM.values(), ids=MEDIUM.keys())
def test_medium_units_give_the_same_rows(mine, enemy, situation):
    assert_same_rows(mine, enemy, situation)


# ---- The parts ---------------------------------------------------------------------------------------

DICE = [((5, 3, 2), (4, 1, 3)), ((5, 0, 2, 1), (3, 1, 0, 2)), ((7, 2), (4, 1, 3)), ((997, 0, 3), (19, 72, 9))]
BONUSES = [(0, 0), (2, 0), (4, 0), (0, 2), (0, 4), (0, -3), (2, -3), (0, -6), (4, -9)]


@pytest.mark.parametrize(("budget", "summed"), [(0, False), (10**9, False), (0, True)],
                         ids=["whole tables", "rare pairs summed", "every pair summed"])  # fmt: skip
@pytest.mark.parametrize(("a", "b"), DICE)
def test_one_melee_of_the_tables_is_the_melee_calculators(a, b, budget, summed):
    """Every pair of small sizes and bonuses (negative: Defensive Position), both strike orders: the
    tables' victory, draw and Wounds lost when A strikes first are the melee calculator's exchanges,
    the rare pairs read from the whole races or summed over the blow's totals, or every pair summed
    (a grid of few pairs)."""
    tables = PairTables(a, b, 11, 15)
    tables.direct_budget = budget
    for c in range(1, 7):
        for k in range(1, 7):
            for bonus_a, bonus_b in BONUSES:
                denominator = sum(a) ** (c + bonus_a) * sum(b) ** max(0, k + bonus_b)
                for first in (Fraction(1), Fraction(0), Fraction(3, 7)):
                    chance, other = first.numerator, first.denominator - first.numerator
                    victory, draw, taken = tables.run_sums(k, bonus_a, bonus_b, c, [1], chance, other, summed)
                    sides = Side("a", c, bonus_a, 0, 0, 0, 0), Side("b", k, bonus_b, 0, 0, 0, 0)
                    exchange = both_orders(*sides, Pmf(a), Pmf(b), first)
                    expected = [Fraction(sum(exchange.difference[c + 1 :]), exchange.total) - first]
                    expected.append(Fraction(exchange.difference[c], exchange.total))
                    got = [Fraction(value, denominator * first.denominator) for value in (victory, draw)]
                    assert got == expected
                    if first == 1:
                        back = Fraction(sum(y * w for y, w in enumerate(exchange.by_second)), exchange.total)
                        assert Fraction(taken, denominator) == back


def test_the_reaction_and_blow_above_any_threshold_are_the_direct_sums():
    """The restricted powers, kept and moved from one threshold to another as the enemy grows, are
    the reaction's weights from the threshold up times the blow's, and none of their totals is below
    the threshold."""
    reaction, blow, size = (5, 3, 2), (4, 1, 3), 25
    both = ReactionAndBlow(reaction, blow, size)
    rng = random.Random(5)
    for enemy in range(1, 15):
        both.advance()
        thresholds = set(rng.sample(range(1, 30), 3))
        reactions, blows = power_row(reaction, enemy), power_row(blow, enemy)
        for threshold in thresholds:
            above = [weight if level >= threshold else 0 for level, weight in enumerate(reactions)]
            totals = convolve(above, blows, size)
            assert totals[:threshold] == [0] * min(threshold, size)
            assert both.above(threshold) == totals[threshold:]
        both.keep(thresholds)


def test_the_rows_of_a_turn_do_not_depend_on_their_order():
    """A turn makes its melees once, for every charge it may declare: rows asked in any order, or
    alone, are the same."""
    samurai, archers = read_units(units_file(SAMURAI, {**ARCHERS, "name": "enemy"}))
    situation = SHOOT | {"distance": 9, "charge_reading": "after-move"}
    charges = [("charge",), ("march", "charge")]
    rows = {}
    for order in (charges, charges[::-1]):
        _, turn = _turn(samurai, archers, situation, None)
        rows[tuple(order)] = [sequence_row(turn, actions) for actions in order]
    assert rows[tuple(charges)] == rows[tuple(charges[::-1])][::-1]
    for actions, row in zip(charges, rows[tuple(charges)], strict=True):
        _, alone = _turn(samurai, archers, situation, None)
        assert sequence_row(alone, actions) == row


def test_the_replies_of_a_turn_share_one_set_of_tables_for_each_pair_of_dice():
    """A charge scored under every reply has its tables made once for each pair of dice, as large as
    the largest of its melees (a counter-charge's bonus dice): the other replies' grids take them,
    with the same rows as a turn whose replies make tables for themselves (more of them)."""
    samurai, archers = read_units(units_file(SAMURAI, {**ARCHERS, "name": "enemy"}))
    situation = {"distance": 9, "enemy_reaction": "best"}
    _, turn = _turn(samurai, archers, situation, None)
    row = scored_row(turn, ("charge",), lambda row: row.victory)
    assert {reply.reply for reply in row.replies} >= {"fight", "shoot", "counter-charge"}
    made = [(a, b) for a, b, _, _ in turn._tables]  # what the turn made is the point
    assert len(set(made)) == len(made)
    _, alone = _turn(samurai, archers, situation, None)
    alone.plan_melees = lambda replies: None  # each reply makes tables for itself
    assert scored_row(alone, ("charge",), lambda row: row.victory) == row
    assert len(alone._tables) > len(made)

"""The Command phase plan (calculators.command_plan): its search against every plan enumerated, focus fire
against the convolution of the calculators' own shots, its regrouping against the regroup planner, and
its points never overspent."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_advisor import _convolve
from unit_profiles import ARCHERS, SAMURAI, unit_of_type, units_file

from calculators import CALCULATORS, CalculatorInputError
from calculators.advisor import advise, rank_key
from calculators.advisor_odds import capped
from calculators.command_plan import OBJECTIVES, READINGS, _best_group, _weighed, plan_turn, ranked_orders
from calculators.enemy_reply import scored_row
from calculators.plan_options import Option, Shared, Target, mean, pair_options
from calculators.plan_report import plan_json
from calculators.profiles import find, read_units
from calculators.rulebook import RuleValues
from calculators.spells import d10_at_most
from calculators.table import read_table

RULES = RuleValues.bundled()
SPEARMEN = {**unit_of_type("infantry", ranged=False, wounds=(1,) * 5), "name": "Spearmen", "honor": 5}
GUARD = {**unit_of_type("infantry", ranged=False, wounds=(2,) * 3), "name": "Guard", "honor": 7, "attack": 4}
BOWMEN = {**ARCHERS, "name": "Bowmen", "wounds": [1, 1, 1]}
SCOUTS = {**unit_of_type("harasser_on_foot", ranged=False, wounds=(1, 1)), "name": "Scouts", "honor": 6}
RONIN = {**SAMURAI, "name": "Ronin", "wounds": [2, 2]}
TWINS = ({**BOWMEN, "name": "Bowmen of the east"}, {**GUARD, "name": "Guard of the east"})
"""Units alike in all but their names: the plan shares their work with the Bowmen's and the Guard's."""
PROFILES = read_units(units_file(ARCHERS, SAMURAI, SPEARMEN, GUARD, BOWMEN, SCOUTS, RONIN, *TWINS))


def table_of(mine, enemy, distances, **top) -> dict:
    return {"format": "kensei-ref/table", "version": 1, "game": "kensei", "general": "taisho", "mine": mine,
            "enemy": enemy, "distances": distances} | top  # fmt: skip


SMALL = table_of(
    [{"unit": "Bowmen"}, {"unit": "Guard", "bushi_hero": True}, {"unit": "Spearmen", "state": "fleeing"}],
    [{"unit": "Ronin"}, {"unit": "Scouts"}],
    [{"mine": "Bowmen", "enemy": "Ronin", "cm": 12}, {"mine": "Bowmen", "enemy": "Scouts", "cm": 18},
     {"mine": "Guard", "enemy": "Ronin", "cm": 7}, {"mine": "Guard", "enemy": "Scouts", "cm": 9, "in_sight": False}],
    ki=6,
)  # fmt: skip
"""Two of your units (one with a Bushi hero) and a fleeing one, two enemies, one out of the Guard's sight."""

CALM = {**{key: value for key, value in SMALL.items() if key != "ki"},
        "mine": [{"unit": "Bowmen"}, {"unit": "Guard", "bushi_hero": True}, {"unit": "Spearmen"}]}  # fmt: skip
"""SMALL with no unit fleeing and no Ki for a strategic order: the plans spend no commandment point."""

HEROES = table_of(
    [{"unit": "Bowmen"}, {"unit": "Guard", "bushi_hero": True}, {"unit": "Spearmen", "bushi_hero": True}],
    [{"unit": "Ronin"}, {"unit": "Scouts"}],
    [{"mine": "Bowmen", "enemy": "Ronin", "cm": 12}, {"mine": "Guard", "enemy": "Ronin", "cm": 15},
     {"mine": "Guard", "enemy": "Scouts", "cm": 9, "in_sight": False},
     {"mine": "Spearmen", "enemy": "Ronin", "cm": 8, "in_sight": False}],
    ki=7, general="daimyo", dominance=True,
)  # fmt: skip
"""Two units with a Bushi hero, each with an enemy out of sight: plans with one strategic order and two."""


def _score(dealt, victory, taken, objective, goal):
    expected = sum((k * p for k, p in enumerate(dealt)), Fraction(0))
    return {
        "expected_wounds": expected, "regrouped": expected, "at_least_one": 1 - dealt[0],
        "at_least_goal": sum(dealt[goal:], Fraction(0)), "victory": victory, "fewest_taken": -taken,
        "net": expected - taken,
    }[objective], expected  # fmt: skip


def _group_by_hand(members, wounds, goal, objective):
    """One enemy's figures under ``members``: the shots as the shooting calculator gives them (its own
    runs, from each row's links), convolved and capped here; a charge scored by the advisor on them."""
    shooters = [option for option in members if not option.charge]
    chargers = [option for option in members if option.charge]

    def shots(options, sure=()):
        total = [Fraction(1)]
        for option in options:
            pmf = [Fraction(1)]
            for link in option.row.links:
                if link.calculator == "shooting" and link.side == "mine":
                    pmf = _convolve(pmf, CALCULATORS["shooting"].evaluate(link.inputs, RULES).wounds.pmf)
            pmf = list(capped(tuple(pmf), wounds))
            if option.strategic is not None and option not in sure:
                pmf = [option.strategic * p + (1 - option.strategic) * (k == 0) for k, p in enumerate(pmf)]
            total = list(capped(tuple(_convolve(total, pmf)), wounds))
        return total + [Fraction(0)] * (wounds + 1 - len(total))

    alone = shots(shooters)
    quiet = _score(alone, alone[wounds], Fraction(0), objective, goal)
    if not chargers:
        return quiet
    charger = chargers[0]
    before = tuple(shots([*shooters, charger], sure=(charger,)))
    turn = charger.turn
    row = scored_row(turn, charger.actions, lambda r: rank_key(turn.inputs.objective, goal)(r)[:2], shot=before)
    loud = _score(row.dealt, row.victory, row.expected_taken, objective, goal)
    if charger.strategic is None:
        return loud
    chance = charger.strategic
    return tuple(chance * a + (1 - chance) * b for a, b in zip(loud, quiet, strict=True))


def _every_plan_best(document, objective):
    """The best orders' figures over every plan: each ready unit nothing or any of its options, at most
    one charge at an enemy, strategic orders only as the points allow; nothing left out."""
    table = read_table(document, PROFILES)
    ki = d10_at_most(table.ki, RULES) if table.ki is not None else None
    ready = [i for i, unit in enumerate(table.mine) if unit.state == "ready"]
    choices = [[None, *(o for (u, _), found in ((p, pair_options(table, *p, objective, ki)) for p in table.reaches)
                        if u == unit for o in found)] for unit in ready]  # fmt: skip
    best, assigned = {}, {}
    for plan in itertools.product(*choices):
        strategic = tuple(sorted(o.unit for o in plan if o is not None and o.strategic is not None))
        assignment = (strategic, tuple((o.unit, o.target) for o in plan if o is not None))
        groups = {}
        for option in plan:
            if option is not None:
                groups.setdefault(option.target, []).append(option)
        if any(sum(o.charge for o in members) > 1 for members in groups.values()):
            continue
        total = (Fraction(0), Fraction(0))
        for target, members in groups.items():
            profile = table.enemy[target].profile
            figures = _group_by_hand(members, sum(profile.wounds), profile.wounds[0], objective)
            total = (total[0] + figures[0], total[1] + figures[1])
        if strategic not in best or total > best[strategic]:
            best[strategic] = total
        if assignment not in assigned or total > assigned[assignment]:
            assigned[assignment] = total
    ranked = {}
    for (strategic, _), total in assigned.items():
        ranked.setdefault(strategic, []).append(total)
    return table, best, {strategic: sorted(set(totals), reverse=True) for strategic, totals in ranked.items()}


@pytest.mark.parametrize("document", [SMALL, HEROES], ids=["small", "heroes"])
@pytest.mark.parametrize("objective", OBJECTIVES)
def test_the_best_orders_are_the_best_of_every_plan(document, objective):
    table, best, _ = _every_plan_best(document, objective)
    plans = plan_turn(table, objective)
    for plan in plans:
        if plan.rank == 0:
            assert plan.figures == best[plan.strategic], plan.strategic
    assert plans[0].figures[0] == max(figures[0] for figures in best.values()) or objective == "regrouped"
    assert plans[0].rank == 0


@pytest.mark.parametrize("document", [SMALL, HEROES], ids=["small", "heroes"])
@pytest.mark.parametrize("objective", ["expected_wounds", "victory", "net"])
@pytest.mark.parametrize("alternatives", [1, 5])
def test_the_next_best_plans_are_the_next_best_assignments_of_every_plan(document, objective, alternatives):
    """For each choice of commandment points listed, its plans are the best ways of assigning the
    units to enemies (each at its best orders), ranked, each figure once, as enumerating every plan
    ranks them; a plan that buys a strategic order uses it."""
    table, _, ranked = _every_plan_best(document, objective)
    plans = plan_turn(table, objective, alternatives=alternatives)
    for strategic in {plan.strategic for plan in plans}:
        mine = sorted((plan for plan in plans if plan.strategic == strategic), key=lambda plan: plan.rank)
        assert [plan.rank for plan in mine] == list(range(len(mine)))
        assert [plan.figures for plan in mine] == ranked[strategic][: 1 + alternatives], strategic
        assert len({plan.figures for plan in mine}) == len(mine)
        for plan in mine:  # every strategic order bought is used
            assert {o.unit for o in plan.orders if o.strategic is not None} == set(strategic)
    assert [plan for plan in plan_turn(table, objective, alternatives=0)] == [p for p in plans if p.rank == 0]


def test_focus_fire_is_the_convolution_of_the_shots_capped():
    document = table_of(
        [{"unit": "Ashigaru archers"}, {"unit": "Bowmen"}], [{"unit": "Scouts"}],
        [{"mine": "Ashigaru archers", "enemy": "Scouts", "cm": 15}, {"mine": "Bowmen", "enemy": "Scouts", "cm": 9}],
    )  # fmt: skip
    table = read_table(document, PROFILES)
    best = plan_turn(table, "expected_wounds")[0]
    assert {option.unit for option in best.orders} == {0, 1}  # both shoot at the only enemy
    report = plan_json(table, [best], "expected_wounds", 3)["plans"][0]
    total = [Fraction(1)]
    for order in report["orders"]:
        for link in order["calculators"]:
            total = _convolve(total, CALCULATORS["shooting"].evaluate(link["inputs"], RULES).wounds.pmf)
    expected = capped(tuple(total), 2)
    assert report["enemies"][0]["wounds_pmf"] == [float(p) for p in expected]
    assert report["enemies"][0]["p_destroyed"] == float(expected[2])


WORN = table_of(
    [{"unit": "Bowmen", "wounds": [1, 1], "loaded": False}, {"unit": "Guard", "wounds": [2, 1], "reactions": 1},
     {"unit": "Ashigaru archers", "cover": "light"}],
    [{"unit": "Ronin", "wounds": [1], "cover": "light"}, {"unit": "Bowmen of the east", "loaded": False},
     {"unit": "Scouts", "wounds": [1]}],
    [{"mine": "Bowmen", "enemy": "Ronin", "cm": 12}, {"mine": "Guard", "enemy": "Ronin", "cm": 7},
     {"mine": "Guard", "enemy": "Scouts", "cm": 9}, {"mine": "Ashigaru archers", "enemy": "Bowmen of the east",
     "cm": 14}, {"mine": "Ashigaru archers", "enemy": "Scouts", "cm": 10}],
)  # fmt: skip
"""Units worn down this game: Wounds lost on both sides, weapons fired and not reloaded, a reaction paid."""


@pytest.mark.parametrize("document", [SMALL, HEROES, WORN], ids=["small", "heroes", "worn"])
@pytest.mark.parametrize("objective", ["expected_wounds", "victory", "net", "regrouped"])
def test_each_units_orders_open_the_advisor_on_the_same_row(document, objective):
    """A plan's ``advisor`` entry (the units by name, the situation from the table's state) gives the
    orders advisor, from the units file's own profiles, a row with the orders' very figures."""
    table = read_table(document, PROFILES)
    report = plan_json(table, plan_turn(table, objective, alternatives=2), objective, 3)
    orders = [order for plan in report["plans"] for order in plan["orders"]]
    assert orders
    for order in orders:
        link = order["advisor"]
        assert (link["mine"], link["enemy"]) == (order["unit"], order["target"])
        advice = advise(find(PROFILES, link["mine"], "mine"), find(PROFILES, link["enemy"], "enemy"), link["situation"])
        row = next(row for row in advice.rows if list(row.actions) == order["actions"])
        assert [float(p) for p in row.dealt] == order["wounds_pmf"]
        assert (float(row.victory), float(row.defeat), float(row.expected_taken), row.reply) == (
            order["victory"], order["defeat"], order["expected_taken"], order["reply"])  # fmt: skip
        assert json.loads(json.dumps(link)) == link


@pytest.mark.parametrize("general", ["daimyo", "taisho", "hero"])
@pytest.mark.parametrize("taisho_ability", [False, True])
def test_the_regrouping_is_the_regroup_planners(general, taisho_ability):
    fleeing = [{"unit": "Spearmen", "state": "fleeing"}, {"unit": "Guard", "state": "fleeing", "regroup_bonus": 1}]
    document = table_of([{"unit": "Bowmen"}, *fleeing], [{"unit": "Scouts"}],
                        [{"mine": "Bowmen", "enemy": "Scouts", "cm": 9}], general=general,
                        taisho_ability=taisho_ability, dominance=True)  # fmt: skip
    table = read_table(document, PROFILES)
    plan = plan_turn(table, "regrouped")[0]
    planned = CALCULATORS["planner"].run(
        {"general": general, "dominance": True, "taisho_ability": taisho_ability, "honors": [5, 7], "bonuses": [0, 1]}
    )
    assert float(plan.expected_regrouped) == pytest.approx(planned["expected_regrouped"], abs=1e-15)
    report = plan_json(table, [plan], "regrouped", table.commandment_points(RULES))["plans"][0]
    assert [each["p_regroup"] for each in report["regroup"]] == [each["p_regroup"] for each in planned["policy"]]
    unreserved = CALCULATORS["planner"].run(
        {"general": general, "dominance": True, "honors": [5, 7], "bonuses": [0, 1]}
    )["expected_regrouped"]
    cost = unreserved - planned["expected_regrouped"] if taisho_ability else 0
    assert report["taisho_ability_cost"] == pytest.approx(cost, abs=1e-15)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    general=st.sampled_from(["daimyo", "taisho", "hero", "daisho_samurai"]),
    dominance=st.booleans(),
    ability=st.booleans(),
    ki=st.one_of(st.none(), st.integers(1, 10)),
    fleeing=st.integers(0, 2),
    heroes=st.booleans(),
)
def test_a_plan_never_spends_more_points_than_the_general_has(general, dominance, ability, ki, fleeing, heroes):
    hill = RULES.value("kensei.position-of-dominance", "commandment_points")
    points = RULES.value("kensei.commandment-points", general) + hill * dominance
    mine = [
        {"unit": "Bowmen", "bushi_hero": heroes},
        {"unit": "Guard", "bushi_hero": heroes},
        *({"unit": name, "state": "fleeing"} for name in ("Spearmen", "Ashigaru archers")[:fleeing]),
    ]
    document = table_of(mine, [{"unit": "Scouts"}, {"unit": "Ronin"}],
                        [{"mine": "Bowmen", "enemy": "Scouts", "cm": 20, "in_sight": False},
                         {"mine": "Guard", "enemy": "Ronin", "cm": 8, "in_sight": False}],
                        general=general, dominance=dominance, taisho_ability=ability,
                        **({"ki": ki} if ki is not None else {}))  # fmt: skip
    table = read_table(document, PROFILES)
    if ability and points < RULES.value("kensei.taisho-abilities", "cost"):
        with pytest.raises(CalculatorInputError):
            plan_turn(table, "expected_wounds")
        return
    plans = plan_turn(table, "expected_wounds")
    report = plan_json(table, plans, "expected_wounds", points)
    assert report["commandment_points"] == points
    for plan in report["plans"]:
        assert plan["commandment_points_spent"] <= points
        assert plan["expected_commandment_points_spent"] <= points
        if ki is None or not heroes:
            assert not plan["strategic_orders"]


def test_every_reading_the_plan_relies_on_is_a_clarification_in_the_rule_data(book):
    notes = {f"{rule.id}#{note.id}": note.kind for rule in book.rules for note in rule.notes}
    for reading in READINGS:
        assert notes.get(reading) == "reading", reading


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(distances=st.lists(st.integers(3, 30), min_size=8, max_size=8))
@example(distances=[3, 3, 5, 5, 5, 3, 3, 5])  # no two alike units at one distance: nothing to share
@example(distances=[3, 3, 3, 3, 5, 5, 5, 5])
def test_the_work_shared_between_pairs_changes_no_figure(distances):
    """Pairs of units alike but for their names and distances share their melees and their charges'
    figures (:class:`calculators.plan_options.Shared`): every option is the one computed alone, and so
    is the advisor row a plan shows for it."""
    names = ["Guard", "Guard of the east", "Bowmen", "Bowmen of the east"]
    pairs = [(mine, enemy) for mine in names for enemy in ("Ronin", "Scouts")][: len(distances)]
    document = table_of([{"unit": name} for name in names], [{"unit": "Ronin"}, {"unit": "Scouts"}],
                        [{"mine": mine, "enemy": enemy, "cm": cm, "terrain_between": cm < 5}
                         for (mine, enemy), cm in zip(pairs, distances, strict=True)])  # fmt: skip
    table = read_table(document, PROFILES)
    shared = Shared()
    for pair in sorted(table.reaches):
        together = pair_options(table, *pair, "victory", None, shared)
        alone = pair_options(table, *pair, "victory", None)
        assert together == alone, pair
        assert [option.row for option in together] == [option.row for option in alone], pair
    alike = {(mine.removesuffix(" of the east"), enemy, cm) for (mine, enemy), cm in zip(pairs, distances, strict=True)}
    assert len(shared.turns) <= len(alike)  # at most one turn computed for each situation, however many pairs share it


@given(st.lists(st.fractions(min_value=0, max_value=1), min_size=1, max_size=12))
def test_the_mean_over_one_denominator_is_the_sum_of_fractions(pmf):
    assert mean(pmf) == sum((k * p for k, p in enumerate(pmf)), Fraction(0))


def _ranked_as_before(options, targets, count, required=0):
    """The search as it stood before its states weighed integers: every continuation of a state listed
    with its figures as fractions, then its ``count`` best kept by :func:`_leading_as_before`."""
    units = sorted({unit for unit, _ in options})
    bit = {unit: 1 << place for place, unit in enumerate(units)}
    enemies = sorted({target for _, target in options})
    weighed = _weighed(options)
    reach = {e: sum(bit[u] for (u, t), found in weighed.items() if t == e and found) for e in enemies}

    @cache
    def group(enemy, members):
        return _best_group([weighed[(unit, enemy)] for unit in units if members & bit[unit]], targets[enemy])

    @cache
    def ranked(position, free):
        if position == len(enemies):
            return () if free & required else (((Fraction(0), Fraction(0)), ()),)
        enemy = enemies[position]
        found = list(ranked(position + 1, free))
        within = free & reach[enemy]
        members = within
        while members:
            figures, orders = group(enemy, members)
            rests = ranked(position + 1, free & ~members) if orders else ()
            found += [((figures[0] + rest[0], figures[1] + rest[1]), orders + more) for rest, more in rests]
            members = (members - 1) & within
        return _leading_as_before(found, count)

    return tuple(
        (figures, tuple(sorted(orders, key=lambda o: o.unit))) for figures, orders in ranked(0, sum(bit.values()))
    )


def _leading_as_before(found, count):
    """The ``count`` best figures among ``found``, each once: of equal figures, the plan that gives
    orders to the fewest units, then the first found."""
    kept = []
    for each in sorted(found, key=lambda each: (each[0], -len(each[1])), reverse=True):
        if not kept or each[0] != kept[-1][0]:
            kept.append(each)
            if len(kept) == count:
                break
    return tuple(kept)


_QUARTERS = st.integers(0, 4).map(lambda n: Fraction(n, 4))


@st.composite
def _searches(draw):
    """Options made up for a few units and enemies: shots and charges' figures of small denominators,
    often alike (equal figures, where the tie-breaking shows), some out of sight, some pairs missing."""
    wounds = draw(st.lists(st.integers(1, 3), min_size=1, max_size=4))
    objective = draw(st.sampled_from(OBJECTIVES))
    targets = {enemy: Target(total, draw(st.integers(1, total)), objective) for enemy, total in enumerate(wounds)}
    units = draw(st.integers(1, 6))
    palette = {}

    def pmf(total):
        if total not in palette or draw(st.booleans()):
            weights = draw(st.lists(st.integers(0, 2), min_size=total + 1, max_size=total + 1))
            weights[0] += not any(weights)
            palette[total] = tuple(Fraction(w, sum(weights)) for w in weights)
        return palette[total]

    options = {}
    for unit, enemy in itertools.product(range(units), targets):
        if draw(st.integers(0, 4)) == 0:
            continue
        total = targets[enemy].wounds
        strategic = draw(st.sampled_from([None, None, Fraction(1, 2), Fraction(7, 10)]))
        found = []
        for place in range(draw(st.integers(0, 3))):
            charge = draw(st.booleans())
            by_loss = ()
            if charge:
                by_loss = tuple(
                    tuple((draw(_QUARTERS) - Fraction(1, 2), draw(_QUARTERS)) for _ in range(total + 1))
                    for _ in range(draw(st.integers(1, 2)))
                )
            found.append(Option(unit, enemy, (f"option {place}",), pmf(total), charge, by_loss, strategic,
                                (Fraction(place),)))  # fmt: skip
        options[(unit, enemy)] = found
    required = draw(st.integers(0, (1 << units) - 1)) if draw(st.booleans()) else 0
    return options, targets, draw(st.integers(1, 5)), required


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_searches())
def test_the_search_over_integers_ranks_as_the_search_over_fractions(search):
    """The search's integer keys (figures over one denominator, then the units given orders) give the
    same plans, in the same order, with the same figures and the same choice among equal figures as
    listing every continuation of every state with its figures as fractions."""
    options, targets, count, required = search
    assert ranked_orders(options, targets, count, required) == _ranked_as_before(options, targets, count, required)


@pytest.mark.parametrize("alternatives", [-1, 11, None, "2", 2.0, True])
def test_a_count_of_alternatives_that_is_no_count_is_refused_naming_it(alternatives):
    with pytest.raises(CalculatorInputError) as refused:
        plan_turn(read_table(SMALL, PROFILES), "expected_wounds", alternatives=alternatives)
    assert refused.value.field == "alternatives" and "from 0 to 10" in refused.value.describe(str)

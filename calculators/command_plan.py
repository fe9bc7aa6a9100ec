"""The Command phase plan (Kensei chapter 8): the general's commandment points and every ready unit's orders
for the turn, chosen together, with exact odds.

What a plan weighs, for the table's state (:mod:`calculators.table`):

- **Commandment points**: a Taisho ability's cost kept back when the table asks for it; each choice of
  strategic orders the points and the general's Ki allow (one per unit with a Bushi hero, at an enemy
  out of its sight); the rest spent on regrouping exactly as the regroup planner spends them
  (:mod:`calculators.planner`), so that a plan's regroup figures are the planner's.
- **Orders**: every ready unit's orders advisor sequences at every enemy within its reach
  (:mod:`calculators.plan_options`); the units that choose one enemy are scored together, exactly.

The search is exact. For each choice of strategic orders, every way of splitting the ready units into
groups, one group per enemy (or none), is weighed by dynamic programming over the enemies and the set of
units still free; each group's best orders are found by enumerating its members' options. The only
options left out are a unit's shooting options whose shot another of its shooting options dominates
(at least as likely to take off each number of Wounds, more likely for one): the objective of a group
without a charge only grows with the Wounds its shots take, so such an option is never better. With a
charge in the group, this holds when the charge's figures do not fall as the enemy loses Wounds before
it, which is checked for every charge at that enemy; where it fails, no option at that enemy is left out.

Besides each choice's best plan, the next-best ways of assigning the units to enemies are listed, each with
its best orders, ranked: each state of the dynamic programming keeps its few best continuations of
distinct figures, which is exact since a plan's figures are a sum over the enemies (the best
continuations of a state are made of its successors' best ones). A plan that buys a strategic order
uses it: the same orders without it would keep the points.

Work is shared, never approximated: a charge's figures for each number of Wounds lost are made once for
every pair of units alike in their statistics and situation but the distance, by where the charge starts
from (:class:`~calculators.plan_options.Shared`); the figures are those each pair gives alone.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from heapq import nlargest
from itertools import combinations, pairwise
from typing import Any

from . import planner
from .advisor import OBJECTIVES as ADVISOR_OBJECTIVES
from .advisor import READINGS as ADVISOR_READINGS
from .errors import CalculatorInputError
from .params import N_, Nn_
from .plan_options import (
    NO_SHOT,
    Figures,
    Option,
    Shared,
    Target,
    Weights,
    add_shot,
    charge_figures,
    monotone,
    pair_options,
    shot_weights_figures,
    undominated,
)
from .rulebook import RuleValues
from .spells import d10_at_most
from .table import TableState

OBJECTIVES = (*ADVISOR_OBJECTIVES, "regrouped")
"""The advisor's objectives, summed over the enemies, and the units expected to regroup."""

PLAN_OBJECTIVE_LABELS = {
    "expected_wounds": N_("expected Wounds dealt, all enemies together"),
    "at_least_one": N_("enemies expected to lose at least one Wound"),
    "at_least_goal": N_("enemies expected to lose at least one model's Wounds"),
    "victory": N_("victories expected: enemies destroyed, beaten in melee or fleeing from a charge"),
    "fewest_taken": N_("fewest Wounds expected in return"),
    "net": N_("Wounds dealt minus Wounds taken, expected"),
    "regrouped": N_("units expected to regroup"),
}
"""Each objective's words for a whole plan (a sum over the enemies: chances become expected counts)."""

READINGS = (
    *ADVISOR_READINGS,
    "kensei.charge-orders#one-charge-at-an-enemy",
    "kensei.strategic-orders#failed-roll",
    "kensei.regroup#orders-after-regrouping",
)
"""The clarifications (rule id # note id) the plan's readings are explained in: the advisor's, and its own."""

ALTERNATIVES = 2
"""The next-best plans listed for each choice of commandment points, besides its best."""

MAX_READY = 12
"""Most ready units a plan takes: every split of them into groups is weighed (3 to this power)."""

ZERO: Figures = (Fraction(0), Fraction(0))


@dataclass(frozen=True)
class Plan:
    """One plan: the strategic orders bought, the regroup planner's plan, and each unit's orders."""

    strategic: tuple[int, ...]
    """Your units (places in the table's ``mine``) given a strategic order."""
    figures: Figures
    """The orders' score by the objective, summed over the enemies, then their Wounds expected."""
    orders: tuple[Option, ...]
    """The ready units' orders, in the table's order (a unit left out does nothing)."""
    regroup: Any
    """The regroup planner's result for the points left to regrouping (``None``: nothing to regroup)."""
    reserved: int
    """Points kept for a Taisho ability and spent on strategic orders."""

    ability_cost: Fraction = Fraction(0)
    """The units expected to regroup that the points kept for a Taisho ability cost this plan."""
    rank: int = 0
    """0 for the best orders these commandment points buy; 1, 2, ... for the next-best ways of
    assigning the ready units to enemies with the same points."""

    @property
    def expected_regrouped(self) -> Fraction:
        return self.regroup.regrouped.mean if self.regroup is not None else Fraction(0)


def plan_turn(
    table: TableState, objective: str, rules: RuleValues | None = None, alternatives: int = ALTERNATIVES
) -> tuple[Plan, ...]:
    """Every choice of commandment points with its best orders, and its ``alternatives`` next-best ways
    of assigning the ready units to enemies; the best plan first.

    Raises:
        CalculatorInputError: for an objective the plan does not know, points kept back beyond the
            general's, too many ready units, or a pair of units the orders advisor refuses.
    """
    rules = RuleValues.bundled() if rules is None else rules
    if objective not in OBJECTIVES:
        raise CalculatorInputError(
            "objective", N_("must be one of {choices}, got {value}"),
            values={"choices": ", ".join(OBJECTIVES), "value": repr(objective)},
        )  # fmt: skip
    ready = [index for index, unit in enumerate(table.mine) if unit.state == "ready"]
    if len(ready) > MAX_READY:
        raise CalculatorInputError(
            "mine",
            Nn_("a plan takes at most {most} ready unit", "a plan takes at most {most} ready units", "most"),
            values={"most": MAX_READY},
        )
    points = table.commandment_points(rules)
    ability = rules.value("kensei.taisho-abilities", "cost") if table.taisho_ability else 0
    if ability > points:
        raise CalculatorInputError(
            "taisho_ability",
            Nn_(
                "reserves {reserved} commandment point, more than the {budget} available",
                "reserves {reserved} commandment points, more than the {budget} available",
                "reserved",
            ),
            values={"reserved": ability, "budget": points},
        )
    ki = d10_at_most(table.ki, rules) if table.ki is not None else None
    shared = Shared()
    options = {
        pair: pair_options(table, *pair, objective, ki, shared)
        for pair in sorted(table.reaches)
        if pair[0] in ready and table.enemy[pair[1]].state != "out"
    }
    targets = {index: _target(table, index, objective) for index in range(len(table.enemy))}
    plans = [
        plan
        for chosen in _strategic_choices(table, options, points - ability, rules)
        for plan in _plans(table, options, targets, chosen, rules, ability, alternatives)
    ]
    # equal plans: the best of its points before the next-best of other points
    return tuple(sorted(plans, key=lambda plan: (*_plan_key(plan, objective), -plan.rank), reverse=True))


def _target(table: TableState, index: int, objective: str) -> Target:
    profile = table.enemy[index].profile
    return Target(sum(profile.wounds), profile.wounds[0], objective)


def _strategic_choices(
    table: TableState, options: Mapping[tuple[int, int], list[Option]], points: int, rules: RuleValues
) -> Iterator[tuple[int, ...]]:
    """Every set of units the points may give a strategic order: a unit with a Bushi hero that has an
    enemy out of sight to attack (kensei.strategic-orders); the empty set first."""
    cost = rules.value("kensei.strategic-orders", "cost")
    able = sorted(
        {unit for (unit, _), found in options.items() if any(option.strategic is not None for option in found)}
    )
    able = [unit for unit in able if table.mine[unit].bushi_hero]
    for count in range(min(len(able), points // cost) + 1):
        yield from combinations(able, count)


def _plan_key(plan: Plan, objective: str) -> tuple[Fraction, ...]:
    """Plans by the objective, then the units expected to regroup, then the Wounds expected."""
    if objective == "regrouped":
        return (plan.expected_regrouped, plan.figures[1])
    return (plan.figures[0], plan.expected_regrouped, plan.figures[1])


def _plans(
    table: TableState,
    options: Mapping[tuple[int, int], list[Option]],
    targets: Mapping[int, Target],
    strategic: tuple[int, ...],
    rules: RuleValues,
    ability: int,
    alternatives: int,
) -> list[Plan]:
    """The best orders once ``strategic`` units have their strategic orders, then the ``alternatives``
    next-best ways of assigning the units, each with the regrouping the points left buy; none when the
    best orders leave a strategic order unused (the same orders without it keep the points)."""
    allowed = {
        pair: [option for option in found if option.strategic is None or pair[0] in strategic]
        for pair, found in options.items()
    }
    ranked = ranked_orders(allowed, targets, 1 + (alternatives if not strategic else 0))
    used = {option.unit for option in ranked[0][1] if option.strategic is not None}
    if set(strategic) - used:
        return []
    if strategic and alternatives:  # the next best among the orders that use every strategic order
        ranked = (ranked[0], *_using(allowed, targets, strategic, ranked[0], alternatives))
    reserved = ability + len(strategic) * rules.value("kensei.strategic-orders", "cost")
    regroup = _regroup(table, len(strategic), rules)
    cost = Fraction(0)
    if regroup is not None and ability:  # what the reserve costs: the same plan without it
        cost = _regroup(table, len(strategic), rules, ability=False).regrouped.mean - regroup.regrouped.mean
    return [
        Plan(strategic, figures, orders, regroup, reserved, cost, rank) for rank, (figures, orders) in enumerate(ranked)
    ]


def _using(
    allowed: Mapping[tuple[int, int], list[Option]],
    targets: Mapping[int, Target],
    strategic: tuple[int, ...],
    best: tuple[Figures, tuple[Option, ...]],
    count: int,
) -> tuple[tuple[Figures, tuple[Option, ...]], ...]:
    """The ``count`` best orders after ``best`` (other figures) in which each ``strategic`` unit uses its
    strategic order: any other plan is worth less than the same orders with fewer strategic orders bought."""
    only = {
        pair: [option for option in found if pair[0] not in strategic or option.strategic is not None]
        for pair, found in allowed.items()
    }
    units = sorted({unit for unit, _ in only})
    required = sum(1 << place for place, unit in enumerate(units) if unit in strategic)
    ranked = ranked_orders(only, targets, count + 1, required)
    return tuple(each for each in ranked if each[0] != best[0])[:count]


def _regroup(table: TableState, strategic: int, rules: RuleValues, ability: bool | None = None) -> Any:
    """The regroup planner's plan for the fleeing units with the points a plan leaves them (``ability``:
    whether a Taisho ability's points are kept back; unless given, as the table asks)."""
    fleeing = [unit for unit in table.mine if unit.state == "fleeing"]
    if not fleeing:
        return None
    inputs = {
        "general": table.general,
        "dominance": table.dominance,
        "taisho_ability": table.taisho_ability if ability is None else ability,
        "strategic_orders": strategic,
        "honors": [unit.profile.honor for unit in fleeing],
        "bonuses": [unit.regroup_bonus for unit in fleeing],
    }
    return planner.CALCULATOR.evaluate(inputs, rules)


def best_orders(
    options: Mapping[tuple[int, int], list[Option]], targets: Mapping[int, Target]
) -> tuple[Figures, tuple[Option, ...]]:
    """The best orders of every ready unit (the first of :func:`ranked_orders`)."""
    return ranked_orders(options, targets, 1)[0]


def ranked_orders(
    options: Mapping[tuple[int, int], list[Option]], targets: Mapping[int, Target], count: int, required: int = 0
) -> tuple[tuple[Figures, tuple[Option, ...]], ...]:
    """The ``count`` best ways of assigning the ready units to enemies, each with its best orders, the
    best first: dynamic programming over the enemies and the units still free, each group's best orders
    enumerated (see the module's docstring for what is left out). Each state keeps its ``count`` best
    continuations, which is exact since a plan's score is a sum over the enemies. ``required``: the
    places (bits, in the order of the units) of units that must have orders; none without them."""
    units = sorted({unit for unit, _ in options})
    bit = {unit: 1 << place for place, unit in enumerate(units)}
    enemies = sorted({target for _, target in options})
    weighed = _weighed(options)
    reach = {e: sum(bit[u] for (u, t), found in weighed.items() if t == e and found) for e in enemies}

    @cache
    def group(enemy: int, members: int) -> tuple[Figures, tuple[Option, ...]]:
        chosen = [weighed[(unit, enemy)] for unit in units if members & bit[unit]]
        return _best_group(chosen, targets[enemy])

    @cache
    def ranked(position: int, free: int) -> tuple[tuple[Figures, tuple[Option, ...]], ...]:
        if position == len(enemies):
            return () if free & required else ((ZERO, ()),)
        enemy = enemies[position]
        found = list(ranked(position + 1, free))
        within = free & reach[enemy]
        members = within
        while members:
            figures, orders = group(enemy, members)
            rests = ranked(position + 1, free & ~members) if orders else ()  # no orders: members cannot all act
            found += [((figures[0] + rest[0], figures[1] + rest[1]), orders + more) for rest, more in rests]
            members = (members - 1) & within
        return _leading(found, count)

    return tuple(
        (figures, tuple(sorted(orders, key=lambda option: option.unit)))
        for figures, orders in ranked(0, sum(bit.values()))
    )


def _leading(
    found: list[tuple[Figures, tuple[Option, ...]]], count: int
) -> tuple[tuple[Figures, tuple[Option, ...]], ...]:
    """The ``count`` best figures among ``found``, each once: of plans with equal figures, the one that
    gives orders to the fewest units (the others keep their choice), then the first found. Distinct
    figures keep the search exact: a state's best continuations with distinct figures give its own."""

    def rank(each: tuple[Figures, tuple[Option, ...]]) -> tuple[Figures, int]:
        return each[0], -len(each[1])

    first = nlargest(count, found, key=rank)  # as sorted(..., reverse=True)[:count]: equals in order
    if all(higher[0] != lower[0] for higher, lower in pairwise(first)):
        return tuple(first)  # the usual case, without sorting every plan found
    kept: list[tuple[Figures, tuple[Option, ...]]] = []
    for each in sorted(found, key=rank, reverse=True):  # equal figures side by side, the one kept first
        if not kept or each[0] != kept[-1][0]:
            kept.append(each)
            if len(kept) == count:
                break
    return tuple(kept)


def _weighed(options: Mapping[tuple[int, int], list[Option]]) -> dict[tuple[int, int], list[Option]]:
    """Each pair's options worth weighing (:func:`~calculators.plan_options.undominated`), all of an
    enemy's kept when one of its charges is not monotone."""
    unsure = {target for (_, target), found in options.items() if any(o.charge and not monotone(o) for o in found)}
    return {pair: undominated(found, pair[1] in unsure) for pair, found in options.items()}


def _best_group(chosen: list[list[Option]], target: Target) -> tuple[Figures, tuple[Option, ...]]:
    """The best options of the units that chose one enemy: at most one of them charges (the reading of
    kensei.charge-orders#one-charge-at-an-enemy). Every combination of the members' options is weighed,
    the shots summed along the way (one convolution per step); the first best found is kept, options
    ordered by what they keep."""
    wounds = target.wounds
    found: list[tuple[Figures, tuple[Option, ...]]] = []

    def visit(index: int, shots: Weights, members: tuple[Option, ...], charger: Option | None) -> None:
        if index == len(chosen):
            figures = _figures(shots, charger, target)
            if not found or figures > found[0][0]:
                found[:] = [(figures, members)]
            return
        for option in chosen[index]:
            if not option.charge:
                visit(index + 1, add_shot(shots, option.declared_weights, wounds), (*members, option), charger)
            elif charger is None:
                visit(index + 1, shots, (*members, option), option)

    visit(0, NO_SHOT, (), None)
    return found[0] if found else (ZERO, ())


def _figures(shots: Weights, charger: Option | None, target: Target) -> Figures:
    """A group's figures from its shooters' shots and its charger, if any: a charger's own shots come
    before its charge; a strategic order's Ki roll mixes the charge with no charge."""
    quiet = shot_weights_figures(shots, target)
    if charger is None:
        return quiet
    loud = charge_figures(add_shot(shots, charger.sure_weights, target.wounds), charger)
    if charger.strategic is None:
        return loud
    chance = charger.strategic
    return chance * loud[0] + (1 - chance) * quiet[0], chance * loud[1] + (1 - chance) * quiet[1]

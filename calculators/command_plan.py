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

import heapq
from collections.abc import Container, Hashable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import lcm
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

MAX_ALTERNATIVES = 10
"""Most next-best plans :func:`plan_turn` is asked for (each state of its search keeps that many more)."""

MAX_READY = 12
"""Most ready units a plan takes: every split of them into groups is weighed (3 to this power)."""

ZERO: Figures = (Fraction(0), Fraction(0))

Groups = dict[Hashable, tuple[Any, dict[int, tuple[Figures, tuple[Option, ...]]]]]
"""The groups one plan's searches weighed at an enemy, by the enemy and its units' options (their
bits and ids), each with the options' lists it was made from."""


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
    if type(alternatives) is not int or not 0 <= alternatives <= MAX_ALTERNATIVES:  # bool is no count
        raise CalculatorInputError(
            "alternatives", N_("must be an integer from {minimum} to {maximum}, got {value}"),
            values={"minimum": 0, "maximum": MAX_ALTERNATIVES, "value": repr(alternatives)},
        )  # fmt: skip
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
    made: Groups = {}
    plans = [
        plan
        for chosen in _strategic_choices(table, options, points - ability, rules)
        for plan in _plans(table, options, targets, chosen, rules, ability, alternatives, made)
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
    made: Groups,
) -> list[Plan]:
    """The best orders once ``strategic`` units have their strategic orders, then the ``alternatives``
    next-best ways of assigning the units, each with the regrouping the points left buy; none when the
    best orders leave a strategic order unused (the same orders without it keep the points)."""
    allowed = {
        pair: [option for option in found if option.strategic is None or pair[0] in strategic]
        for pair, found in options.items()
    }
    ranked = ranked_orders(allowed, targets, 1 + (alternatives if not strategic else 0), made=made)
    used = {option.unit for option in ranked[0][1] if option.strategic is not None}
    if set(strategic) - used:
        return []
    if strategic and alternatives:  # the next best among the orders that use every strategic order
        ranked = (ranked[0], *_using(allowed, targets, strategic, ranked[0], alternatives, made))
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
    made: Groups,
) -> tuple[tuple[Figures, tuple[Option, ...]], ...]:
    """The ``count`` best orders after ``best`` (other figures) in which each ``strategic`` unit uses its
    strategic order: any other plan is worth less than the same orders with fewer strategic orders bought."""
    only = {
        pair: [option for option in found if pair[0] not in strategic or option.strategic is not None]
        for pair, found in allowed.items()
    }
    units = sorted({unit for unit, _ in only})
    required = sum(1 << place for place, unit in enumerate(units) if unit in strategic)
    ranked = ranked_orders(only, targets, count + 1, required, made)
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
    options: Mapping[tuple[int, int], list[Option]],
    targets: Mapping[int, Target],
    count: int,
    required: int = 0,
    made: Groups | None = None,
) -> tuple[tuple[Figures, tuple[Option, ...]], ...]:
    """The ``count`` best ways of assigning the ready units to enemies, each with its best orders, the
    best first: dynamic programming over the enemies and the units still free, each group's best orders
    enumerated (see the module's docstring for what is left out). Each state keeps its ``count`` best
    continuations, which is exact since a plan's score is a sum over the enemies. ``required``: the
    places (bits, in the order of the units) of units that must have orders; none without them.
    ``made``: the groups weighed by earlier searches of the same plan (:data:`Groups`), taken again
    for an enemy whose units and options are the same.

    A state keeps the best figures, each once: of plans with equal figures, the one that gives orders
    to the fewest units (the others keep their choice), then the first found. Distinct figures keep the
    search exact: a state's best continuations with distinct figures give its own. The states weigh
    integers (:class:`_Scale`): a continuation is one integer, its figures over one denominator, then
    the units it gives orders to, so that adding and comparing them is exact and in that order. Only
    the keys and the way back are kept per state; each plan's orders and figures are read back along
    that way once the first state is weighed."""
    units = sorted({unit for unit, _ in options})
    bit = {unit: 1 << place for place, unit in enumerate(units)}
    enemies = sorted({target for _, target in options})
    weighed = _weighed(options)
    reach = [sum(bit[u] for (u, t), found in weighed.items() if t == e and found) for e in enemies]
    subsets = _Subsets()
    made = {} if made is None else made
    groups: list[dict[int, tuple[Figures, tuple[Option, ...]]]] = []
    for enemy, within in zip(enemies, reach, strict=True):
        lists = tuple((bit[unit], weighed[(unit, enemy)]) for unit in units if within & bit[unit])
        key = (targets[enemy], tuple((place, tuple(map(id, found))) for place, found in lists))
        if key not in made:  # the lists kept with the groups: their options' ids stay theirs
            made[key] = (lists, _groups(lists, within, targets[enemy], subsets))
        groups.append(made[key][1])
    scale = _Scale(groups, len(units))
    size = 1 << len(units)
    keys: list[tuple[int, ...]] = [() if free & required else (scale.base,) for free in range(size)]
    ways: list[dict[int, tuple[tuple[int, int], ...]]] = []
    before = [0]  # the units in reach of the enemies weighed before each: those a state may have taken
    for within in reach:
        before.append(before[-1] | within)
    for position in reversed(range(len(enemies))):
        keys, way = _weigh_enemy(keys, groups[position], reach[position], before[position], subsets, count, scale)
        ways.insert(0, way)
    return _read_back(len(keys[size - 1]), ways, groups, size - 1)


def _weigh_enemy(
    later: list[tuple[int, ...]],
    found: dict[int, tuple[Figures, tuple[Option, ...]]],
    reach: int,
    taken_before: int,
    subsets: _Subsets,
    count: int,
    scale: _Scale,
) -> tuple[list[tuple[int, ...]], dict[int, tuple[tuple[int, int], ...]]]:
    """One enemy's states of :func:`ranked_orders`, from those of the enemies after it (``later``): for
    each set of units still free, its best keys and the way back to each (the group given orders here,
    and the place of its continuation among ``later``'s). ``found``: the enemy's groups with orders;
    ``reach``: its units in reach; ``taken_before``: the units the enemies before it may have taken."""
    size = len(later)
    everyone = size - 1
    firsts = [each[0] if each else scale.least for each in later]
    group = [scale.least] * size
    for members, (figures, _) in found.items():
        group[members] = scale.key(figures, members)
    here: list[tuple[int, ...]] = [()] * size
    way: dict[int, tuple[tuple[int, int], ...]] = {}
    acting = subsets  # the groups with orders: a group's subsets have orders if it has
    if len(found) < (1 << reach.bit_count()) - 1:
        acting = _Subsets(found)
    for taken in subsets(taken_before, empty=True):
        free = everyone ^ taken
        within = free & reach
        choices = acting(within) if within else []
        if not choices:
            here[free] = later[free]
            continue
        firsts_here = [group[each] + firsts[free ^ each] for each in choices]
        here[free], way[free] = _leading_keys(later[free], firsts_here, choices, later, group, free, count, scale)
    return here, way


def _read_back(
    plans: int,
    ways: list[dict[int, tuple[tuple[int, int], ...]]],
    groups: list[dict[int, tuple[Figures, tuple[Option, ...]]]],
    everyone: int,
) -> tuple[tuple[Figures, tuple[Option, ...]], ...]:
    """The first state's ``plans`` best plans, each read back along its way: the group each enemy gives
    orders to, and the figures summed as fractions."""
    ranked: list[tuple[Figures, tuple[Option, ...]]] = []
    for first in range(plans):
        figures, free, place = ZERO, everyone, first
        orders: tuple[Option, ...] = ()
        for position, way in enumerate(ways):
            members, place = way[free][place] if free in way else (0, place)
            if members:
                more, given = groups[position][members]
                figures = (figures[0] + more[0], figures[1] + more[1])
                orders += given
                free ^= members
        ranked.append((figures, tuple(sorted(orders, key=lambda option: option.unit))))
    return tuple(ranked)


def _groups(
    lists: tuple[tuple[int, list[Option]], ...], within: int, target: Target, subsets: _Subsets
) -> dict[int, tuple[Figures, tuple[Option, ...]]]:
    """Each set of units (bits) within ``within`` with its group's best orders at ``target``: the
    units' options ``lists`` (by their bits); a set whose members cannot all act is left out."""
    found = {}
    only_charges = sum(place for place, options in lists if all(option.charge for option in options))
    for members in subsets(within):
        if (members & only_charges).bit_count() > 1:
            continue  # two units that can only charge: at most one charge at an enemy
        chosen = [options for place, options in lists if members & place]
        figures, orders = _best_group(chosen, target)
        if orders:
            found[members] = (figures, orders)
    return found


class _Subsets:
    """Every subset of a set of units (bits), in the order ``(members - 1) & within`` counts them down
    from ``within`` (the empty set left out unless asked for), each list made once; only those in
    ``allowed`` when it is given, a family that holds every subset of its sets."""

    def __init__(self, allowed: Container[int] | None = None) -> None:
        self.made: dict[int, list[int]] = {0: [0]}
        self.allowed = allowed

    def __call__(self, within: int, empty: bool = False) -> list[int]:
        found = self._with_empty(within)
        return found if empty else found[:-1]

    def _with_empty(self, within: int) -> list[int]:
        if within not in self.made:
            highest = 1 << (within.bit_length() - 1)
            rest = self._with_empty(within ^ highest)
            if self.allowed is None:
                self.made[within] = [highest | each for each in rest] + rest
            else:  # a set allowed is made of a subset allowed and the highest unit
                allowed = self.allowed
                self.made[within] = [highest | each for each in rest if highest | each in allowed] + rest
        return self.made[within]


class _Scale:
    """A continuation's figures and the units it gives orders to as one integer, ordered as the search
    ranks plans: its figures (the score, then the Wounds) over the least common
    denominator of every group's figures, then fewer units before more. Keys add along a plan: each
    group's key counts its figures and its units, and the end of every plan adds :attr:`base`, so that
    a continuation's figures are its key shifted right by :attr:`shift`."""

    def __init__(self, groups: list[dict[int, tuple[Figures, tuple[Option, ...]]]], units: int) -> None:
        self.denominator = lcm(*(f.denominator for found in groups for figures, _ in found.values() for f in figures))
        most = sum(max((abs(figures[1]) for figures, _ in found.values()), default=0) for found in groups)
        self.spread = 2 * int(most * self.denominator) + 1
        """More than twice the Wounds of any plan, over the denominator: the score's unit in a key."""
        self.shift = units.bit_length()
        self.base = (1 << self.shift) - 1
        """Added once per plan: its low bits stay ``base`` minus its units, never below 0."""
        largest = sum(
            max((abs(self.key(figures, members)) for members, (figures, _) in found.items()), default=0)
            for found in groups
        )
        self.floor = -(largest + self.base)
        """Every plan's key is at least this, and at most its opposite."""
        self.least = 3 * self.floor - (1 << self.shift)
        """The key of no group and of no plan: added to a plan's, below any plan's figures shifted back."""

    def key(self, figures: Figures, members: int) -> int:
        score = figures[0].numerator * (self.denominator // figures[0].denominator)
        wounds = figures[1].numerator * (self.denominator // figures[1].denominator)
        return ((score * self.spread + wounds) << self.shift) - members.bit_count()


_SORTED = 64
"""Up to this many groups, a state's best firsts are found by sorting them (in C) rather than by a heap."""


def _leading_keys(
    skipped: tuple[int, ...],
    firsts: list[int],
    members: list[int],
    later: list[tuple[int, ...]],
    group: list[int],
    free: int,
    count: int,
    scale: _Scale,
) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """A state's ``count`` best continuations (:func:`ranked_orders`), by their keys, with the way
    to each: (the members given orders at this enemy, the place of the rest among the next state's).
    The plans found are, in the order found, the next state's (``skipped``: no orders at this enemy),
    then for each ``members`` in turn its group followed by each continuation of the units left free.
    ``firsts``: each group followed by its best continuation; the others are weighed only for groups
    whose first is among the ``count`` best figures, since a group's continuations rank below its first."""
    shift = scale.shift
    if count == 1:
        best = max(firsts)
        if best >= scale.floor and (not skipped or best > skipped[0]):
            return (best,), ((members[firsts.index(best)], 0),)
        return skipped, ((0, 0),) if skipped else ()
    top = sorted(firsts, reverse=True)[:count] if len(firsts) <= _SORTED else heapq.nlargest(count, firsts)
    if len({key >> shift for key in top}) == len(top):
        values = {key >> shift for key in (*top, *skipped) if key >= scale.floor}
    else:  # equal figures among the first: every distinct figure counted
        values = {key >> shift for key in firsts if key >= scale.floor} | {key >> shift for key in skipped}
    # the count-th best figures, fewest units first; fewer figures than count: every plan
    lowest = sorted(values, reverse=True)[count - 1] << shift if len(values) >= count else scale.floor
    kept: dict[int, tuple[int, int, int]] = {}  # figures: key, members, place of the rest
    for place, key in enumerate(skipped):
        kept.setdefault(key >> shift, (key, 0, place))
    for index in [index for index, key in enumerate(firsts) if key >= lowest]:
        each = members[index]
        for place, rest in enumerate(later[free ^ each]):
            key = group[each] + rest
            if key < lowest:
                break
            value = key >> shift
            if value not in kept or key > kept[value][0]:
                kept[value] = (key, each, place)
    chosen = [kept[value] for value in sorted(kept, reverse=True)[:count]]
    return tuple(key for key, _, _ in chosen), tuple((each, place) for _, each, place in chosen)


def _weighed(options: Mapping[tuple[int, int], list[Option]]) -> dict[tuple[int, int], list[Option]]:
    """Each pair's options worth weighing (:func:`~calculators.plan_options.undominated`), all of an
    enemy's kept when one of its charges is not monotone."""
    unsure = {target for (_, target), found in options.items() if any(o.charge and not monotone(o) for o in found)}
    return {pair: undominated(found, pair[1] in unsure) for pair, found in options.items()}


def _best_group(chosen: list[list[Option]], target: Target) -> tuple[Figures, tuple[Option, ...]]:
    """The best options of the units that chose one enemy: at most one of them charges (the reading of
    kensei.charge-orders#one-charge-at-an-enemy). Every combination of the members' options is weighed,
    the shots summed along the way (one convolution per step); the first best found is kept, options
    ordered by what they keep. A combination is left as soon as the members left to choose hold more
    units that can only charge than charges are left: none of its ends is a plan."""
    wounds = target.wounds
    found: list[tuple[Figures, tuple[Option, ...]]] = []
    only_charges = [all(option.charge for option in options) for options in chosen]
    chargers_left = [sum(only_charges[index:]) for index in range(len(chosen) + 1)]

    def visit(index: int, shots: Weights, members: tuple[Option, ...], charger: Option | None) -> None:
        if chargers_left[index] > (charger is None):
            return
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

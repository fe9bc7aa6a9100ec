"""What each ready unit may do against each enemy in the Command phase plan, and the exact figures of the
units that choose the same enemy.

A unit's options against an enemy are the orders advisor's sequences for that pair, with the advisor's
readings: its shots (the Wounds they deal, capped at the enemy's) and, for a sequence that ends with a
charge, the charge scored under the enemy's best reply. Several units at one enemy (kensei plan readings,
see :mod:`calculators.command_plan`): their shots are one sum, the convolution of each unit's shots,
capped at the Wounds the enemy has; at most one of them charges, after every shot, at the enemy with the
Wounds the shots left it.

A charge's figures are linear in the distribution of the Wounds the enemy lost before it, so each charge
option keeps, for each reply, its figures for each number ``L`` of Wounds lost (:attr:`Option.by_loss`):
a group's figures are then a sum over ``L``, the worst reply for the player kept, as the advisor keeps it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property
from itertools import pairwise
from math import lcm
from typing import Any

from .advisor import goal_of, prepared_turn, rank_key
from .advisor_odds import Row, RowLeftOut, Turn, capped, charges, plain_row, start_of
from .enemy_reply import replies_weighed, reply_row, scored_row
from .errors import CalculatorInputError
from .orders import SHOTS, sequences
from .table import Reach, TableState

Figures = tuple[Fraction, Fraction]
"""A group's score by the objective, then its Wounds expected (which breaks ties)."""


@dataclass(frozen=True)
class Option:
    """One way a ready unit may spend its turn against one enemy: an advisor sequence."""

    unit: int
    target: int
    actions: tuple[str, ...]
    shot: tuple[Fraction, ...]
    """P(the unit's own shots take k Wounds off the target), k from 0 to its Wounds (capped)."""
    charge: bool
    by_loss: tuple[tuple[Figures, ...], ...] = ()
    """For a charge, by reply weighed: the figures when the target lost ``L`` Wounds before it."""
    strategic: Fraction | None = None
    """For an enemy out of sight: the chance of the strategic order's Ki roll that allows it."""
    keeps: tuple[Fraction, ...] = ()
    """The advisor's keeps (loaded weapon, points, moves): among equal options, the first is kept."""
    turn: Any = field(default=None, compare=False, repr=False)
    """The advisor's turn for the pair, which scores the charge again on the shots of a whole group."""
    goal: int = 1
    """The Wounds goal of the advisor's objective for the pair."""

    @cached_property
    def row(self) -> Row:
        """The advisor's row for the pair alone, with the links that reproduce it: made only for the
        options a plan shows, since every reply of a charge is scored for it."""
        rank = rank_key(self.turn.inputs.objective, self.goal)
        return scored_row(self.turn, self.actions, lambda each: rank(each)[:2])

    @cached_property
    def sure_weights(self) -> Weights:
        """:attr:`shot` as :data:`Weights`."""
        return as_weights(self.shot)

    @cached_property
    def declared_weights(self) -> Weights:
        """:attr:`declared_shot` as :data:`Weights`."""
        return as_weights(self.declared_shot)

    @cached_property
    def loss_sums(self) -> tuple[tuple[tuple[tuple[int, ...], tuple[int, ...]], int], ...]:
        """:attr:`by_loss` as integers over one denominator per reply: the score's and the Wounds'."""
        sums = []
        for by_loss in self.by_loss:
            below = lcm(*(figure.denominator for figures in by_loss for figure in figures))
            scores = tuple(figures[0].numerator * (below // figures[0].denominator) for figures in by_loss)
            wounds = tuple(figures[1].numerator * (below // figures[1].denominator) for figures in by_loss)
            sums.append(((scores, wounds), below))
        return tuple(sums)

    @property
    def declared_shot(self) -> tuple[Fraction, ...]:
        """The unit's shots as the plan declares them: with a strategic order, a mixture with none
        (the order's Ki roll failing), since each Ki roll is the unit's own."""
        if self.strategic is None:
            return self.shot
        return tuple(self.strategic * p + (1 - self.strategic) * int(k == 0) for k, p in enumerate(self.shot))


@dataclass(frozen=True)
class Target:
    """An enemy as the plan scores it: its Wounds, the goal of ``at_least_goal``, the objective."""

    wounds: int
    goal: int
    objective: str


def situation(table: TableState, unit: int, target: int, reach: Reach, objective: str) -> dict[str, Any]:
    """The orders advisor's situation for one pair of units, from the table's state."""
    mine, enemy = table.mine[unit], table.enemy[target]
    return {
        **_state(mine.values, "wounds_left", "weapon"),
        **_state(enemy.values, "enemy_wounds_left", "enemy_weapon"),
        "distance": reach.cm,
        "enemy_cover": enemy.cover,
        "enemy_in_water": enemy.in_water,
        "cover": mine.cover,
        "reactions": mine.reactions,
        "failed_charge": mine.failed_charge,
        "enemy_defensive": enemy.defensive,
        "enemy_charged": enemy.charged,
        "terrain_between": reach.terrain_between,
        "objective": "expected_wounds" if objective == "regrouped" else objective,
    }


def _state(values: Mapping[str, Any], wounds: str, weapon: str) -> dict[str, Any]:
    """A unit's Wounds left and weapon as the table gives them, as the advisor's inputs named
    ``wounds`` and ``weapon``: with them the advisor's row for the pair is the plan's, from the units
    file's own profiles (the plan's page links each unit's orders to it)."""
    given: dict[str, Any] = {}
    if values.get("wounds") is not None:
        given[wounds] = tuple(values["wounds"])
    if values.get("loaded") is not None:
        given[weapon] = "loaded" if values["loaded"] else "unloaded"
    return given


@dataclass
class Shared:
    """The work the pairs of one plan share. A pair's charge figures depend on the two units'
    statistics, the situation but the distance, and where the charge starts from; not on the units'
    names, nor on the moves and shots that brought the unit there (the shots are replaced by each
    number of Wounds lost). Pairs alike in all but the distance share their melees
    (:meth:`~calculators.advisor_odds.Turn.share_melees`), and charges alike share their figures."""

    turns: dict[Hashable, Turn] = field(default_factory=dict)
    """The first turn of each pair of statistics and situation but the distance."""
    by_loss: dict[Hashable, tuple[tuple[Figures, ...], ...] | RowLeftOut] = field(default_factory=dict)
    """A charge's :attr:`Option.by_loss`, or the refusal that leaves it out, by turn and start."""


def pair_options(
    table: TableState, unit: int, target: int, objective: str, ki: Fraction | None, shared: Shared | None = None
) -> list[Option]:
    """Every option of ``table.mine[unit]`` against ``table.enemy[target]``; ``ki``: the chance of a
    strategic order's Ki roll when the enemy is out of sight (``None``: it cannot be attacked);
    ``shared``: work shared with the other pairs of the plan (the figures are the same without it).

    Raises:
        CalculatorInputError: the advisor's refusal of the pair's situation, naming its distance.
    """
    reach = table.reaches[(unit, target)]
    mapping = situation(table, unit, target, reach, objective)
    mine, enemy = table.mine[unit].profile, table.enemy[target].profile
    try:
        inputs, turn = prepared_turn(mine, enemy, mapping, None)
    except CalculatorInputError as error:
        raise CalculatorInputError(
            f"distances[{reach.index}].{error.field}", error.message, error.related, error.values
        ) from None
    if inputs.engaged:
        return []
    key = (_statistics(mine), _statistics(enemy), tuple(sorted(mapping.items() - {("distance", reach.cm)})))
    if shared is not None:
        first = shared.turns.setdefault(key, turn)
        if first is not turn:
            turn.share_melees(first)
    goal = goal_of(inputs, turn.enemy)
    rank = rank_key(inputs.objective, goal)
    found = []
    for actions in sequences(turn.situation, inputs.rules):
        if not any(action in (*SHOTS, "charge") for action in actions):
            continue  # orders that touch no enemy: the unit is free for them whatever the plan
        try:
            found.append(_option(turn, unit, target, actions, rank, goal, (shared, key)))
        except RowLeftOut:
            continue  # a calculator cannot take it: the advisor leaves it out too
    strategic = None if reach.in_sight else ki
    if not reach.in_sight:
        found = [_strategic(option, strategic) for option in found] if strategic else []
    return found


def _statistics(profile: Any) -> Hashable:
    """A profile's statistics without its name: units alike in them fight alike."""
    return profile.game, tuple(sorted((name, _frozen(value)) for name, value in profile.values.items()))


def _frozen(value: Any) -> Hashable:
    return tuple(value) if isinstance(value, list) else value


def _option(
    turn: Turn,
    unit: int,
    target: int,
    actions: tuple[str, ...],
    rank: Any,
    goal: int,
    shared: tuple[Shared | None, Hashable],
) -> Option:
    plain = plain_row(turn, actions)
    keeps = tuple(rank(plain)[2:])  # what the orders keep: the same whatever the enemy's reply
    if not charges(turn, plain):
        return Option(unit, target, actions, plain.dealt, False, keeps=keeps, turn=turn, goal=goal)
    store, key = shared
    if store is None:
        by_loss = charge_by_loss(turn, plain, goal)
    else:
        start = (key, start_of(turn, actions))
        if start not in store.by_loss:
            try:
                store.by_loss[start] = charge_by_loss(turn, plain, goal)
            except RowLeftOut as refusal:
                store.by_loss[start] = refusal
        found = store.by_loss[start]
        if isinstance(found, RowLeftOut):
            raise found
        by_loss = found
    return Option(unit, target, actions, plain.dealt, True, by_loss, keeps=keeps, turn=turn, goal=goal)


def charge_by_loss(turn: Turn, plain: Row, goal: int) -> tuple[tuple[Figures, ...], ...]:
    """:attr:`Option.by_loss` of ``plain``'s charge: its figures under each reply weighed, for each
    number of Wounds the enemy lost before it (the shots of ``plain`` replaced by that number).

    Raises:
        RowLeftOut: a calculator refuses a run the charge needs at some number of Wounds lost.
    """
    target = Target(turn.enemy_total, goal, str(turn.inputs.objective))
    return tuple(
        tuple(_figures_of(_at_loss(turn, plain, reply, loss), target) for loss in range(turn.enemy_total + 1))
        for reply in replies_weighed(turn)
    )


def _at_loss(turn: Turn, plain: Row, reply: str, loss: int) -> Row:
    """The charge of ``plain``'s orders once the enemy lost exactly ``loss`` Wounds before it."""
    point = tuple(Fraction(int(k == loss)) for k in range(turn.enemy_total + 1))
    before = replace(plain, dealt=point, victory=point[-1])
    return before if loss == turn.enemy_total else reply_row(turn, before, reply)


def _strategic(option: Option, chance: Fraction) -> Option:
    """``option`` against an enemy out of sight, allowed by a strategic order whose Ki roll succeeds with
    ``chance``: when it fails the unit does nothing against that enemy (the reading of
    kensei.strategic-orders#failed-roll)."""
    return replace(option, strategic=chance)


def _figures_of(row: Row, target: Target) -> Figures:
    """A row's score by the objective (the higher the better), then its Wounds expected."""
    expected = mean(row.dealt)  # row.expected_dealt, summed over one denominator: asked for every loss
    scores: dict[str, Callable[[], Fraction]] = {
        "expected_wounds": lambda: expected,
        "at_least_one": lambda: row.at_least(1),
        "at_least_goal": lambda: row.at_least(target.goal),
        "victory": lambda: row.victory,
        "fewest_taken": lambda: -row.expected_taken,
        "net": lambda: expected - row.expected_taken,
    }
    objective = "expected_wounds" if target.objective == "regrouped" else target.objective
    return scores[objective](), expected


def mean(pmf: Sequence[Fraction]) -> Fraction:
    """The mean of a distribution from 0 up, its terms brought to one denominator before they are summed.

    >>> mean((Fraction(1, 2), Fraction(1, 3), Fraction(1, 6)))
    Fraction(2, 3)
    """
    denominator = lcm(*(p.denominator for p in pmf))
    return Fraction(sum(k * p.numerator * (denominator // p.denominator) for k, p in enumerate(pmf)), denominator)


def combined(shots: Sequence[tuple[Fraction, ...]], wounds: int) -> tuple[Fraction, ...]:
    """The Wounds several units' shots take off one enemy: the convolution of each one's, capped."""
    total: tuple[Fraction, ...] = (Fraction(1),)
    for shot in shots:
        out = [Fraction(0)] * (len(total) + len(shot) - 1)
        for i, p in enumerate(total):
            if p:
                for j, q in enumerate(shot):
                    out[i + j] += p * q
        total = capped(tuple(out), wounds)
    return total + (Fraction(0),) * (wounds + 1 - len(total))


Weights = tuple[tuple[int, ...], int]
"""A distribution as integers over one denominator: a group's sums stay integers until its figures."""


def as_weights(pmf: Sequence[Fraction]) -> Weights:
    """``pmf`` over its least common denominator."""
    denominator = lcm(*(p.denominator for p in pmf))
    return tuple(p.numerator * (denominator // p.denominator) for p in pmf), denominator


def add_shot(total: Weights, shot: Weights, wounds: int) -> Weights:
    """The Wounds of ``total`` and ``shot`` together, capped at the enemy's ``wounds``."""
    out = [0] * (wounds + 1)
    for i, p in enumerate(total[0]):
        if p:
            for j, q in enumerate(shot[0]):
                out[min(i + j, wounds)] += p * q
    return tuple(out), total[1] * shot[1]


NO_SHOT: Weights = ((1,), 1)


def shot_weights_figures(total: Weights, target: Target) -> Figures:
    """The figures of shots alone (no Wounds taken; a victory only when the enemy is destroyed), from
    their Wounds as :data:`Weights` (the scores of :func:`_figures_of`, summed as integers)."""
    weights, denominator = total
    expected = Fraction(sum(k * w for k, w in enumerate(weights)), denominator)
    objective = "expected_wounds" if target.objective == "regrouped" else target.objective
    scores = {
        "expected_wounds": lambda: expected,
        "at_least_one": lambda: Fraction(denominator - weights[0], denominator),
        "at_least_goal": lambda: Fraction(sum(weights[target.goal :]), denominator),
        "victory": lambda: (
            Fraction(weights[target.wounds], denominator) if len(weights) > target.wounds else Fraction(0)
        ),
        "fewest_taken": lambda: Fraction(0),
        "net": lambda: expected,
    }
    return scores[objective](), expected


def charge_figures(before: Weights, charger: Option) -> Figures:
    """A charge's figures once the group's shots took ``before`` off the enemy: under each reply weighed,
    a sum over the Wounds lost, the worst for the player kept (the advisor's choice)."""
    weights, denominator = before
    found = []
    for numerators, below in charger.loss_sums:
        whole = denominator * below
        score = sum(w * n for w, n in zip(weights, numerators[0], strict=True))
        expected = sum(w * n for w, n in zip(weights, numerators[1], strict=True))
        found.append((Fraction(score, whole), Fraction(expected, whole)))
    return min(found)


def monotone(option: Option) -> bool:
    """Whether a charge's figures never fall as the enemy loses more Wounds before it, under every reply:
    then more shots at its target never lower the group's figures (see :mod:`calculators.command_plan`)."""
    return all(
        all(earlier[i] <= later[i] for earlier, later in pairwise(by_loss) for i in (0, 1))
        for by_loss in option.by_loss
    )


def undominated(options: list[Option], keep_all: bool) -> list[Option]:
    """The shooting options worth weighing: one of each distinct shot (the one that keeps the most), and,
    unless ``keep_all``, none whose shot another's dominates (at least as likely to reach every number
    of Wounds); charges are all kept."""
    chosen: list[Option] = []
    for option in sorted(options, key=lambda each: each.keeps):
        if option.charge or all(other.shot != option.shot or other.charge for other in chosen):
            chosen.append(option)
    if keep_all:
        return chosen
    tails = {id(option): _tails(option.shot) for option in chosen}
    return [
        option
        for option in chosen
        if option.charge
        or not any(
            other is not option and not other.charge and _dominates(tails[id(other)], tails[id(option)])
            for other in chosen
        )
    ]


def _tails(pmf: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
    out, running = [], Fraction(0)
    for p in reversed(pmf):
        running += p
        out.append(running)
    return tuple(reversed(out))


def _dominates(first: tuple[Fraction, ...], second: tuple[Fraction, ...]) -> bool:
    return first != second and all(a >= b for a, b in zip(first, second, strict=True))

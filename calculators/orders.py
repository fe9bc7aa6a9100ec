"""Which order sequences a Kensei unit may declare this turn, and why a sequence is refused.

A unit declares all its actions at once (kensei.detailed-description) and pays each in action
points (kensei.action-points, less what its reactions cost: kensei.reaction-cost). The actions
that change the odds against an enemy unit, with their price in the rule data:

- ``march`` and ``run``: its one Movement of the turn (kensei.movement); no running after a failed
  charge (kensei.failed-charge);
- ``fire``: a shot, with a loaded ranged weapon, which it leaves unloaded (kensei.firing);
- ``precise-fire``: a shot with Greater Precision, at its own price (kensei.greater-precision);
- ``reload`` (kensei.loading): only an unloaded weapon; fire, reload, fire is Multiple Shots
  (kensei.multiple-shots);
- ``charge``: nothing follows it (kensei.charge-orders).

The texts give no price for a charge. Reading used here (see the clarification on
kensei.charge-orders): a charge is paid as a Movement is. Which Movement it is depends on the
reading chosen: ``movement`` (the default) counts the charge as the unit's one Movement of the
turn, so no march or run comes before it; ``after-move`` lets the unit march or run first and then
charge from where it stopped.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import product

from .errors import CalculatorInputError
from .params import N_, Nn_
from .rulebook import RuleValues

ACTIONS = ("march", "run", "fire", "precise-fire", "reload", "charge")
"""Every action the advisor puts in a sequence, by its name in the terminal and in links."""

ACTION_LABELS = {
    "march": N_("March"),
    "run": N_("Run"),
    "fire": N_("Fire"),
    "precise-fire": N_("Fire with Greater Precision"),
    "reload": N_("Reload the weapon"),
    "charge": N_("Charge"),
}
"""What each action is called in tables (translated by the terminal and the site)."""

MOVES = ("march", "run")
SHOTS = ("fire", "precise-fire")

CHARGE_READINGS = ("movement", "after-move")
"""Whether the charge is the unit's one Movement of the turn, or may follow a march or run."""

MAX_ACTIONS = 6
"""Most actions in a sequence; no unit has the action points for more."""


@dataclass(frozen=True, eq=False)
class Situation:
    """What decides which sequences a unit may declare this turn."""

    action_points: int
    ranged: bool
    loaded: bool
    can_charge: bool
    can_move: bool
    failed_charge: bool
    charge_reading: str


def action_cost(action: str, rules: RuleValues) -> int:
    """The price of ``action`` in action points, from the rule data."""
    if action in (*MOVES, "charge"):
        cost: int = rules.value("kensei.movement", "action_points")
    elif action == "fire":
        cost = rules.value("kensei.firing", "action_points")
    elif action == "precise-fire":
        cost = rules.value("kensei.greater-precision", "action_points")
    else:
        cost = rules.value("kensei.loading", "action_points")
    return cost


def refusal(actions: tuple[str, ...], situation: Situation, rules: RuleValues) -> tuple[str, dict[str, object]] | None:
    """Why the rules forbid ``actions`` in ``situation``: an English message in ``N_()`` and the
    numbers it names; ``None`` when the sequence is allowed."""
    if not actions:
        return None
    needed = sum(action_cost(action, rules) for action in actions)
    if needed > situation.action_points:
        return N_("not enough action points: {needed} needed, {available} available"), {
            "needed": needed,
            "available": situation.action_points,
        }
    return _order_refusal(actions, situation)


def _order_refusal(actions: tuple[str, ...], situation: Situation) -> tuple[str, dict[str, object]] | None:
    """The first rule the order of ``actions`` breaks (the price aside)."""
    loaded = situation.loaded
    moves = 0
    for index, action in enumerate(actions):
        if index and actions[index - 1] == "charge":
            return N_("a unit that has charged takes no further action this turn"), {}
        if action in MOVES or (action == "charge" and situation.charge_reading == "movement"):
            moves += 1
            if moves > 1:
                return N_("a unit makes one Movement per turn, and here a charge is its Movement"), {}
        problem = _action_refusal(action, situation, loaded)
        if problem is not None:
            return problem, {}
        if action in SHOTS:
            loaded = False
        elif action == "reload":
            loaded = True
    return None


def _action_refusal(action: str, situation: Situation, loaded: bool) -> str | None:
    """Why ``action`` cannot be taken at this point of a sequence, on its own."""
    if action in (*SHOTS, "reload") and not situation.ranged:
        return N_("the unit has no ranged weapon")
    if action in SHOTS and not loaded:
        return N_("the weapon is not loaded: reload it first")
    if action == "reload" and loaded:
        return N_("the weapon is already loaded")
    if action == "run" and situation.failed_charge:
        return N_("no running in the turn after a failed charge")
    if action in MOVES and not situation.can_move:
        return N_("the rules give no Movement for this unit type: give the unit its own Movement")
    if action == "charge" and not situation.can_charge:
        return N_("the charge dice table lists no dice for this unit type")
    return None


def sequences(situation: Situation, rules: RuleValues) -> Iterator[tuple[str, ...]]:
    """Every sequence the rules allow, shortest first (doing nothing included)."""
    cheapest = min(action_cost(action, rules) for action in ACTIONS)
    longest = min(MAX_ACTIONS, situation.action_points // max(1, cheapest))
    for length in range(longest + 1):
        for actions in product(ACTIONS, repeat=length):
            if refusal(actions, situation, rules) is None:
                yield actions


def too_costly(situation: Situation, rules: RuleValues) -> Iterator[tuple[tuple[str, ...], int]]:
    """The sequences ending in an attack that one more action point would allow (Multiple Shots for a
    unit of 2 points, with Greater Precision for one of 3...), each with the points it needs: the
    tempting ones a player looks for in the table and does not find."""
    roomy = dataclasses.replace(situation, action_points=situation.action_points + MAX_EXTRA_POINTS)
    cheapest = min(action_cost(action, rules) for action in ACTIONS)
    longest = min(MAX_ACTIONS, roomy.action_points // max(1, cheapest))
    for length in range(1, longest + 1):
        for actions in product(ACTIONS, repeat=length):
            if actions[-1] not in (*SHOTS, "charge"):  # what follows the last attack changes no odds
                continue
            needed = sum(action_cost(action, rules) for action in actions)
            if needed > situation.action_points and refusal(actions, roomy, rules) is None:
                yield actions, needed


@dataclass(frozen=True, eq=False)
class OtherOrder:
    """An order the rule data gives a price for that changes no odds against the enemy: the advisor
    does not make rows of it (they would repeat rows already there, odds and all) but says which of
    them the points a row leaves could pay for."""

    name: str
    label: str
    rule: str
    key: str
    characters_only: bool


OTHER_ORDERS = (
    OtherOrder("spell", N_("Cast a spell (an Onmyouiji)"), "kensei.spiritual-actions", "action_points", True),
    OtherOrder("concentration", N_("Concentration before a Ki roll"), "kensei.concentration", "action_points", True),
    OtherOrder("meditation", N_("Meditation (longer spell range)"), "kensei.meditation", "action_points", True),
    OtherOrder("action-ability", N_("An action ability"), "kensei.action-abilities", "action_points", False),
    OtherOrder(
        "leave-construction",
        N_("Leave a construction"),
        "kensei.occupying-construction",
        "exit_action_points",
        False,
    ),
)
"""Spells, concentration and meditation are a character's (kensei.spiritual-actions and the rules
after it); an action ability and leaving a construction are any unit's that has one or is in one."""


OTHER_ORDER_LABELS = {order.name: order.label for order in OTHER_ORDERS}


def other_orders(unit_type: str, rules: RuleValues) -> tuple[tuple[OtherOrder, int], ...]:
    """The orders of :data:`OTHER_ORDERS` a unit of ``unit_type`` (a profile's type) may give, each
    with its price in action points from the rule data."""
    return tuple(
        (order, rules.value(order.rule, order.key))
        for order in OTHER_ORDERS
        if unit_type == "character" or not order.characters_only
    )


MAX_EXTRA_POINTS = 1
"""How far beyond its action points :func:`too_costly` looks: one point short is what tempts a player."""


def parse_sequence(text: str) -> tuple[str, ...]:
    """A sequence as typed (``fire,reload,fire``).

    Raises:
        ValueError: naming the first word that is not an action.
    """
    words = tuple(word.strip() for word in text.split(",") if word.strip())
    if not words or len(words) > MAX_ACTIONS:
        raise ValueError(f"1 to {MAX_ACTIONS} actions")
    for word in words:
        if word not in ACTIONS:
            raise ValueError(word)
    return words


def too_close(field: str, keep: int, related: tuple[str, str]) -> CalculatorInputError:
    """The refusal of two units closer than kensei.five-cm-rule keeps them (``keep`` cm) with neither a
    failed charge nor terrain between them: ``related`` names those two inputs where they are written."""
    return CalculatorInputError(
        field,
        Nn_(
            "units stay at least {keep} cm apart, except after a failed charge ({0}) or with terrain between"
            " them ({1}): give the distance, or say which",
            "units stay at least {keep} cm apart, except after a failed charge ({0}) or with terrain between"
            " them ({1}): give the distance, or say which",
            "keep",
        ),
        related,
        values={"keep": keep},
    )

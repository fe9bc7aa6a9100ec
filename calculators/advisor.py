"""The orders advisor (Kensei): every order sequence a unit may declare this turn, with its exact odds.

For your unit against one enemy unit at a given distance, each sequence allowed by
:mod:`calculators.orders` is scored by composing the calculators themselves, so that each row's
figures are those of the calculators with the same inputs:

- a shot is the shooting calculator (the range band from the weapon's ranges at the distance it
  fires from; the penalty of a march or run made before it; Multiple Shots for fire, reload, fire);
- a charge is the charge calculator (dice by unit type; the roll made from where the unit stands),
  and, when it reaches, the melee calculator (your unit charging, the enemy in its cover);
- a shot before a charge is exact too: the melee is computed for each number of Wounds the shot
  dealt, the enemy's Wounds taken off one model at a time in the order its profile lists them.

Readings (each on the clarifications page): a move before a shot or a charge goes straight at the
enemy and stops at the distance kensei.five-cm-rule keeps; the range band of a shot is read from
the weapon's ranges in the profile; a charge is paid as a Movement (see :mod:`calculators.orders`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from . import melee
from .advisor_odds import Row, RowLeftOut, Turn
from .choices import COVER, NONE
from .enemy_reply import REACTION_CHOICES, reply_refusal, scored_row
from .errors import CalculatorInputError
from .inputs import make_inputs
from .kensei_dice import DAMAGE_RULE_PARAM
from .orders import (
    ACTIONS,
    CHARGE_READINGS,
    MAX_ACTIONS,
    other_orders,
    refusal,
    sequences,
    too_close,
    too_costly,
)
from .params import N_, Nn_, choice, count, flag, whole_number
from .profiles import Profile, as_it_stands, wounds_left_param
from .rulebook import RuleValues
from .shooting import SHOOTER_IN

WEAPON_STATES = ("as_profile", "loaded", "unloaded")
"""Whether the unit's ranged weapon is loaded this turn: as its profile says, or as chosen here."""

OBJECTIVES = ("expected_wounds", "at_least_one", "at_least_goal", "victory", "fewest_taken", "net")
"""What the table is sorted by: Wounds expected, the chance of at least one or of at least the goal,
the chance of a victory (the enemy destroyed, beaten in melee, or fleeing from your charge), the
fewest Wounds expected in return, or the Wounds dealt minus those taken (expected). New ones go at
the end: a shared address names its objective, and the old names keep their meaning."""

OBJECTIVE_LABELS = {
    "expected_wounds": N_("expected Wounds dealt"),
    "at_least_one": N_("chance of at least one Wound"),
    "at_least_goal": N_("chance of at least the Wounds goal"),
    "victory": N_("chance of a victory: the enemy destroyed, beaten in melee or fleeing from your charge"),
    "fewest_taken": N_("fewest Wounds expected in return"),
    "net": N_("Wounds dealt minus Wounds taken, expected"),
}
"""Each objective's words, for the terminal and the page alike."""

TIES = N_(
    "Rows with equal figures are ranked by what they keep: a loaded weapon first, then more action points"
    " left, then the unit's position (fewer moves)."
)
"""How the table orders rows whose figures are equal (:func:`_rank`), said under it."""

MAX_DISTANCE = 200


PARAMS = (
    whole_number(
        "distance",
        N_("Distance (cm)"),
        N_("From your unit to the enemy unit."),
        "kensei.charge-orders",
        0,
        MAX_DISTANCE,
    ),
    choice("enemy_cover", N_("Enemy's cover"), N_("Worsens your shots and helps it in melee."), "kensei.cover", COVER),
    flag("enemy_in_water", N_("Enemy in water"), N_("A stream, brook, bog or ford."), "kensei.shallow-water"),
    choice(
        "cover",
        N_("Your unit's cover"),
        N_("Where it stands: worsens the enemy's reaction shot at it."),
        "kensei.cover",
        COVER,
    ),
    choice(
        "shooter_in",
        N_("Your unit stands in"),
        N_("Shooting from deep forest or water worsens the Attack."),
        "kensei.deep-forest",
        (NONE, *SHOOTER_IN),
    ),
    flag("on_hill", N_("Your unit on a hill"), N_("Shooting from a hill reaches farther."), "kensei.hills"),
    choice(
        "weapon",
        N_("Weapon"),
        N_("Loaded or not now; unless chosen, as the unit's profile says."),
        "kensei.loading",
        WEAPON_STATES,
    ),
    wounds_left_param(
        "wounds_left",
        N_("Your unit's Wounds left"),
        N_("Each model's Wounds left, e.g. 2,2,1; unless given, the profile's."),
    ),
    wounds_left_param(
        "enemy_wounds_left",
        N_("Enemy's Wounds left"),
        N_("Each model's Wounds left, e.g. 2,2,1; unless given, the profile's."),
    ),
    choice(
        "enemy_weapon",
        N_("Enemy's weapon"),
        N_("Loaded or not now; unless chosen, as the enemy's profile says."),
        "kensei.loading",
        WEAPON_STATES,
    ),
    count("reactions", N_("Reactions"), N_("Paid out of this phase."), "kensei.reaction-cost", 3),
    flag("failed_charge", N_("Failed a charge last turn"), N_("No running this turn."), "kensei.failed-charge"),
    flag("engaged", N_("Engaged in combat"), N_("An engaged unit takes no orders."), "kensei.out-of-the-game"),
    flag(
        "terrain_between",
        N_("Terrain between the units"),
        N_("It lets them stand closer than the rule keeps them."),
        "kensei.five-cm-rule",
    ),
    flag(
        "indirect",
        N_("Indirect charge"),
        N_("The unit would have to pivot to reach the enemy."),
        "kensei.indirect-charge",
    ),
    choice(
        "enemy_reaction",
        N_("Enemy's reaction to a charge"),
        N_("Unless one is chosen, each charge is scored under the reaction worst for you."),
        "kensei.reactions",
        REACTION_CHOICES,
        default="best",
    ),
    flag(
        "enemy_charged",
        N_("Enemy charged this turn"),
        N_("It may then only withstand and fight."),
        "kensei.withstand-and-combat",
    ),
    count(
        "enemy_defensive",
        N_("Enemy's Defensive Position"),
        N_("Defense the enemy buys with combat dice when charged."),
        "kensei.defensive-position",
        melee.MAX_DEFENSIVE,
    ),
    choice(
        "lone_charge",
        N_("A character or lone model charges"),
        N_(
            "The texts give it no charge dice: unless chosen, it does not charge; or it charges as infantry"
            " or as cavalry."
        ),
        "kensei.charge-dice",
        (NONE, "infantry", "cavalry"),
    ),
    choice(
        "charge_reading",
        N_("Charge reading"),
        N_("Whether the charge is the unit's Movement of the turn, or a march or run may come before it."),
        "kensei.charge-orders",
        CHARGE_READINGS,
    ),
    DAMAGE_RULE_PARAM,
    choice("objective", N_("Sort by"), N_("What the best order maximises."), "kensei.generic-orders", OBJECTIVES),
    whole_number(
        "goal",
        N_("Wounds goal"),
        N_("The table gives the chance of at least this many Wounds; unless given, one enemy model's Wounds."),
        "kensei.shooting-dice",
        1,
        melee.MAX_WOUNDS,
        default=None,
    ),
)

AdvisorInputs = make_inputs("AdvisorInputs", PARAMS, None, "The situation the orders are for.", __name__)


READINGS = (
    "kensei.charge-orders#charge-cost",
    "kensei.charge-dice#charge-distance",
    "kensei.charge-dice#unlisted-types",
    "kensei.firing#range-bands",
    "kensei.shooting-dice#casualties",
    "kensei.withstand-and-shoot#reaction-shot",
    "kensei.counter-charge#counter-charge-reach",
    "kensei.run-away#fleeing-from-a-charge",
)
"""The clarifications (rule id # note id) the advisor's readings are explained in."""


@dataclass(frozen=True, eq=False)
class Advice:
    """Every allowed sequence, best first by the objective, and why the unit can do nothing, if so."""

    rows: tuple[Row, ...]
    objective: str
    goal: int
    action_points: int
    out_of_the_game: bool = False
    readings: tuple[str, ...] = READINGS
    too_costly: tuple[tuple[tuple[str, ...], int], ...] = ()
    """Sequences only the action points forbid, each with the points it would need."""
    other_orders: tuple[tuple[str, str, int], ...] = ()
    """Orders without odds the unit may give with the points a row leaves: name, rule, price."""
    left_out: tuple[tuple[tuple[str, ...], RowLeftOut], ...] = ()
    """Sequences the rules allow whose odds a calculator cannot give, each with its refusal."""
    situation: Mapping[str, Any] = field(default_factory=dict)
    """Every input of the situation the table is for, defaults included: with the two profiles, what
    reproduces each row, those that average several calculator runs too."""

    def points_left(self, row: Row) -> int:
        """The action points ``row``'s orders leave for orders that change no odds: none after a charge,
        which ends the unit's turn (kensei.charge-orders)."""
        if row.actions and row.actions[-1] == "charge":
            return 0
        return self.action_points - row.cost

    @property
    def groups(self) -> tuple[tuple[int, ...], ...]:
        """The rows (by index, best first) whose outcomes are the same, each group in the table's order:
        Fire then March, Fire then Run and Fire then Reload deal the same Wounds with the same odds,
        and are one choice for the player's objective, told apart only by what they keep."""
        found: dict[tuple[object, ...], list[int]] = {}
        for index, row in enumerate(self.rows):
            found.setdefault(_outcome(row), []).append(index)
        return tuple(tuple(indices) for indices in found.values())


def advise(mine: Profile, enemy: Profile, situation: Mapping[str, Any], rules: RuleValues | None = None) -> Advice:
    """The ranked orders for ``mine`` against ``enemy`` in ``situation`` (the :data:`PARAMS`).

    Raises:
        CalculatorInputError: for a bad situation, or a profile that is not a Kensei unit.
    """
    inputs, turn = prepared_turn(mine, enemy, situation, rules)
    goal = goal_of(inputs, turn.enemy)
    given = {param.name: getattr(inputs, param.name) for param in inputs.PARAMS}
    if inputs.engaged:
        return Advice((), inputs.objective, goal, turn.situation.action_points, out_of_the_game=True, situation=given)
    rows: list[Row] = []
    left_out: list[tuple[tuple[str, ...], RowLeftOut]] = []

    def worst_first(row: Row) -> tuple[Fraction, ...]:
        return _rank(row, inputs.objective, goal)[:2]

    for actions in sequences(turn.situation, inputs.rules):
        try:
            rows.append(scored_row(turn, actions, worst_first))
        except RowLeftOut as refusal:
            left_out.append((actions, refusal))
    rows.sort(key=lambda row: _rank(row, inputs.objective, goal))
    costly = tuple(too_costly(turn.situation, inputs.rules))
    others = tuple((order.name, order.rule, cost) for order, cost in other_orders(mine.unit_type, inputs.rules))
    return Advice(
        tuple(rows),
        inputs.objective,
        goal,
        turn.situation.action_points,
        too_costly=costly,
        other_orders=others,
        left_out=tuple(left_out),
        situation=given,
    )


WHY_REFUSAL = N_("must be actions separated by commas, from {names}")
"""The refusal of a sequence that is not one of actions (``--why`` in the terminal)."""


def explain(mine: Profile, enemy: Profile, situation: Mapping[str, Any], actions: tuple[str, ...]) -> str | None:
    """Why the rules forbid ``actions`` here, in English (``None`` when allowed).

    Raises:
        CalculatorInputError: as :func:`advise` does, and for a word that is no action.
    """
    found = why_refused(mine, enemy, situation, actions)
    return None if found is None else found[0].format(**found[1])


def why_refused(
    mine: Profile, enemy: Profile, situation: Mapping[str, Any], actions: tuple[str, ...]
) -> tuple[str, dict[str, object]] | None:
    """:func:`explain`'s reason as its template (in ``N_()``) and the numbers it names, so that a front
    end translates the template before it fills it in (a reason filled in first is no catalog key).

    Raises:
        CalculatorInputError: as :func:`explain` does.
    """
    if len(actions) > MAX_ACTIONS or any(action not in ACTIONS for action in actions):
        raise CalculatorInputError("why", WHY_REFUSAL, values={"names": ", ".join(ACTIONS)})
    inputs, turn = prepared_turn(mine, enemy, situation, None)
    if inputs.engaged:
        return N_("a unit engaged in combat is out of the game: it takes no orders"), {}
    return refusal(actions, turn.situation, inputs.rules)


def prepared_turn(
    mine: Profile, enemy: Profile, situation: Mapping[str, Any], rules: RuleValues | None
) -> tuple[Any, Turn]:
    """The checked situation and the turn it sets: both units must be Kensei units, since a Ronin
    warband has none of the statistics the turn reads."""
    inputs: Any = AdvisorInputs.from_dict(situation, rules=rules)
    for name, profile in (("mine", mine), ("enemy", enemy)):
        if not isinstance(profile, Profile):
            raise CalculatorInputError(name, N_("must be a unit's profile, as read from a units file"))
        if profile.game != "kensei":
            raise CalculatorInputError(name, N_("must be a Kensei unit; the advisor is for Kensei"))
    mine, enemy = as_they_stand(inputs, mine, enemy)
    _check_contradictions(inputs, enemy)
    turn = Turn(mine, enemy, inputs)
    refused = reply_refusal(turn)
    if refused is not None:
        raise CalculatorInputError("enemy_reaction", *refused)
    return inputs, turn


def as_they_stand(inputs: Any, mine: Profile, enemy: Profile) -> tuple[Profile, Profile]:
    """The two units with the Wounds they have left and the enemy's weapon as the situation gives them:
    what a table's state says of a unit (a Command phase plan's row opens here with it). Your
    unit's weapon is the ``weapon`` input, read where the turn starts."""
    enemy_loaded = None if inputs.enemy_weapon == "as_profile" else inputs.enemy_weapon == "loaded"
    return (
        as_it_stands(mine, inputs.wounds_left, None, ("wounds_left", "weapon")),
        as_it_stands(
            enemy,
            inputs.enemy_wounds_left,
            enemy_loaded,
            ("enemy_wounds_left", "enemy_weapon"),
            N_("needs a ranged weapon in the enemy's profile"),
        ),
    )


def _outcome(row: Row) -> tuple[object, ...]:
    """Everything a row's odds say: rows with equal outcomes differ only in what they keep."""
    return (row.dealt, row.p_reach, row.p_charged, row.victory, row.draw, row.defeat, row.expected_taken, row.reply)


def _check_contradictions(inputs: Any, enemy: Profile) -> None:
    """Inputs that cannot all be true on the table are refused, with the one to change: units in
    contact (0 cm) are engaged in combat; units closer than kensei.five-cm-rule keeps them are so only
    after a failed charge or with terrain between them; a unit cannot lose more Wounds than it has."""
    if inputs.distance == 0 and not inputs.engaged:
        raise CalculatorInputError(
            "distance",
            N_("0 cm is contact between the units, which is engaged in combat ({0}): give the distance between them"),
            ("engaged",),
        )
    keep = inputs.rules.value("kensei.five-cm-rule", "distance_cm")
    if 0 < inputs.distance < keep and not (inputs.failed_charge or inputs.terrain_between):
        raise too_close("distance", keep, ("failed_charge", "terrain_between"))
    wounds = sum(enemy.wounds)
    if inputs.goal is not None and inputs.goal > wounds:
        raise CalculatorInputError(
            "goal",
            Nn_(
                "must be at most the enemy's Wounds: it has {wounds} Wound",
                "must be at most the enemy's Wounds: it has {wounds} Wounds",
                "wounds",
            ),
            values={"wounds": wounds},
        )


def goal_of(inputs: Any, enemy: Profile) -> int:
    """The Wounds goal of ``at_least_goal``: as given, or one enemy model's Wounds."""
    return int(inputs.goal) if inputs.goal is not None else enemy.wounds[0]


def rank_key(objective: str, goal: int) -> Callable[[Row], tuple[Fraction, ...]]:
    """The table's sort key for ``objective`` (:func:`_rank`): the lowest first is the best."""
    return lambda row: _rank(row, objective, goal)


def _rank(row: Row, objective: str, goal: int) -> tuple[Fraction, ...]:
    """The sort key: best first by the objective, then by the Wounds expected; between rows whose
    figures are equal, the one that keeps more for the player: its weapon loaded, then more action
    points left, then its position (fewer moves), then fewer orders."""
    scores = {
        "expected_wounds": -row.expected_dealt,
        "at_least_one": -row.at_least(1),
        "at_least_goal": -row.at_least(goal),
        "victory": -row.victory,
        "fewest_taken": row.expected_taken,
        "net": -row.net,
    }
    keeps = (Fraction(not row.loaded_after), Fraction(row.cost), Fraction(row.moves), Fraction(len(row.actions)))
    return (scores[objective], -row.expected_dealt, *keeps)


def advice_json(advice: Advice) -> dict[str, Any]:
    """The JSON contract of the advisor (the terminal's ``--json``, the site's page): floats for
    chances, every row with the calculator runs and rules behind it."""
    return {
        "advisor": "orders",
        "situation": dict(advice.situation),
        "objective": advice.objective,
        "goal": advice.goal,
        "action_points": advice.action_points,
        "out_of_the_game": advice.out_of_the_game,
        "readings": list(advice.readings),
        "too_costly": [{"actions": list(actions), "action_points": needed} for actions, needed in advice.too_costly],
        "other_orders": [
            {"order": name, "rule": rule, "action_points": cost} for name, rule, cost in advice.other_orders
        ],
        "rows": [_row_json(row, advice) for row in advice.rows],
        "groups": [list(group) for group in advice.groups],
        "left_out": [
            {
                "actions": list(actions),
                "calculator": refusal.calculator,
                "error": refusal.error.as_json(),
                "reason": refusal.error.describe(lambda name: name),
            }
            for actions, refusal in advice.left_out
        ],
    }


def _row_json(row: Row, advice: Advice) -> dict[str, Any]:
    goal = advice.goal
    return {
        "actions": list(row.actions),
        "action_points": row.cost,
        "points_left": advice.points_left(row),
        "expected_wounds": float(row.expected_dealt),
        "p_at_least_one": float(row.at_least(1)),
        "p_at_least_goal": float(row.at_least(goal)),
        "p_reach": None if row.p_reach is None else float(row.p_reach),
        "victory": float(row.victory),
        "draw": float(row.draw),
        "defeat": float(row.defeat),
        "expected_taken": float(row.expected_taken),
        "net": float(row.net),
        "destroyed": float(row.destroyed),
        "p_charged": None if row.p_charged is None else float(row.p_charged),
        "loaded_after": row.loaded_after,
        "reply": row.reply,
        "fled": float(row.fled),
        "p_counter": None if row.p_counter is None else float(row.p_counter),
        "replies": [_reply_json(each, goal) for each in row.replies],
        "wounds_pmf": [float(p) for p in row.dealt],
        "calculators": [
            {"name": link.calculator, "inputs": dict(link.inputs), "side": link.side, "averaged": link.averaged}
            for link in row.links
        ],
        "rules": list(row.rules),
    }


def _reply_json(row: Row, goal: int) -> dict[str, Any]:
    """A charge's figures under one reply of the enemy's (the row shows those of the worst for you)."""
    return {
        "reply": row.reply,
        "expected_wounds": float(row.expected_dealt),
        "p_at_least_goal": float(row.at_least(goal)),
        "victory": float(row.victory),
        "defeat": float(row.defeat),
        "expected_taken": float(row.expected_taken),
        "net": float(row.net),
        "fled": float(row.fled),
    }

"""What a Command phase plan says: each enemy's outcome under the units that chose it, and the JSON contract
of ``kensei-ref plan --json`` and of the site's page.

An enemy's outcome is computed again, in full, from the members of its group: their shots convolved and
capped, then the charge (if one of them charges) scored by the advisor on the Wounds the shots left, under
the enemy's best reply, with a strategic order's Ki roll as a mixture of the charge and no charge.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .advisor import rank_key
from .advisor_odds import Row
from .command_plan import READINGS, Plan
from .enemy_reply import scored_row
from .plan_options import Option, Target, combined, situation
from .table import TableState


@dataclass(frozen=True)
class EnemyOutcome:
    """What the units that chose one enemy do to it, exactly."""

    dealt: tuple[Fraction, ...]
    """P(the enemy loses exactly k Wounds this turn), k from 0 to all it has."""
    victory: Fraction
    """It is destroyed, beaten in the melee, or runs away from the charge."""
    taken: Fraction
    """The Wounds the charging unit is expected to lose to it."""
    reply: str | None
    """Its reply to the charge (``None`` without one)."""

    @property
    def expected(self) -> Fraction:
        return sum((k * p for k, p in enumerate(self.dealt)), Fraction(0))

    @property
    def destroyed(self) -> Fraction:
        return self.dealt[-1]


def enemy_outcome(members: Sequence[Option], target: Target) -> EnemyOutcome:
    """The outcome for the enemy of ``members`` (the options of the units that chose it)."""
    shooters = [option for option in members if not option.charge]
    alone = combined([option.declared_shot for option in shooters], target.wounds)
    quiet = EnemyOutcome(alone, alone[-1], Fraction(0), None)
    chargers = [option for option in members if option.charge]
    if not chargers:
        return quiet
    charger = chargers[0]
    before = combined([*(option.declared_shot for option in shooters), charger.shot], target.wounds)
    inputs = charger.turn.inputs
    goal = target.goal
    row: Row = scored_row(
        charger.turn, charger.actions, lambda each: rank_key(inputs.objective, goal)(each)[:2], shot=before
    )
    charged = EnemyOutcome(row.dealt, row.victory, row.expected_taken, row.reply)
    if charger.strategic is None:
        return charged
    chance = charger.strategic
    return EnemyOutcome(
        tuple(chance * a + (1 - chance) * b for a, b in zip(charged.dealt, quiet.dealt, strict=True)),
        chance * charged.victory + (1 - chance) * quiet.victory,
        chance * charged.taken,
        charged.reply,
    )


def plan_json(table: TableState, plans: Sequence[Plan], objective: str, points: int) -> dict[str, Any]:
    """The JSON contract of the plan: floats for chances, names for units, the best plan first."""
    return {
        "plan": "command",
        "objective": objective,
        "commandment_points": points,
        "taisho_ability": bool(table.taisho_ability),
        "readings": list(READINGS),
        "plans": [_plan_json(table, plan) for plan in plans],
    }


def _plan_json(table: TableState, plan: Plan) -> dict[str, Any]:
    regroup = plan.regroup
    fleeing = [unit for unit in table.mine if unit.state == "fleeing"]
    groups: dict[int, list[Option]] = {}
    for option in plan.orders:
        groups.setdefault(option.target, []).append(option)
    return {
        "rank": plan.rank,
        "score": float(plan.figures[0]),
        "expected_wounds": float(plan.figures[1]),
        "commandment_points_spent": plan.reserved + (regroup.available if regroup is not None else 0),
        "expected_commandment_points_spent": float(plan.reserved + (regroup.expected_cp if regroup else 0)),
        "strategic_orders": [_strategic_json(table, option) for option in plan.orders if option.strategic is not None],
        "regroup": [
            {
                "unit": fleeing[unit_plan.unit - 1].name,
                "attempts": unit_plan.attempts_by_points[0][1],
                "attempts_by_points": {str(left): attempts for left, attempts in unit_plan.attempts_by_points},
                "p_regroup": float(unit_plan.p_regroup),
            }
            for unit_plan in (regroup.plans if regroup is not None else ())
        ],
        "expected_regrouped": float(plan.expected_regrouped),
        "taisho_ability_cost": float(plan.ability_cost),
        "orders": [_order_json(table, option) for option in plan.orders],
        "enemies": [
            _enemy_json(table, target, enemy_outcome(members, _target_of(table, target, members)))
            for target, members in sorted(groups.items())
        ],
    }


def _target_of(table: TableState, target: int, members: Sequence[Option]) -> Target:
    profile = table.enemy[target].profile
    objective = str(members[0].turn.inputs.objective)
    return Target(sum(profile.wounds), profile.wounds[0], objective)


def _strategic_json(table: TableState, option: Option) -> dict[str, Any]:
    chance = option.strategic if option.strategic is not None else Fraction(1)
    return {"unit": table.mine[option.unit].name, "target": table.enemy[option.target].name, "p_ki": float(chance)}


def _order_json(table: TableState, option: Option) -> dict[str, Any]:
    row = option.row
    return {
        "unit": table.mine[option.unit].name,
        "target": table.enemy[option.target].name,
        "actions": list(option.actions),
        "strategic": option.strategic is not None,
        "wounds_pmf": [float(p) for p in row.dealt],
        "expected_wounds": float(row.expected_dealt),
        "victory": float(row.victory),
        "defeat": float(row.defeat),
        "expected_taken": float(row.expected_taken),
        "reply": row.reply,
        "calculators": [
            {"name": link.calculator, "inputs": dict(link.inputs), "side": link.side, "averaged": link.averaged}
            for link in row.links
        ],
        "rules": list(row.rules),
        "advisor": _advisor_json(table, option),
    }


def _advisor_json(table: TableState, option: Option) -> dict[str, Any]:
    """What opens the orders advisor on this unit's row: the two units' names in the units file and the
    situation from the table's state (with a strategic order, the row is the one its Ki roll allows)."""
    reach = table.reaches[(option.unit, option.target)]
    mapping = situation(table, option.unit, option.target, reach, str(option.turn.inputs.objective))
    return {
        "mine": table.mine[option.unit].name,
        "enemy": table.enemy[option.target].name,
        "situation": {key: list(value) if isinstance(value, tuple) else value for key, value in mapping.items()},
    }


def _enemy_json(table: TableState, target: int, outcome: EnemyOutcome) -> dict[str, Any]:
    return {
        "unit": table.enemy[target].name,
        "p_destroyed": float(outcome.destroyed),
        "expected_wounds": float(outcome.expected),
        "victory": float(outcome.victory),
        "expected_taken": float(outcome.taken),
        "reply": outcome.reply,
        "wounds_pmf": [float(p) for p in outcome.dealt],
    }

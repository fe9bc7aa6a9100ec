"""Which fleeing units to try to regroup with the commandment points at hand (Kensei 8.2, 8.3).

The planner maximises the expected number of regrouped units. Units are taken from the most to
the least likely to regroup; for each unit and each number of points left when its turn comes,
an exact dynamic programme chooses how many attempts to plan (0, 1 or up to the rules' maximum;
a further attempt is made only after a failed one, so planning it costs nothing when the first
succeeds). The tests check against an exhaustive search that no other order, and no choice made
after seeing earlier rolls, does better.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, fields
from fractions import Fraction
from functools import cache
from typing import Annotated, Any

from .errors import CalculatorInputError
from .inputs import make_inputs
from .params import CHARACTERISTIC, N_, Nn_, Param, choice, count, flag, whole_number
from .registry import Calculator
from .regroup import regroup_chance
from .results import Distribution, Result, Step, Tabled, figure, json_value
from .rulebook import RuleValues

MAX_UNITS = 10
MAX_POINTS = 20

GENERALS = ("daimyo", "taisho", "hero", "daisho_samurai")
"""The general's ranks, each with its commandment points (kensei.commandment-points)."""

PARAMS = (
    choice(
        "general",
        N_("General"),
        N_("The general's rank sets the commandment points."),
        "kensei.commandment-points",
        GENERALS,
        default="taisho",
    ),
    flag(
        "dominance",
        N_("Position of dominance"),
        N_("The general holds the hill: extra points."),
        "kensei.position-of-dominance",
    ),
    whole_number(
        "points",
        N_("Commandment points"),
        N_("Points available, instead of those of the general and the position of dominance."),
        "kensei.commandment-points",
        0,
        MAX_POINTS,
        default=None,
    ),
    flag(
        "taisho_ability",
        N_("Keep points for a Taisho ability"),
        N_("Reserve the cost of one ability."),
        "kensei.taisho-abilities",
    ),
    count(
        "strategic_orders",
        N_("Strategic orders to keep points for"),
        N_("Reserve the cost of this many strategic orders."),
        "kensei.strategic-orders",
        MAX_POINTS,
    ),
    Param(
        "honors",
        "int_list",
        N_("Honor of each fleeing unit"),
        N_("e.g. 6,7,5: one number per unit."),
        "kensei.regroup",
        **CHARACTERISTIC,
        min_length=1,
        max_length=MAX_UNITS,
    ),
    Param(
        "bonuses",
        "int_list",
        N_("Regroup bonus of each unit"),
        N_("Modifiers per unit in the same order (Bushi hero, Commandment trait); default none."),
        "kensei.regroup",
        default=(),
        minimum=-10,
        maximum=10,
        min_length=0,
        max_length=MAX_UNITS,
    ),
)


def _check(inputs: Any) -> None:
    if inputs.bonuses and len(inputs.bonuses) != len(inputs.honors):
        raise CalculatorInputError(
            "bonuses",
            N_("must give one number per unit of {0} ({units}), got {count}"),
            ("honors",),
            {"units": len(inputs.honors), "count": len(inputs.bonuses)},
        )
    budget = _budget(inputs)
    reserved = _reserved(inputs)
    if reserved > budget:
        field = "strategic_orders" if inputs.strategic_orders else "taisho_ability"
        raise CalculatorInputError(
            field,
            Nn_(
                "reserves {reserved} commandment point, more than the {budget} available",
                "reserves {reserved} commandment points, more than the {budget} available",
                "reserved",
            ),
            values={"reserved": reserved, "budget": budget},
        )


def _budget(inputs: Any) -> int:
    """The commandment points: as given, or the general's and the hill's."""
    rules: RuleValues = inputs.rules
    if inputs.points is not None:
        points: int = inputs.points
        return points
    budget = rules.value("kensei.commandment-points", inputs.general)
    if inputs.dominance:
        budget += rules.value("kensei.position-of-dominance", "commandment_points")
    return budget


def _reserved(inputs: Any) -> int:
    """The points kept for a Taisho ability and strategic orders."""
    rules: RuleValues = inputs.rules
    reserved: int = inputs.strategic_orders * rules.value("kensei.strategic-orders", "cost")
    if inputs.taisho_ability:
        reserved += rules.value("kensei.taisho-abilities", "cost")
    return reserved


PlannerInputs = make_inputs("PlannerInputs", PARAMS, _check, "Inputs of the regroup planner.", __name__)


@dataclass(frozen=True)
class UnitPlan:
    """The plan for one unit: attempts planned for each number of points left when it comes."""

    unit: int  # 1-based position in the input
    honor: int
    bonus: int
    p_per_attempt: Fraction
    attempts_by_points: tuple[tuple[int, int], ...]  # (points left, attempts planned), reachable only
    p_regroup: Fraction

    def to_json(self) -> dict[str, Any]:
        """Every field under its name, as the JSON contract has it; the plan keyed by points left."""
        entries = {declared.name: json_value(getattr(self, declared.name)) for declared in fields(self)}
        entries["attempts_by_points"] = {str(points): attempts for points, attempts in self.attempts_by_points}
        return entries


@dataclass(frozen=True)
class PlannerResult(Result):
    NAME = "planner"
    points: int
    reserved: int
    available: Annotated[int, figure(N_("Commandment points for regrouping"))]
    plans: tuple[UnitPlan, ...]  # in attempt order
    regrouped: Annotated[
        Distribution,
        Tabled("pmf", N_("Units regrouped"), N_("Units"), ("expected_regrouped", N_("Expected units regrouped"))),
    ]
    expected_cp: Annotated[Fraction, figure(N_("Expected commandment points spent"))]

    def payload(self) -> dict[str, Any]:
        return {
            "points": self.points,
            "reserved": self.reserved,
            "available": self.available,
            "order": [plan.unit for plan in self.plans],
            "policy": [plan.to_json() for plan in self.plans],
            "expected_regrouped": float(self.regrouped.mean),
            "expected_cp": float(self.expected_cp),
            **{key: value for key, value in self.regrouped.to_json().items() if key != "mean"},
        }


def _attempt_outcomes(p: Fraction, attempts: int, cost: int) -> list[tuple[Fraction, int, int]]:
    """``(probability, points spent, regrouped 0 or 1)`` when up to ``attempts`` are made."""
    outcomes = [((1 - p) ** (k - 1) * p, k * cost, 1) for k in range(1, attempts + 1)]
    return [*outcomes, ((1 - p) ** attempts, attempts * cost, 0)]


def plan(chances: list[Fraction], points: int, rules: RuleValues) -> list[dict[int, int]]:
    """For each unit in ``chances``' order, attempts planned for each number of points left."""
    cost = rules.value("kensei.regroup", "cost_per_attempt")
    most = rules.value("kensei.regroup", "attempts")

    @cache
    def value(index: int, left: int) -> tuple[Fraction, int]:
        """(expected regroups from unit ``index`` on with ``left`` points, attempts to plan)."""
        if index == len(chances):
            return Fraction(0), 0
        best, best_attempts = value(index + 1, left)[0], 0
        for attempts in range(1, most + 1):
            if attempts * cost > left:
                break
            expected = sum(
                (
                    chance * (won + value(index + 1, left - spent)[0])
                    for chance, spent, won in _attempt_outcomes(chances[index], attempts, cost)
                ),
                Fraction(0),
            )
            if expected > best:  # strictly better: ties keep fewer attempts and fewer points spent
                best, best_attempts = expected, attempts
        return best, best_attempts

    return [{left: value(index, left)[1] for left in range(points + 1)} for index in range(len(chances))]


Unit = tuple[int, int, int, Fraction]
"""A fleeing unit: its place in the input (from 1), Honor, bonus and chance per attempt."""


def fleeing_units(inputs: Any) -> list[Unit]:
    """The units, from the most to the least likely to regroup (stable for equal chances)."""
    bonuses = inputs.bonuses or (0,) * len(inputs.honors)
    units = [
        (i + 1, honor, bonus, regroup_chance(honor, bonus, inputs.rules))
        for i, (honor, bonus) in enumerate(zip(inputs.honors, bonuses, strict=True))
    ]
    units.sort(key=lambda unit: -unit[3])
    return units


def follow_plan(
    units: list[Unit], table: list[dict[int, int]], available: int, cost: int
) -> tuple[list[UnitPlan], dict[tuple[int, int], Fraction]]:
    """Each unit's plan as it is reached, and the exact distribution over (points left, units regrouped)."""
    states: dict[tuple[int, int], Fraction] = {(available, 0): Fraction(1)}
    plans = []
    for (number, honor, bonus, p), attempts_by_points in zip(units, table, strict=True):
        after: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
        reached: dict[int, Fraction] = defaultdict(Fraction)
        p_unit = Fraction(0)
        for (left, units_regrouped), chance in states.items():
            reached[left] += chance
            for outcome_chance, spent, won in _attempt_outcomes(p, attempts_by_points[left], cost):
                if outcome_chance:
                    after[left - spent, units_regrouped + won] += chance * outcome_chance
                    p_unit += chance * outcome_chance * won
        states = after
        attempts = tuple((left, attempts_by_points[left]) for left in sorted(reached, reverse=True))
        plans.append(UnitPlan(number, honor, bonus, p, attempts, p_unit))
    return plans, states


def plan_steps(inputs: Any, budget: int, reserved: int, available: int, plans: list[UnitPlan]) -> list[Step]:
    """The points, those kept back, those left for regrouping, and each unit's planned attempts."""
    steps = [Step("kensei.commandment-points", "points", N_("Commandment points"), budget)]
    if reserved:
        rule = "kensei.strategic-orders" if inputs.strategic_orders else "kensei.taisho-abilities"
        label = N_("Kept for abilities and strategic orders")
        steps.append(Step(rule, "reserved", label, -reserved, "modifier"))
    steps.append(Step("kensei.regroup", "available", N_("Points for regrouping"), available))
    for unit_plan in plans:
        attempts = ", ".join(f"{left} → {attempts}" for left, attempts in unit_plan.attempts_by_points)
        label = N_("Unit no. {unit}, attempts planned by points left")
        numbers = (("unit", unit_plan.unit),)
        steps.append(Step("kensei.regroup", f"unit_{unit_plan.unit}", label, attempts, "text", label_numbers=numbers))
    label = N_("A unit not attempted")
    steps.append(Step("kensei.regroup", "not_attempted", label, N_("makes its run away roll at once"), "text"))
    return steps


def compute(inputs: Any) -> PlannerResult:
    """The regroup plan with the most units expected to regroup, and its exact distribution.

    Args:
        inputs: a :data:`PlannerInputs`.
    """
    rules = inputs.rules
    cost = rules.value("kensei.regroup", "cost_per_attempt")
    units = fleeing_units(inputs)
    budget, reserved = _budget(inputs), _reserved(inputs)
    available = budget - reserved
    table = plan([unit[3] for unit in units], available, rules)
    plans, states = follow_plan(units, table, available, cost)
    counts = [Fraction(0)] * (len(units) + 1)
    expected_cp = Fraction(0)
    for (left, units_regrouped), chance in states.items():
        counts[units_regrouped] += chance
        expected_cp += chance * (available - left)
    steps = plan_steps(inputs, budget, reserved, available, plans)
    regrouped = Distribution.from_fractions(counts)
    return PlannerResult(budget, reserved, available, tuple(plans), regrouped, expected_cp, steps=tuple(steps))


CALCULATOR = Calculator(
    N_("Regroup planner"),
    "kensei.regroup",
    "kensei",
    PlannerInputs,
    PlannerResult,
    compute,
    question=N_("Which fleeing units to try to regroup with the commandment points you have."),
)
run = CALCULATOR.run

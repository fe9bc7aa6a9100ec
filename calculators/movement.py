"""How far a Kensei unit moves in one Movement (kensei.movement and the rules that change it).

Harassers have no Movement in the texts: harassers on foot take infantry's and mounted harassers
cavalry's, a reading whose note (``kensei.movement#harasser-movement``) their first step cites.

Reading: the base Movement is doubled when running, then halved in difficult terrain and on or
near a bridge; centimetres spent (a penalty, facings, pivots, obstacles) come off afterwards,
so that a -2 cm penalty is taken from the 20 cm of a running infantry unit (20 - 2 = 18).

>>> run({"unit_type": "infantry", "running": True, "penalty_cm": 2})["distance_cm"]
18
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any

from .errors import CalculatorInputError
from .inputs import make_inputs
from .params import N_, Param, choice, count, flag
from .registry import Calculator
from .results import Result, Step, figure, to_number

UNIT_TYPES = ("infantry", "cavalry", "large", "harasser", "mounted_harasser", "lone_model")
_BASE_KEYS = {
    "infantry": "infantry",
    "harasser": "infantry",
    "lone_model": "infantry",
    "cavalry": "cavalry",
    "mounted_harasser": "cavalry",
    "large": "large",
}
_MOUNTED = ("cavalry", "mounted_harasser")
_HARASSERS = ("harasser", "mounted_harasser")
HARASSER_MOVEMENT_NOTE = "kensei.movement#harasser-movement"
"""The texts give harassers no Movement: those on foot take infantry's and mounted ones cavalry's, a reading
that this note on the rule states (saved links and the orders advisor rely on these figures)."""

"""'Half speed' near a bridge is a word of the rule text (kensei.bridge states no number for it)."""

MAX_COUNT = 10
"""Most facings, pivots or obstacles of one kind in a Movement."""


def _count(name: str, label: str, help: str, rule_id: str) -> Param:
    """An input that counts how often something costs centimetres (facings, pivots, obstacles)."""
    return count(name, label, help, rule_id, MAX_COUNT)


PARAMS = (
    choice(
        "unit_type",
        N_("Unit type"),
        N_(
            "Harassers have no Movement in the texts: those on foot move as infantry, mounted ones as cavalry "
            "(a reading: see the note on the Movement rule)."
        ),
        "kensei.movement",
        UNIT_TYPES,
        default="infantry",
    ),
    flag("running", N_("Running"), N_("Running doubles the Movement."), "kensei.running"),
    count(
        "penalty_cm",
        N_("Penalty (cm)"),
        N_("Centimetres taken off, after running doubles the Movement."),
        "kensei.running",
        50,
    ),
    _count("facings", N_("Facings"), N_("Changes of facing."), "kensei.facing"),
    _count("pivots", N_("Pivots"), N_("About-faces."), "kensei.pivoting"),
    _count("obstacles", N_("Obstacles"), N_("Normal or high obstacles crossed."), "kensei.obstacles"),
    _count("very_high_obstacles", N_("Very high obstacles"), N_("Cavalry can never cross them."), "kensei.obstacles"),
    flag(
        "difficult_terrain",
        N_("Difficult terrain"),
        N_("Halves the Movement, except for harassers."),
        "kensei.difficult-terrain",
    ),
    flag("bridge", N_("On or near a bridge"), N_("Units on or near a bridge move at half speed."), "kensei.bridge"),
)


def _check(inputs: Any) -> None:
    if inputs.unit_type in _MOUNTED and inputs.very_high_obstacles:
        raise CalculatorInputError(
            "very_high_obstacles",
            N_("must be 0 for cavalry, which can never cross one (see {0})"),
            ("unit_type",),
        )


MovementInputs = make_inputs("MovementInputs", PARAMS, _check, "Inputs of a Movement.", __name__)


@dataclass(frozen=True)
class MovementResult(Result):
    NAME = "movement"
    distance_cm: Annotated[Fraction, figure(N_("Distance (cm)"), "cm", json=to_number)]


def compute(inputs: Any) -> MovementResult:
    """The distance in centimetres.

    Args:
        inputs: a :data:`MovementInputs`.
    """
    rules = inputs.rules
    base = rules.value("kensei.movement", _BASE_KEYS[inputs.unit_type])
    distance = Fraction(base)
    source = HARASSER_MOVEMENT_NOTE if inputs.unit_type in _HARASSERS else "kensei.movement"
    steps = [Step(source, "movement", N_("Movement (cm)"), base, "cm")]
    if inputs.running:
        distance *= rules.value("kensei.running", "multiplier")
        steps.append(Step("kensei.running", "running", N_("Running (cm)"), distance, "cm"))
    if inputs.difficult_terrain and inputs.unit_type not in _HARASSERS:
        distance /= rules.value("kensei.difficult-terrain", "movement_divisor")
        steps.append(
            Step("kensei.difficult-terrain", "difficult_terrain", N_("Difficult terrain (cm)"), distance, "cm")
        )
    if inputs.bridge:
        distance /= rules.value("kensei.bridge", "movement_divisor")
        steps.append(Step("kensei.bridge", "bridge", N_("On or near a bridge (cm)"), distance, "cm"))
    obstacle_key = "cavalry_cm" if inputs.unit_type in _MOUNTED else "normal_cm"
    costs = [
        ("kensei.running", "penalty_cm", N_("Penalty (cm)"), inputs.penalty_cm),
        (
            "kensei.facing",
            "facings",
            N_("Facings (cm)"),
            inputs.facings * rules.value("kensei.facing", "cost_cm"),
        ),
        (
            "kensei.pivoting",
            "pivots",
            N_("Pivots (cm)"),
            inputs.pivots * rules.value("kensei.pivoting", "cost_cm"),
        ),
        (
            "kensei.obstacles",
            "obstacles",
            N_("Obstacles (cm)"),
            inputs.obstacles * rules.value("kensei.obstacles", obstacle_key),
        ),
        (
            "kensei.obstacles",
            "very_high_obstacles",
            N_("Very high obstacles (cm)"),
            inputs.very_high_obstacles * rules.value("kensei.obstacles", "very_high_cm"),
        ),
    ]
    for rule, key, label, cost in costs:
        if cost:
            distance -= cost
            steps.append(Step(rule, key, label, -cost, "modifier"))
    distance = max(Fraction(0), distance)
    return MovementResult.reported("kensei.movement", *steps, distance_cm=distance)


CALCULATOR = Calculator(
    N_("Movement"),
    "kensei.movement",
    "kensei",
    MovementInputs,
    MovementResult,
    compute,
    question=N_("How far a unit moves with one order, after facings, pivots, obstacles and terrain."),
)
run = CALCULATOR.run

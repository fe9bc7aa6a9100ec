"""The odds tables of the printable digest, each cell computed by a calculator at build time.

A table is a grid of one calculator's results: the rows vary one input, the columns another (or
show other figures of the same results), and every other input is the calculator page's default
scenario. Axes are read from the calculators (the d10's faces, a parameter's allowed values), so
no number the rules state is typed here. Cells stay exact (:class:`fractions.Fraction`) until the
page formats them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, partial
from typing import Any

from calculators import CALCULATORS
from calculators.results import Result
from calculators.rulebook import LOWEST_FACE, RuleValues, d10_faces
from kensei_ref.languages import N_
from kensei_ref.site.calculator_pages import DEFAULT_SCENARIOS

Cell = Callable[[Any, Any], Fraction]
"""A cell from its row and column values."""


@dataclass(frozen=True)
class Column:
    """One column: its heading (an interface string, or a value shown as it is) and how to fill it."""

    heading: str
    cell: Callable[[Any], Fraction]
    kind: str = "probability"  # or "decimal"
    value: Any = None  # the column's input value when the columns vary an input


@dataclass(frozen=True)
class OddsTable:
    """One odds table and the calculator scenario it links to.

    Args:
        key: the table's anchor (``odds-hit``).
        caption: its caption (``N_``).
        note: what it assumes (``N_``, with ``%(name)s`` placeholders filled from ``note_values``).
        calculator: the calculator that computes every cell.
        row_heading: the heading of the row values (``N_``).
        rows: the row values (each a valid input of the calculator).
        columns: the columns.
        column_group: a heading over the columns when they vary an input (``N_``), else "".
        link_inputs: the scenario the table links to (the calculator page reads it from the URL).
        key_cell: (row value, column index) of the cell that scenario shows.
        figure: the key of the step or figure, on the calculator page, that shows the key cell.
    """

    key: str
    caption: str
    note: str
    note_values: dict[str, Any]
    calculator: str
    row_heading: str
    rows: tuple[Any, ...]
    columns: tuple[Column, ...]
    column_group: str
    link_inputs: dict[str, Any]
    key_cell: tuple[Any, int]
    figure: str


@cache
def _evaluate(name: str, frozen_inputs: tuple[tuple[str, Any], ...]) -> Result:
    """A calculator's result, cached: the tables ask for the same scenarios in every language."""
    return CALCULATORS[name].evaluate(dict(frozen_inputs))


def figure(name: str, inputs: dict[str, Any], key: str) -> Fraction:
    """The exact value of step or figure ``key`` in calculator ``name``'s result for ``inputs``.

    Raises:
        KeyError: when the result has no such step or figure.
    """
    result = _evaluate(name, tuple(sorted(inputs.items())))
    values = {step.key: step.value for step in result.steps} | {f.key: f.value for f in result.figures()}
    return Fraction(values[key])


def _param(name: str, param: str) -> dict[str, Any]:
    return next(p for p in CALCULATORS[name].describe()["params"] if p["name"] == param)


def _faces() -> int:
    return d10_faces(RuleValues.bundled())


def one_die() -> dict[str, Any]:
    """One die of the shooting page's default scenario: its Attack, Defense and Armor."""
    scenario = DEFAULT_SCENARIOS["shooting"]
    return {"dice": 1, **{key: scenario[key] for key in ("attack", "defense", "armor")}}


def _shot(key: str, **changes: Any) -> Fraction:
    return figure("shooting", one_die() | changes, key)


def _die_wounds(attack: int, *, defense: int) -> Fraction:
    return _shot("p_die_wounds", attack=attack, defense=defense)


def _regroup(honor: int, *, attempts: int) -> Fraction:
    return figure("regroup", {"honor": honor, "attempts": attempts}, "p_regroup")


def _charge(distance: int, *, dice: str) -> Fraction:
    return figure("charge", {"dice": dice, "distance": distance}, "p_success")


def wounds_per_hit_through(armor: int) -> Fraction:
    """Expected Wounds of a hit that got through Defense: the Damage roll is independent of the
    two rolls before it, so it is the die's expected Wounds over the chance of getting that far."""
    reached = _shot("p_hit", armor=armor) * _shot("p_through", armor=armor)
    return _shot("die_mean", armor=armor) / reached


def shooting_tables() -> list[OddsTable]:
    """Per die of a ranged attack: to hit, through Defense, Damage by Armor, and all three at once."""
    faces, base = _faces(), one_die()
    attacks = tuple(range(0, faces + 1))  # from every face hitting to none
    defenses = tuple(range(LOWEST_FACE, faces + 1))
    armors = tuple(range(0, faces + 1))
    return [*_hit_tables(base, attacks, defenses), *_damage_tables(base, attacks, defenses, armors)]


def _hit_tables(base: dict, attacks: tuple[int, ...], defenses: tuple[int, ...]) -> list[OddsTable]:
    """To hit, by Attack; through Defense, by Defense."""
    return [
        OddsTable(
            "odds-hit",
            N_("Chance to hit, by effective Attack"),
            N_("One die; the effective Attack includes every modifier (see the quick reference)."),
            {},
            "shooting",
            N_("Effective Attack"),
            attacks,
            (Column(N_("Chance that a die hits"), lambda a: _shot("p_hit", attack=a)),),
            "",
            base,
            (base["attack"], 0),
            "p_hit",
        ),
        OddsTable(
            "odds-defense",
            N_("Chance that a hit gets through Defense, by effective Defense"),
            N_(
                "Hits from an effective Attack of %(attack)s: a hit rolled on a ten lowers the Defense against "
                "it, and how many hits are tens depends on the Attack."
            ),
            {"attack": base["attack"]},
            "shooting",
            N_("Effective Defense"),
            defenses,
            (Column(N_("Chance that a hit gets through Defense"), lambda d: _shot("p_through", defense=d)),),
            "",
            base,
            (base["defense"], 0),
            "p_through",
        ),
    ]


def _damage_tables(
    base: dict, attacks: tuple[int, ...], defenses: tuple[int, ...], armors: tuple[int, ...]
) -> list[OddsTable]:
    """The Damage roll, by Armor; one die's Wounds, by Attack and Defense."""
    return [
        OddsTable(
            "odds-damage",
            N_("Damage roll, by Armor"),
            N_("The threshold reading of the Damage roll, for a hit that got through Defense."),
            {},
            "shooting",
            N_("Armor"),
            armors,
            (
                Column(N_("Chance that a Damage roll deals Wounds"), lambda r: _shot("p_damage", armor=r)),
                Column(N_("Expected Wounds per hit that gets through"), wounds_per_hit_through, "decimal"),
            ),
            "",
            base,
            (base["armor"], 0),
            "p_damage",
        ),
        OddsTable(
            "odds-die",
            N_("Chance that one die deals Wounds, by Attack and Defense"),
            N_("One die against Armor %(armor)s, threshold reading of the Damage roll."),
            {"armor": base["armor"]},
            "shooting",
            N_("Effective Attack"),
            attacks[:-1],
            tuple(Column(str(d), partial(_die_wounds, defense=d), value=d) for d in defenses),
            N_("Effective Defense"),
            base,
            (base["attack"], defenses.index(base["defense"])),
            "p_die_wounds",
        ),
    ]


def regroup_table() -> OddsTable:
    """The chance to regroup by Honor, for each number of attempts the rules allow."""
    scenario = DEFAULT_SCENARIOS["regroup"]
    attempts = _param("regroup", "attempts")
    counts = tuple(range(attempts["minimum"], attempts["maximum"] + 1))
    honors = tuple(range(LOWEST_FACE, _faces() + 1))
    return OddsTable(
        "odds-regroup",
        N_("Chance to regroup, by Honor"),
        N_("No modifier and no Mystical Terrain nearby; a second attempt is made only after a failed first."),
        {},
        "regroup",
        N_("Honor"),
        honors,
        tuple(Column(str(n), partial(_regroup, attempts=n), value=n) for n in counts),
        N_("Attempts"),
        dict(scenario),
        (scenario["honor"], counts.index(scenario.get("attempts", attempts["default"]))),
        "p_regroup",
    )


def charge_table() -> OddsTable:
    """The chance that a direct charge covers each distance, with each number of charge dice."""
    scenario = DEFAULT_SCENARIOS["charge"]
    dice: Sequence[str] = _param("charge", "dice")["choices"]
    largest = _evaluate("charge", (("dice", dice[-1]), ("distance", 0)))
    longest = len(largest.roll.pmf) - 1  # type: ignore[attr-defined]  # the highest total the most dice can roll
    distances = tuple(range(LOWEST_FACE + 1, longest + 1))  # a distance of one face or less is always reached
    return OddsTable(
        "odds-charge",
        N_("Chance that a charge reaches its target, by distance"),
        N_("A direct charge: the charge dice must total at least the distance in centimetres."),
        {},
        "charge",
        N_("Distance (cm)"),
        distances,
        tuple(Column(d, partial(_charge, dice=d), value=d) for d in dice),
        N_("Charge dice"),
        dict(scenario),
        (scenario["distance"], list(dice).index(scenario["dice"])),
        "p_success",
    )


def odds_tables() -> list[OddsTable]:
    """Every odds table of the digest, in the order the page shows them."""
    return [*shooting_tables(), regroup_table(), charge_table()]

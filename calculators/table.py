"""The table's state this turn (Kensei): which of the units file's profiles are on the table, in what state,
and how far each of yours stands from each enemy. It is what the Command phase plan reads.

The table file is JSON (its format is documented on the site's data-format page)::

    {"format": "kensei-ref/table", "version": 1, "game": "kensei", "general": "taisho", "dominance": false,
     "mine": [{"unit": "Ashigaru archers", "state": "ready"}, {"unit": "Spearmen", "state": "fleeing"}],
     "enemy": [{"unit": "Samurai"}],
     "distances": [{"mine": "Ashigaru archers", "enemy": "Samurai", "cm": 20, "in_sight": true}]}

A unit names a profile of the units file; the file adds only what changes during a game (Wounds left,
reactions paid, a weapon loaded or not, cover). A pair of units the distances do not list is out of
reach. Every field is declared as a :class:`~calculators.params.Param`, as a profile's are, so that
the bounds and the refusals are the same in the terminal, in Python and on the site.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from . import melee
from .choices import COVER
from .errors import CalculatorInputError
from .orders import too_close
from .params import N_, Nn_, Param, characteristic, choice, count, flag, whole_number
from .planner import GENERALS, MAX_UNITS
from .profiles import Profile, as_it_stands, check_header, file_document, find, wounds_left_param
from .rulebook import RuleValues

FORMAT = "kensei-ref/table"
"""The ``format`` key of a table file: a file without it is not one."""

VERSION = 1
"""The version of the table file this code writes; it reads this one and every older one."""

STATES = ("ready", "fleeing", "out", "engaged")
"""A unit's state as the Command phase begins: it takes orders; it began running away this turn (it may
be regrouped); it is out of the game; it is engaged in combat (kensei.out-of-the-game)."""

MAX_SIDE = 20
"""Most units on each side of the table: more than any warband fields, and a bound on the plan's work."""

MAX_FLEEING = MAX_UNITS
"""Most fleeing units on your side: the regroup planner's most units (the plan hands them to it)."""

TOO_MANY_FLEEING = Nn_(
    "must hold at most {most} fleeing unit, got {count}", "must hold at most {most} fleeing units, got {count}", "most"
)

MAX_DISTANCE = 200
"""The farthest distance (cm) a pair may give, as the orders advisor takes."""

_WOUNDS = wounds_left_param(
    "wounds", N_("Wounds left"), N_("Each model's Wounds left, e.g. 2,2,1; unless given, the profile's.")
)
_LOADED = Param(
    "loaded",
    "bool",
    N_("Weapon loaded"),
    N_("Unless given, as the profile says."),
    "kensei.loading",
    default=None,
)

TOP_PARAMS = (
    choice("game", N_("Game"), N_("The plan is for Kensei."), "", ("kensei",)),
    choice(
        "general", N_("General"), N_("The general's rank sets the commandment points."), "", GENERALS, default="taisho"
    ),
    flag("dominance", N_("Position of dominance"), N_("The general holds the hill."), "kensei.position-of-dominance"),
    characteristic(
        "ki", N_("General's Ki"), N_("For the Ki roll of a strategic order."), "kensei.strategic-orders", default=None
    ),
    flag(
        "taisho_ability",
        N_("Keep points for a Taisho ability"),
        N_("Reserve the cost of one ability."),
        "kensei.taisho-abilities",
    ),
)
"""The fields at the top of the file, besides ``format``, ``version`` and the three lists."""

MINE_PARAMS = (
    choice("state", N_("State"), N_("As the Command phase begins."), "kensei.out-of-the-game", STATES),
    _WOUNDS,
    count("reactions", N_("Reactions"), N_("Paid out of this phase."), "kensei.reaction-cost", 3),
    _LOADED,
    flag("failed_charge", N_("Failed a charge last turn"), N_("No running this turn."), "kensei.failed-charge"),
    flag("bushi_hero", N_("Bushi hero in the unit"), N_("It may take a strategic order."), "kensei.strategic-orders"),
    whole_number(
        "regroup_bonus",
        N_("Regroup bonus"),
        N_("A Bushi hero's or a Commandment character's modifier."),
        "kensei.regroup",
        -10,
        10,
        default=0,
    ),
    characteristic("honor", N_("Honor"), N_("Unless given, the profile's."), "kensei.regroup", default=None),
    choice("cover", N_("Cover"), N_("Where the unit stands."), "kensei.cover", COVER),
)
"""The fields of one of your units, besides ``unit`` (a profile's name)."""

ENEMY_PARAMS = (
    choice("state", N_("State"), N_("As the Command phase begins."), "kensei.out-of-the-game", STATES),
    _WOUNDS,
    _LOADED,
    choice("cover", N_("Cover"), N_("Where the unit stands."), "kensei.cover", COVER),
    flag("in_water", N_("In water"), N_("A stream, brook, bog or ford."), "kensei.shallow-water"),
    count(
        "defensive",
        N_("Defensive Position"),
        N_("Defense it buys with combat dice when charged."),
        "kensei.defensive-position",
        melee.MAX_DEFENSIVE,
    ),
    flag("charged", N_("Charged this turn"), N_("It may then only withstand and fight."), "kensei.reactions"),
)
"""The fields of an enemy unit, besides ``unit``."""

DISTANCE_PARAMS = (
    whole_number("cm", N_("Distance (cm)"), N_("Between the two units."), "kensei.charge-orders", 0, MAX_DISTANCE),
    Param("in_sight", "bool", N_("In sight"), N_("Your unit sees the enemy."), "kensei.strategic-orders", default=True),
    flag(
        "terrain_between",
        N_("Terrain between the units"),
        N_("It lets them stand closer than the rule keeps them."),
        "kensei.five-cm-rule",
    ),
)
"""The fields of one pair of units, besides ``mine`` and ``enemy`` (names)."""


@dataclass(frozen=True)
class UnitState:
    """A unit on the table: its profile (with the Wounds it has left) and this turn's fields by name."""

    profile: Profile
    values: Mapping[str, Any]

    @property
    def name(self) -> str:
        return self.profile.name

    @property
    def state(self) -> str:
        return str(self.values["state"])

    def __getattr__(self, field: str) -> Any:
        try:
            return self.__dict__["values"][field]
        except KeyError:
            raise AttributeError(field) from None


@dataclass(frozen=True)
class Reach:
    """How far one of your units stands from an enemy, and whether it sees it."""

    cm: int
    in_sight: bool = True
    terrain_between: bool = False
    index: int = 0
    """Its place in the file's ``distances``, which a refusal of the pair names."""


@dataclass(frozen=True)
class TableState:
    """The table as the Command phase begins (see the module's docstring)."""

    values: Mapping[str, Any]
    mine: tuple[UnitState, ...]
    enemy: tuple[UnitState, ...]
    reaches: Mapping[tuple[int, int], Reach]
    """``(i, j)``: your ``mine[i]`` and the enemy's ``enemy[j]``; a pair not here is out of reach."""

    def __getattr__(self, field: str) -> Any:
        try:
            return self.__dict__["values"][field]
        except KeyError:
            raise AttributeError(field) from None

    def commandment_points(self, rules: RuleValues) -> int:
        """The general's commandment points, with the position of dominance's (kensei.commandment-points)."""
        points: int = rules.value("kensei.commandment-points", self.values["general"])
        if self.values["dominance"]:
            points += rules.value("kensei.position-of-dominance", "commandment_points")
        return points


def read_table(document: Any, profiles: tuple[Profile, ...], rules: RuleValues | None = None) -> TableState:
    """The table's state from a table file read from JSON, its units found among ``profiles``.

    Raises:
        CalculatorInputError: naming the field where it is (``mine[1].unit``, ``distances[0].cm``) and
            what it allows: a file that is not a table file or is of a newer version, an unknown unit,
            a unit on both sides or twice on one, a fleeing unit without Honor, a pair given twice.
    """
    rules = RuleValues.bundled() if rules is None else rules
    check_header(document, FORMAT, VERSION, N_("must be {format}: this is not a table file"))
    values = _fields(document, TOP_PARAMS, "", rules, allowed=("format", "version", "mine", "enemy", "distances"))
    mine = _side(document.get("mine"), "mine", MINE_PARAMS, profiles, rules)
    enemy = _side(document.get("enemy"), "enemy", ENEMY_PARAMS, profiles, rules)
    _check_sides(mine, enemy)
    _check_fleeing(mine)
    reaches = _reaches(document.get("distances", []), mine, enemy, rules)
    return TableState(values, mine, enemy, reaches)


def parse_table(text: str, profiles: tuple[Profile, ...], rules: RuleValues | None = None) -> TableState:
    """The table's state from the text of a table file (see :func:`read_table`).

    Raises:
        CalculatorInputError: when the text is too long, nested too deep (see
            :mod:`calculators.json_nesting`), not JSON, or not a valid table file.
    """
    return read_table(file_document(text, "table"), profiles, rules)


def _fields(
    mapping: Mapping[str, Any], params: tuple[Param, ...], at: str, rules: RuleValues, allowed: tuple[str, ...] = ()
) -> dict[str, Any]:
    """The fields of ``params`` in ``mapping``, each validated by its declaration; any other key refused."""
    names = (*allowed, *(param.name for param in params))
    for key in mapping:
        if key not in names:
            raise CalculatorInputError(
                f"{at}{key}", N_("unknown field; allowed: {fields}"), values={"fields": ", ".join(names)}
            )
    values = {}
    for param in params:
        if param.required and param.name not in mapping:
            raise param.refusal(rules, at=at)
        try:
            values[param.name] = param.validate(mapping.get(param.name, param.default), rules)
        except CalculatorInputError as error:
            raise CalculatorInputError(f"{at}{param.name}", error.message, error.related, error.values) from None
    return values


LIST_REQUIRED = Nn_("is required: a list of at most {most} item", "is required: a list of at most {most} items", "most")
"""A side's units left out of a table file (or ``null``)."""

LIST_REFUSED = Nn_(
    "must be a list of at most {most} item, got {value}", "must be a list of at most {most} items, got {value}", "most"
)
"""A list too long (``value``: how many items it holds) or no list (``value``: the JSON given, shortened)."""


def _list(value: Any, field: str, most: int) -> list[Any]:
    if value is None:
        raise CalculatorInputError(field, LIST_REQUIRED, values={"most": most})
    if not isinstance(value, list) or len(value) > most:
        given = len(value) if isinstance(value, list) else _written(value)
        raise CalculatorInputError(field, LIST_REFUSED, values={"most": most, "value": given})
    return value


def _written(value: Any) -> str:
    """A value as the file writes it (JSON), shortened to a glance: a whole object would fill the line."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"


def _side(
    entries: Any, side: str, params: tuple[Param, ...], profiles: tuple[Profile, ...], rules: RuleValues
) -> tuple[UnitState, ...]:
    """The units of one side, each a profile of the units file with this turn's fields."""
    units = []
    for index, entry in enumerate(_list(entries, side, MAX_SIDE)):
        at = f"{side}[{index}]."
        if not isinstance(entry, Mapping):
            raise CalculatorInputError(
                at.rstrip("."), N_("must be an object of fields, got {value}"), values={"value": repr(entry)}
            )
        name = entry.get("unit")
        if not isinstance(name, str):
            raise CalculatorInputError(f"{at}unit", N_("must name a unit of the units file, got {value}"),
                                       values={"value": repr(name)})  # fmt: skip
        profile = find(profiles, name, f"{at}unit")
        if profile.game != "kensei":
            raise CalculatorInputError(f"{at}unit", N_("must be a Kensei unit; the plan is for Kensei"))
        values = _fields(entry, params, at, rules, allowed=("unit",))
        units.append(UnitState(_with_state(profile, values, at), values))
    return tuple(units)


def _with_state(profile: Profile, values: dict[str, Any], at: str) -> Profile:
    """``profile`` as it stands this turn: its Wounds left and its weapon, as given; a fleeing unit
    needs an Honor to regroup with, from here or from its profile."""
    profile = as_it_stands(profile, values["wounds"], values["loaded"], (f"{at}wounds", f"{at}loaded"))
    if values.get("honor") is not None:
        profile = replace(profile, values={**profile.values, "honor": values["honor"]})
    if values["state"] == "fleeing" and profile.values.get("honor") is None:
        raise CalculatorInputError(f"{at}honor", N_("is needed for a fleeing unit: its profile gives no Honor"))
    return profile


def _check_sides(mine: tuple[UnitState, ...], enemy: tuple[UnitState, ...]) -> None:
    """Each unit on one side only, and once."""
    for side, units in (("mine", mine), ("enemy", enemy)):
        seen: dict[str, int] = {}
        for index, unit in enumerate(units):
            key = unit.name.casefold()
            if key in seen:
                raise CalculatorInputError(
                    f"{side}[{index}].unit", N_("names the same unit as {0}"), (f"{side}[{seen[key]}].unit",)
                )
            seen[key] = index
    yours = {unit.name.casefold(): index for index, unit in enumerate(mine)}
    for index, unit in enumerate(enemy):
        if unit.name.casefold() in yours:
            raise CalculatorInputError(
                f"enemy[{index}].unit", N_("is one of yours too ({0}): a unit is on one side"),
                (f"mine[{yours[unit.name.casefold()]}].unit",),
            )  # fmt: skip


def _check_fleeing(mine: tuple[UnitState, ...]) -> None:
    """No more fleeing units than the regroup planner, which the plan hands them to, takes."""
    fleeing = sum(unit.state == "fleeing" for unit in mine)
    if fleeing > MAX_FLEEING:
        raise CalculatorInputError("mine", TOO_MANY_FLEEING, values={"most": MAX_FLEEING, "count": fleeing})


def _reaches(
    entries: Any, mine: tuple[UnitState, ...], enemy: tuple[UnitState, ...], rules: RuleValues
) -> dict[tuple[int, int], Reach]:
    """The pairs the file lists, by their places in ``mine`` and ``enemy``."""
    reaches: dict[tuple[int, int], Reach] = {}
    for index, entry in enumerate(_list(entries, "distances", MAX_SIDE * MAX_SIDE)):
        at = f"distances[{index}]."
        if not isinstance(entry, Mapping):
            raise CalculatorInputError(
                at.rstrip("."), N_("must be an object of fields, got {value}"), values={"value": repr(entry)}
            )
        pair = (_place(entry.get("mine"), mine, f"{at}mine"), _place(entry.get("enemy"), enemy, f"{at}enemy"))
        values = _fields(entry, DISTANCE_PARAMS, at, rules, allowed=("mine", "enemy"))
        if pair in reaches:
            raise CalculatorInputError(f"{at}enemy", N_("gives this pair of units a second time"))
        _check_distance(values, mine[pair[0]], f"mine[{pair[0]}].", at, rules)
        reaches[pair] = Reach(values["cm"], values["in_sight"], values["terrain_between"], index)
    return reaches


def _check_distance(values: Mapping[str, Any], unit: UnitState, unit_at: str, at: str, rules: RuleValues) -> None:
    """A distance the table can hold: 0 cm is contact, which engages the units in combat; closer than
    kensei.five-cm-rule keeps them only after a failed charge or with terrain between them."""
    cm, keep = values["cm"], rules.value("kensei.five-cm-rule", "distance_cm")
    if cm == 0 and unit.state != "engaged":
        raise CalculatorInputError(
            f"{at}cm", N_("0 cm is contact between the units, which is engaged in combat ({0})"), (f"{unit_at}state",)
        )
    if 0 < cm < keep and not (unit.failed_charge or values["terrain_between"]):
        raise too_close(f"{at}cm", keep, (f"{unit_at}failed_charge", f"{at}terrain_between"))


def _place(name: Any, units: tuple[UnitState, ...], field: str) -> int:
    """Where the unit called ``name`` is in ``units`` (the side the field names)."""
    if isinstance(name, str):
        for index, unit in enumerate(units):
            if unit.name.casefold() == name.strip().casefold():
                return index
    names = ", ".join(repr(unit.name) for unit in units) or "–"
    raise CalculatorInputError(
        field, N_("must name a unit of this side of the table ({names}), got {value}"),
        values={"names": names, "value": repr(name)},
    )  # fmt: skip

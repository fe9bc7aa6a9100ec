"""The inputs a calculator takes from "your unit" and "the enemy unit": one mapping per calculator.

Each calculator names unit types by the categories of its own rule (the charge dice table has
"harassers on foot", the action points table "harassers"); the tables here translate a profile's
type into each of them. A type a rule does not list maps to nothing, and the calculator's own field
stays as it was. The inputs filled here stay editable: they are a starting point, not a lock.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .profiles import Profile
from .shooting import SHOOTERS

ACTION_POINTS_TYPES = {
    "infantry": "infantry",
    "cavalry": "cavalry",
    "harasser_on_foot": "harasser",
    "mounted_harasser": "harasser",
    "character": "character",
    "creature": "creature",
    "large_creature": "large_creature",
    "lone_model": "lone_model",
}
"""kensei.action-points by a profile's unit type."""

CHARGE_DICE_TYPES = {
    "infantry": "infantry",
    "cavalry": "cavalry",
    "harasser_on_foot": "harasser_on_foot",
    "mounted_harasser": "mounted_harasser",
    "creature": "creature",
    "large_creature": "large_creature",
}
"""kensei.charge-dice by unit type; the table lists no charge dice for characters and lone models."""

CHARGE_BONUS_TYPES = {
    "infantry": "infantry",
    "harasser_on_foot": "infantry",
    "creature": "infantry",
    "cavalry": "cavalry",
    "mounted_harasser": "cavalry",
    "large_creature": "large",
}
"""Which charge bonuses of kensei.charge-bonuses a charging unit gets (the melee calculator's ``charge``)."""

MOVEMENT_TYPES = {
    "infantry": "infantry",
    "cavalry": "cavalry",
    "harasser_on_foot": "harasser",
    "mounted_harasser": "mounted_harasser",
    "character": "lone_model",
    "lone_model": "lone_model",
    "large_creature": "large",
}
"""kensei.movement by unit type: a character is read as a model on its own; the table gives no
Movement for creatures that are not large (their profile gives their own)."""

Filler = Callable[[Profile | None, Profile | None], dict[str, Any]]


def _kensei(profile: Profile | None) -> Profile | None:
    return profile if profile is not None and profile.game == "kensei" else None


def _ronin(profile: Profile | None) -> Profile | None:
    return profile if profile is not None and profile.game == "ronin" else None


def _shooting(mine: Profile | None, enemy: Profile | None) -> dict[str, Any]:
    inputs: dict[str, Any] = {}
    if (shooters := _kensei(mine)) is not None:
        # the Wounds of each model replace the other ways of giving the shooters
        inputs |= {"dice": None, "models": None, "wounds_each": None, "wounds": list(shooters.wounds)}
        inputs["attack"] = shooters.attack
    if (target := _kensei(enemy)) is not None:
        inputs |= {"defense": target.defense, "armor": target.armor}
    return inputs


def _melee_side(side: str, profile: Profile | None) -> dict[str, Any]:
    if (unit := _kensei(profile)) is None:
        return {}
    fields = {
        "models": unit.models,
        "wounds": sum(unit.wounds),
        "attack": unit.attack,
        "defense": unit.defense,
        "armor": unit.armor,
        "initiative": unit.initiative,
    }
    return {f"{side}_{key}": value for key, value in fields.items()}


def _melee(mine: Profile | None, enemy: Profile | None) -> dict[str, Any]:
    return _melee_side("a", mine) | _melee_side("b", enemy)


def _typed(table: dict[str, str]) -> Filler:
    """A filler that sets ``unit_type`` from your unit's type, when the rule's table lists it."""

    def fill(mine: Profile | None, _: Profile | None) -> dict[str, Any]:
        unit = _kensei(mine)
        kind = table.get(unit.unit_type) if unit is not None else None
        return {"unit_type": kind} if kind is not None else {}

    return fill


def _charge(mine: Profile | None, enemy: Profile | None) -> dict[str, Any]:
    typed = _typed(CHARGE_DICE_TYPES)(mine, enemy)
    return {"dice": None, **typed} if typed else {}


def _characteristic(name: str, ronin: bool = False) -> Filler:
    """A filler that copies one characteristic of your unit, when the profile gives it."""

    def fill(mine: Profile | None, _: Profile | None) -> dict[str, Any]:
        unit = _ronin(mine) if ronin else _kensei(mine)
        value = unit.values.get(name) if unit is not None else None
        return {name: value} if value is not None else {}

    return fill


def _morale(mine: Profile | None, _: Profile | None) -> dict[str, Any]:
    if (band := _ronin(mine)) is None:
        return {}
    return {"morale": band.morale, "commander": band.commander, "banner": band.banner}


def _spells(mine: Profile | None, _: Profile | None) -> dict[str, Any]:
    unit = _kensei(mine)
    return {"caster_ki": unit.ki} if unit is not None and unit.ki is not None else {}


FILLERS: dict[str, Filler] = {
    "shooting": _shooting,
    "melee": _melee,
    "charge": _charge,
    "movement": _typed(MOVEMENT_TYPES),
    "action-points": _typed(ACTION_POINTS_TYPES),
    "regroup": _characteristic("honor"),
    "spells": _spells,
    "morale": _morale,
    "morale-states": _morale,
    "morale-trigger": lambda mine, _: {"starting_fighters": band.fighters} if (band := _ronin(mine)) else {},
    "drowning": lambda mine, _: {"heavy_armour": band.heavy_armour} if (band := _ronin(mine)) else {},
    "rank-test": lambda mine, _: {"rank": band.rank} if (band := _ronin(mine)) and band.rank is not None else {},
}
"""The inputs each calculator takes from the profiles; calculators absent here take none."""


TWO_SIDED = frozenset({"shooting", "melee"})
"""The calculators that take inputs from the enemy unit as well as from yours."""


def sides_used(calculator: str) -> tuple[str, ...]:
    """Which units a calculator takes inputs from: ``("mine", "enemy")``, ``("mine",)`` or none."""
    if calculator not in FILLERS:
        return ()
    return ("mine", "enemy") if calculator in TWO_SIDED else ("mine",)


def unit_inputs(calculator: str, mine: Profile | None = None, enemy: Profile | None = None) -> dict[str, Any]:
    """The inputs of ``calculator`` (its name) that ``mine`` and ``enemy`` give.

    A value of ``None`` clears an input the profile replaces (the charge dice, when the unit type
    gives them). Profiles of the other game give nothing.
    """
    filler = FILLERS.get(calculator)
    return filler(mine, enemy) if filler is not None else {}


ALTERNATIVES: dict[str, tuple[tuple[str, ...], ...]] = {
    "shooting": SHOOTERS,
    "charge": (("dice",), ("unit_type",)),
}
"""Inputs of which a calculator takes exactly one way: what a player types in one way replaces what
a profile filled in in another."""


def merged(calculator: str, filled: Mapping[str, Any], given: Mapping[str, Any]) -> dict[str, Any]:
    """The inputs a calculator runs with: those the profiles ``filled``, overridden by those the player
    ``given`` (typed options, a link), the cleared ones (``None``) left out."""
    inputs = dict(filled)
    ways = ALTERNATIVES.get(calculator, ())
    chosen = [way for way in ways if any(name in given for name in way)]
    for way in ways:
        if chosen and way not in chosen:
            for name in way:
                inputs.pop(name, None)
    inputs.update(given)
    return {name: value for name, value in inputs.items() if value is not None}

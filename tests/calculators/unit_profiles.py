"""Profiles the profile and advisor tests share: one of each Kensei unit type, and a Ronin warband."""

from __future__ import annotations

from calculators.profiles import FORMAT, KENSEI_UNIT_TYPES, VERSION

ARCHERS = {
    "name": "Ashigaru archers",
    "game": "kensei",
    "unit_type": "infantry",
    "wounds": [1, 1, 1, 1, 1, 1],
    "attack": 6,
    "defense": 5,
    "armor": 3,
    "initiative": 4,
    "honor": 6,
    "ranged": True,
    "loaded": True,
    "short_range_cm": 10,
    "range_cm": 30,
    "long_range_cm": 45,
}
SAMURAI = {
    "name": "Samurai",
    "game": "kensei",
    "unit_type": "infantry",
    "wounds": [2, 2, 2, 2],
    "attack": 5,
    "defense": 6,
    "armor": 4,
    "initiative": 5,
}
WARBAND = {"name": "Ronin band", "game": "ronin", "unit_type": "warband", "fighters": 8, "morale": 7, "banner": True}


def unit_of_type(unit_type: str, *, ranged: bool = True, loaded: bool = True, wounds=(1, 1)) -> dict:
    """A Kensei unit of ``unit_type`` with a bow (or without one)."""
    profile = {
        "name": f"{unit_type} {'bow' if ranged else 'melee'}",
        "game": "kensei",
        "unit_type": unit_type,
        "wounds": list(wounds),
        "attack": 5,
        "defense": 5,
        "armor": 3,
        "initiative": 4,
    }
    if ranged:
        profile |= {"ranged": True, "loaded": loaded, "short_range_cm": 8, "range_cm": 20, "long_range_cm": 40}
    return profile


EVERY_TYPE = [unit_of_type(unit_type) for unit_type in KENSEI_UNIT_TYPES]


def units_file(*units: dict) -> dict:
    return {"format": FORMAT, "version": VERSION, "units": list(units)}

"""Shared inputs for the calculator tests: a valid base per calculator and its variants."""

from __future__ import annotations

import pytest
from calculator_inputs import BASE

from calculators import CALCULATORS

EXTRA = {
    "shooting": [
        {"damage_rule": "subtractive", "attack": 0, "defense": 11, "armor": 0},
        {"armor": 0}, {"dice": None, "wounds": [2, 1]},
        # at the action points limit: 3 with a march and Greater Precision, 4 when Multiple Shots are added
        {"precision": True, "moved": "march"}, {"multiple_shots": True, "moved": "march"},
        {"precision": True, "second_shot": True}],
    "melee": [
        {"a_defensive": 1, "a_extra_dice": 2, "b_armor": 0},
        {"a_models": 3, "b_models": 1, "b_wounds": 1},
        {"a_models": 2, "b_models": 1, "b_wounds": 1},
    ],
    "regroup": [{"attempts": 2}, {"honor": 4, "attempts": 2, "mystical": True}],
    "planner": [{"points": 5, "honors": [5, 5, 5]}, {"strategic_orders": 1, "general": "daimyo"}],
    "charge": [{"dice": None, "unit_type": unit} for unit in
               ("infantry", "creature", "harasser_on_foot", "cavalry", "mounted_harasser", "large_creature")]
              + [{"indirect": True, "distance": 2}],
    "movement": [{"facings": 1, "pivots": 1, "obstacles": 1, "very_high_obstacles": 1, "running": True},
                 {"unit_type": "cavalry", "obstacles": 1}],
    "action-points": [{"reactions": 1}],
    "spells": [{"onmyouiji_level": 1, "caster_ki": 6, "difficulty": 2, "taisho_ki": 5}],
    "damage-roll": [{"roll": 10, "armor": 0}, {"roll": 1, "armor": 0}, {"roll": 4, "armor": 3}],
    "morale-states": [{"turns": 3, "triggers": [1, 1, 1], "start": "confident"}],
}  # fmt: skip


def input_variants(name: str) -> list[dict]:
    """The base inputs, each choice and flag toggled alone, and a few chosen extras."""
    base = BASE[name]
    found = [base]
    for param in CALCULATORS[name].params:
        if param.kind == "choice":
            found += [{**base, param.name: choice} for choice in param.choices]
        elif param.kind == "bool":
            found.append({**base, param.name: True})
    for extra in EXTRA.get(name, []):
        found.append({k: v for k, v in {**base, **extra}.items() if v is not None})
    return found


@pytest.fixture
def variants():
    """``variants(name)``: the base inputs of a calculator and its variants."""
    return input_variants

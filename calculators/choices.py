"""The values of the choices that several calculators share, declared once.

A choice's values are part of the contract (CLI options, URLs of the web forms, worked examples),
so a value two calculators both offer is spelled here and nowhere else. Choices that only one
calculator offers (a unit type by the categories of one rule, a range band) stay in its module.
"""

from __future__ import annotations

from .params import N_

NONE = "none"
"""The value of a choice that leaves things as they are (no cover, no charge, no movement)."""

COVER = (NONE, "light", "heavy")
"""Cover, in ranged attacks and in melee (kensei.cover)."""

COVER_RULES = {"light": "kensei.light-cover", "heavy": "kensei.heavy-cover"}
"""The rule that states the modifiers of each kind of cover."""

DAMAGE_RULES = ("threshold", "subtractive")
"""The two readings of the Damage roll (see the clarification on kensei.damage-roll)."""

DEFENSE_RULES = ("lower", "at-most")
"""The two readings of the Defense roll: a roll lower than Defense cancels a hit, as the texts say, or
a roll of Defense or less (see the clarification on kensei.defense-roll)."""

MORALE_STATES = ("confident", "wavering", "panic")
"""A Ronin warband's morale states, in the order it falls through them (ronin.morale-states)."""

SIDES = ("a", "b")
"""The two sides of a two-sided calculator (melee)."""

SIDE_NAMES = {"a": N_("Your unit"), "b": N_("Enemy unit")}
"""What a player calls each side: side A is their own unit, side B the enemy's (titles, the terminal)."""

SIDE_CHOICES = {"a": N_("your unit"), "b": N_("the enemy unit")}
"""Each side as a choice's value reads (who strikes first)."""

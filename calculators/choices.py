"""The values of the choices that several calculators share, declared once.

A choice's values are part of the contract (CLI options, URLs of the web forms, worked examples),
so a value two calculators both offer is spelled here and nowhere else. Choices that only one
calculator offers (a unit type by the categories of one rule, a range band) stay in its module.
"""

from __future__ import annotations

from .params import N_, Np_

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

CHOICE_LABELS: dict[str, str] = {
    "short": N_("short range"), "normal": N_("normal range"), "long": N_("long range"), "out": N_("out of range"),
    "none": N_("none"), "march": N_("marched"), "run": N_("ran"), "light": N_("light cover"),
    "heavy": N_("heavy cover"), "deep-forest": N_("deep forest"), "water": N_("stream, brook, bog or ford"),
    "threshold": N_("threshold (1 Wound above Armor, 2 on a 10)"), "subtractive": N_("subtractive (roll minus Armor)"),
    "lower": N_("lower than Defense (as the texts say)"), "at-most": N_("Defense or less"),
    "ki-minus": N_("above Ki minus the difficulty (as written)"),
    "roll-minus": N_("roll minus the difficulty above Ki"),
    "infantry": N_("infantry"), "cavalry": N_("cavalry"), "large": N_("large creature"),
    "creature": N_("creature"), "harasser": N_("harassers"), "harasser_on_foot": N_("harassers on foot"),
    "mounted_harasser": N_("mounted harassers"), "lone_model": N_("model on its own"),
    "large_creature": N_("large creature"), "roll": N_("roll for it"), **SIDE_CHOICES,
    "daimyo": N_("Daimyo"), "taisho": N_("Taisho"), "hero": N_("Hero"), "daisho_samurai": N_("Daisho Samurai"),
    "confident": N_("confident"), "wavering": N_("wavering"), "panic": N_("panic"),
    "1d10": "1d10", "2d10": "2d10",
}  # fmt: skip
"""Words for the values a choice offers, as a page or the terminal shows them (translated there); the values
themselves stay in the URL, the command line and the JSON."""

NONE_LABELS: dict[str, tuple[str, str]] = {
    "cover": Np_("cover", "none"),
    "enemy_cover": Np_("cover", "none"),
    "moved": Np_("movement", "none"),
    "shooter_in": Np_("terrain", "none"),
    "charge": Np_("charge", "none"),
    "lone_charge": Np_("lone charge", "none"),
}
"""``none`` in each field that offers it, with its context: English says "none" everywhere, but the other
languages' word agrees with the field's noun or answers its question (Spanish "sin cobertura", "ninguno"
for a movement, "no cargó" for "Charged this turn", "ninguna" for a lone model's charge)."""


def choice_label(field: str, value: str) -> tuple[str, str]:
    """The words for ``value`` of the choice ``field`` (a side's field, ``a_cover``, as ``cover``): the gettext
    context and the English, the context empty for words that read the same in every field.

    >>> choice_label("b_cover", "none"), choice_label("cover", "light")
    (('cover', 'none'), ('', 'light cover'))
    """
    for side in SIDES:
        field = field.removeprefix(f"{side}_")
    if value == NONE and field in NONE_LABELS:
        return NONE_LABELS[field]
    return "", CHOICE_LABELS.get(value, value)

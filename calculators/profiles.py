"""A player's own units: profiles read from the units file, validated, and turned into calculator inputs.

A profile holds what a player would otherwise retype for every question: the game, a name, the
unit type as the rules name it, the Wounds of each model and the characteristics the calculators
use. What the rules fix by unit type (action points, Movement, charge dice) is never stored: the
calculators take it from the rule data through the unit type. A profile may only give its own
Movement, which the rules allow (kensei.movement: "Some models have a Movement of their own").

The units file is JSON (its format is documented on the site's data-format page)::

    {"format": "kensei-ref/units", "version": 1, "units": [{"name": "Ashigaru archers", ...}]}

Every field is declared once as a :class:`~calculators.params.Param`, like a calculator's inputs,
so that the same bounds and the same error messages hold in the terminal, in Python and on the site.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from .errors import CalculatorInputError
from .json_nesting import check_nesting
from .params import CHARACTERISTIC, N_, Nn_, Param, characteristic, choice, flag, whole_number
from .rulebook import RuleValues

FORMAT = "kensei-ref/units"
"""The ``format`` key of a units file: a file without it is not ours."""

VERSION = 1
"""The version of the units file this code writes; it reads this one and every older one."""

MAX_UNITS = 200
"""Most profiles in one file: far more than any army, and a bound on the work a file can ask for."""

MAX_NAME = 60
"""Most characters in a profile's name."""

MAX_MODELS = 100
"""Most models in a profile: as many as the shooting calculator takes."""

GAMES = ("kensei", "ronin")

KENSEI_UNIT_TYPES = (
    "infantry",
    "cavalry",
    "harasser_on_foot",
    "mounted_harasser",
    "character",
    "creature",
    "large_creature",
    "lone_model",
)
"""A Kensei unit's type, as the rules tell types apart (action points, Movement, charge dice)."""

RONIN_UNIT_TYPES = ("warband",)
"""A Ronin profile is a warband (the Ronin rules in the data test Morale and priority per warband)."""

GAME = choice("game", N_("Game"), N_("Kensei or Ronin."), "", GAMES)

MAX_RANGE_CM = 200
"""Farthest a weapon's range band may reach."""

RANGE_FIELDS = (
    (
        "short_range_cm",
        N_("Short range up to (cm)"),
        N_("The weapon's short range: Attack is better up to this distance."),
    ),
    ("range_cm", N_("Range up to (cm)"), N_("The weapon's normal range.")),
    (
        "long_range_cm",
        N_("Long range up to (cm)"),
        N_("The weapon's long range: Attack is worse up to this distance; beyond it, out of range."),
    ),
)
"""The weapon's range bands (kensei.firing), each an optional distance: its field, label and help."""

KENSEI_PARAMS = (
    choice("unit_type", N_("Unit type"), N_("As the rules name it."), "kensei.action-points", KENSEI_UNIT_TYPES),
    Param(
        "wounds",
        "int_list",
        N_("Wounds of each model"),
        N_("One number per model, e.g. 2,2,2,1; the number of models is how many are given."),
        "kensei.shooting-dice",
        minimum=1,
        maximum=CHARACTERISTIC["maximum"],
        min_length=1,
        max_length=MAX_MODELS,
    ),
    characteristic("attack", N_("Attack"), N_("A hit needs a roll higher than it."), "kensei.hit-roll"),
    characteristic("defense", N_("Defense"), N_("A Defense roll lower than it cancels a hit."), "kensei.defense-roll"),
    characteristic("armor", N_("Armor"), N_("A Damage roll must beat it to wound."), "kensei.damage-roll"),
    characteristic(
        "initiative", N_("Initiative"), N_("Added to the d10 of the first strike."), "kensei.initiative-resolution"
    ),
    characteristic("honor", N_("Honor"), N_("Regrouping needs a d10 at most this."), "kensei.regroup", default=None),
    characteristic("ki", N_("Ki"), N_("For spells and Ki rolls."), "kensei.spiritual-actions", default=None),
    whole_number(
        "movement_cm",
        N_("Own Movement (cm)"),
        N_("Only for models whose profile gives a Movement of their own; otherwise the unit type's."),
        "kensei.movement",
        1,
        50,
        default=None,
    ),
    flag("ranged", N_("Ranged weapon"), N_("The unit can shoot."), "kensei.firing"),
    flag("loaded", N_("Loaded"), N_("The ranged weapon is loaded now."), "kensei.loading"),
    *(
        whole_number(name, label, help, "kensei.firing", 0, MAX_RANGE_CM, default=None)
        for name, label, help in RANGE_FIELDS
    ),
)
"""A Kensei unit's fields besides its name and game, declared as a calculator's inputs are."""

RONIN_PARAMS = (
    choice("unit_type", N_("Unit type"), N_("A Ronin warband."), "ronin.morale-test", RONIN_UNIT_TYPES),
    whole_number(
        "fighters",
        N_("Fighters"),
        N_("Fighters the warband starts the game with."),
        "ronin.morale-triggers",
        1,
        MAX_MODELS,
    ),
    characteristic("morale", N_("Morale"), N_("The warband's Morale."), "ronin.morale-test"),
    flag("commander", N_("Commander"), N_("A fighter with the Commander skill."), "ronin.morale-modifiers"),
    flag("banner", N_("Banner"), N_("The warband may reroll a failed Morale test."), "ronin.banner"),
    flag("heavy_armour", N_("Heavy armour"), N_("Its fighters wear heavy armour."), "ronin.water"),
    whole_number(
        "rank",
        N_("Rank"),
        N_("Optional: the Rank of the fighter whose Rank tests you check most, such as the leader."),
        "ronin.wavering",
        0,
        10,
        default=None,
    ),
)
"""A Ronin warband's fields besides its name and game. A Rank test is made fighter by fighter
(ronin.wavering), so the warband holds at most one Rank: the fighter the player checks most."""

PARAMS_BY_GAME = {"kensei": KENSEI_PARAMS, "ronin": RONIN_PARAMS}


@dataclass(frozen=True)
class Profile:
    """One validated unit: its name, its game and its fields by name (see :data:`PARAMS_BY_GAME`)."""

    name: str
    game: str
    values: Mapping[str, Any]

    def __getattr__(self, field: str) -> Any:
        try:
            return self.__dict__["values"][field]
        except KeyError:
            raise AttributeError(field) from None

    @property
    def models(self) -> int:
        """Models in a Kensei unit (one per Wounds value)."""
        return len(self.values["wounds"])

    def to_json(self) -> dict[str, Any]:
        """The profile as the units file stores it: every field, lists as lists."""
        fields = {key: list(value) if isinstance(value, tuple) else value for key, value in self.values.items()}
        return {"name": self.name, "game": self.game, **fields}


def wounds_left_param(name: str, label: str, help: str) -> Param:
    """An input of the Wounds a unit has left, one number per model (optional: unless given, the profile's).
    The table file and the orders advisor both take it, so that a plan's row opens in the advisor."""
    return Param(
        name,
        "int_list",
        label,
        help,
        "kensei.shooting-dice",
        default=None,
        minimum=1,
        maximum=CHARACTERISTIC["maximum"],
        min_length=1,
        max_length=MAX_MODELS,
    )


RANGED_NEEDED = N_("needs a ranged weapon in the unit's profile")
"""Why a unit without a ranged weapon cannot have it loaded (:func:`as_it_stands`)."""


def as_it_stands(
    profile: Profile,
    wounds: tuple[int, ...] | None,
    loaded: bool | None,
    fields: tuple[str, str],
    ranged_needed: str = RANGED_NEEDED,
) -> Profile:
    """``profile`` as it stands this turn: with ``wounds`` left per model and its weapon ``loaded`` or
    not (``None``: as the profile says). A unit only loses models and Wounds, so it keeps at most its
    profile's models, each with at most its profile's most Wounds; only a ranged weapon is loaded.

    Raises:
        CalculatorInputError: naming the input the refused value came from: ``fields`` are those of
            ``wounds`` and ``loaded``; ``ranged_needed`` says why a weapon cannot be loaded.
    """
    changed = dict(profile.values)
    if wounds is not None:
        if len(wounds) > profile.models or max(wounds) > max(profile.wounds):
            raise CalculatorInputError(
                fields[0],
                Nn_(
                    "must be at most the profile's models ({models}), each with at most {most} Wound",
                    "must be at most the profile's models ({models}), each with at most {most} Wounds",
                    "most",
                ),
                values={"models": profile.models, "most": max(profile.wounds)},
            )
        changed["wounds"] = tuple(wounds)
    if loaded is not None:
        if loaded and not profile.ranged:
            raise CalculatorInputError(fields[1], ranged_needed)
        changed["loaded"] = loaded
    return replace(profile, values=changed)


def read_profile(mapping: Any, rules: RuleValues | None = None, at: str = "") -> Profile:
    """A profile from one JSON object of the units file.

    Args:
        mapping: the object as read from JSON.
        at: where it is in the file (``units[2].``), put before the field an error names.

    Raises:
        CalculatorInputError: naming the field (``units[2].attack``) and what it allows.
    """
    rules = RuleValues.bundled() if rules is None else rules
    if not isinstance(mapping, Mapping):
        raise CalculatorInputError(
            at.rstrip(".") or "unit", N_("must be an object of fields, got {value}"), values={"value": repr(mapping)}
        )
    name = _name(mapping.get("name"), at)
    game = _field(GAME, mapping.get("game", None), at, rules)
    params = PARAMS_BY_GAME[game]
    allowed = ("name", "game", *(param.name for param in params))
    for key in mapping:
        if key not in allowed:
            raise CalculatorInputError(
                f"{at}{key}", N_("unknown field; allowed: {fields}"), values={"fields": ", ".join(allowed)}
            )
    values = {}
    for param in params:
        if param.required and param.name not in mapping:
            raise param.refusal(rules, at=at)
        values[param.name] = _field(param, mapping.get(param.name, param.default), at, rules)
    profile = Profile(name, game, values)
    _check(profile, at)
    return profile


def _name(value: Any, at: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME or not value.isprintable():
        raise CalculatorInputError(
            f"{at}name",
            Nn_(
                "must be a name of 1 to {most} printable character, got {value}",
                "must be a name of 1 to {most} printable characters, got {value}",
                "most",
            ),
            values={"most": MAX_NAME, "value": repr(value)},
        )
    return value.strip()


def _field(param: Param, value: Any, at: str, rules: RuleValues) -> Any:
    """The value of one field, validated by its declaration; the error names the field where it is."""
    try:
        return param.validate(value, rules)
    except CalculatorInputError as error:
        raise CalculatorInputError(f"{at}{param.name}", error.message, error.related, error.values) from None


def _check(profile: Profile, at: str) -> None:
    """Checks across fields: a loaded weapon is a weapon; the ranges grow from short to long."""
    if profile.game != "kensei":
        return
    if profile.loaded and not profile.ranged:
        raise CalculatorInputError(f"{at}loaded", N_("needs {0}: only a ranged weapon is loaded"), ("ranged",))
    ranges = [profile.short_range_cm, profile.range_cm, profile.long_range_cm]
    if profile.ranged and None in ranges:
        missing = ("short_range_cm", "range_cm", "long_range_cm")[ranges.index(None)]
        raise CalculatorInputError(f"{at}{missing}", N_("is needed for a unit with {0}"), ("ranged",))
    given = [each for each in ranges if each is not None]
    if given != sorted(given):
        raise CalculatorInputError(
            f"{at}range_cm", N_("must be between {0} and {1}"), ("short_range_cm", "long_range_cm")
        )


def read_units(document: Any, rules: RuleValues | None = None) -> tuple[Profile, ...]:
    """Every profile of a units file, as read from JSON.

    Raises:
        CalculatorInputError: when the file is not a units file, is of a newer version, holds a bad
            profile (the error names it: ``units[2].attack``) or gives one name twice.
    """
    rules = RuleValues.bundled() if rules is None else rules
    check_header(document, FORMAT, VERSION, N_("must be {format}: this is not a units file"))
    units = document.get("units")
    if not isinstance(units, list):
        raise CalculatorInputError("units", N_("must be a list of units"))
    if len(units) > MAX_UNITS:
        raise CalculatorInputError("units", TOO_MANY_UNITS, values={"most": MAX_UNITS, "count": len(units)})
    profiles = tuple(read_profile(unit, rules, f"units[{index}].") for index, unit in enumerate(units))
    seen: set[str] = set()
    for index, profile in enumerate(profiles):
        if profile.name.casefold() in seen:
            raise CalculatorInputError(
                f"units[{index}].name", N_("is the name of another unit: {name}"), values={"name": profile.name}
            )
        seen.add(profile.name.casefold())
    return profiles


TOO_MANY_UNITS = Nn_(
    "must hold at most {most} unit, got {count}", "must hold at most {most} units, got {count}", "most"
)
"""A file of too many units, or the units saved and those imported together (My units, units.js)."""


def check_header(document: Any, format_name: str, version: int, not_ours: str) -> None:
    """A file's ``format`` and ``version``, as every file of this reference carries them: a file of
    another format is refused with ``not_ours`` (which names the kind of file), one of a newer version
    than ``version`` is refused, never read in part.

    Raises:
        CalculatorInputError: on ``format`` or ``version``.
    """
    if not isinstance(document, Mapping) or document.get("format") != format_name:
        raise CalculatorInputError("format", not_ours, values={"format": repr(format_name)})
    given = document.get("version")
    if not isinstance(given, int) or isinstance(given, bool) or not 1 <= given <= version:
        raise CalculatorInputError(
            "version",
            N_("must be an integer from {minimum} to {maximum}, got {value}"),
            values={"minimum": 1, "maximum": version, "value": repr(given)},
        )


def units_document(profiles: tuple[Profile, ...]) -> dict[str, Any]:
    """The units file for ``profiles``, as :func:`read_units` reads it back."""
    return {"format": FORMAT, "version": VERSION, "units": [profile.to_json() for profile in profiles]}


def find(profiles: tuple[Profile, ...], name: str, field: str) -> Profile:
    """The profile called ``name`` (case does not matter).

    Raises:
        CalculatorInputError: naming ``field`` (``mine``, ``enemy``) and the names the file has.
    """
    if not isinstance(name, str):
        name = repr(name)
    for profile in profiles:
        if profile.name.casefold() == name.strip().casefold():
            return profile
    if not profiles:
        raise CalculatorInputError(
            field, N_("must name a unit of the file, which has none, got {value}"), values={"value": repr(name)}
        )
    names = ", ".join(repr(profile.name) for profile in profiles)
    raise CalculatorInputError(
        field, N_("must name a unit of the file ({names}), got {value}"), values={"names": names, "value": repr(name)}
    )


MAX_FILE_CHARACTERS = 1_000_000
"""Most characters a units file may have: a file of 200 full profiles is under 100 000."""

FILE_TOO_LONG = Nn_("must be a file of at most {most} character", "must be a file of at most {most} characters", "most")
"""A units file too long to read (My units says it before reading a file of more bytes, units.js)."""


def parse_units(text: str, rules: RuleValues | None = None) -> tuple[Profile, ...]:
    """Every profile of a units file, from its text (a file chosen on the device, or read by the CLI).

    Raises:
        CalculatorInputError: when the text is too long, nested too deep (see
            :mod:`calculators.json_nesting`), not JSON, or not a valid units file (see :func:`read_units`).
    """
    return read_units(file_document(text, "units"), rules)


NOT_JSON = N_("must be a JSON file: this one cannot be read as JSON")


def file_document(text: str, field: str) -> Any:
    """The JSON document of a file's ``text`` (a units or table file), read as a file is: no longer than
    :data:`MAX_FILE_CHARACTERS`, nested no deeper than :mod:`calculators.json_nesting` allows (checked
    before the parser, which a deep file would exhaust), a byte order mark at its start passed over (as
    Windows Notepad writes UTF-8, and as a browser reads a file).

    Raises:
        CalculatorInputError: naming ``field``, for text that is none of that, or not text at all.
    """
    if not isinstance(text, str):
        raise CalculatorInputError(field, NOT_JSON)
    text = text.removeprefix("\ufeff")
    if len(text) > MAX_FILE_CHARACTERS:
        raise CalculatorInputError(field, FILE_TOO_LONG, values={"most": MAX_FILE_CHARACTERS})
    check_nesting(text, field)
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise CalculatorInputError(field, NOT_JSON) from None

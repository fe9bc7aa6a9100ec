"""The quick reference: tables built from the rules' values, so no number is typed twice.

Each table names, for each row, the rule and value key it shows; the number, the rule link and
the row's name (a glossary term, a rule title or an interface string) all come from the data or
the catalogs at build time.
"""

from __future__ import annotations

from dataclasses import dataclass

from kensei_ref.language_context import language_context
from kensei_ref.languages import N_
from kensei_ref.rules.model import RuleBook


@dataclass(frozen=True)
class Label:
    """A row's name: a glossary term (``term``), a rule's title (``rule``) or an interface string."""

    kind: str
    key: str


def term(term_id: str) -> Label:
    return Label("term", term_id)


def title(rule_id: str) -> Label:
    return Label("rule", rule_id)


def text(message: str) -> Label:
    return Label("text", message)


@dataclass(frozen=True)
class Cell:
    """One number: rule id and value key; ``fallback`` names the rule whose value applies when absent (the
    table then marks the number as derived); ``at_least`` when the rule states a minimum, not the number."""

    rule: str
    key: str
    fallback: str | None = None
    at_least: bool = False


DERIVED_MARK = "\u2020"
"""Follows a number the row's rule does not state, taken from its kind's defaults (a house's Wounds)."""
AT_LEAST_MARK = "\u2265\u00a0"
"""Precedes a number the rule states as a minimum (a large construction holds 4 models or more)."""
DERIVED_NOTE = N_("\u2020 Not stated for this construction: the default for its size.")
AT_LEAST_NOTE = N_("\u2265 At least this many: the players agree on the number before the game.")


@dataclass(frozen=True)
class Table:
    title: str
    row_heading: str  # what the rows name: the first column's heading (a table header is never empty)
    columns: tuple[str, ...]
    rows: tuple[tuple[Label, tuple[Cell | None, ...]], ...]
    unit: str = ""  # "signed", "cm", "in" or "" for a plain count


def _one(rule: str, key: str) -> tuple[Cell, ...]:
    return (Cell(rule, key),)


def _each(rule: str, *rows: tuple[Label, str]) -> tuple[tuple[Label, tuple[Cell, ...]], ...]:
    """Rows that show one value each of the same rule: (the row's name, the value's key)."""
    return tuple((label, _one(rule, key)) for label, key in rows)


TABLES: tuple[Table, ...] = (
    Table(
        N_("Action points per turn"),
        N_("Unit type"),
        (N_("Action points"),),
        (
            *_each(
                "kensei.action-points",
                (term("infantry"), "infantry"),
                (term("cavalry"), "cavalry"),
                (term("creature"), "creature"),
                (term("harasser"), "harasser"),
                (text(N_("Model on its own")), "lone_model"),
                (term("character"), "character"),
                (term("large-creature"), "large_creature"),
            ),
            (title("kensei.reaction-cost"), _one("kensei.reaction-cost", "action_points")),
        ),
    ),
    Table(
        N_("Movement"),
        N_("Unit type"),
        (N_("Distance"),),
        (
            *_each(
                "kensei.movement",
                (term("infantry"), "infantry"),
                (term("cavalry"), "cavalry"),
                (term("large-creature"), "large"),
            ),
            (title("kensei.facing"), _one("kensei.facing", "cost_cm")),
            (title("kensei.pivoting"), _one("kensei.pivoting", "cost_cm")),
            *_each(
                "kensei.obstacles",
                (text(N_("Obstacle")), "normal_cm"),
                (text(N_("Very high obstacle")), "very_high_cm"),
                (text(N_("Obstacle, cavalry (never very high)")), "cavalry_cm"),
            ),
        ),
        unit="cm",
    ),
    Table(
        N_("Movement costs and multipliers"),
        N_("Situation"),
        (N_("Value"),),
        (
            (text(N_("Running: movement multiplied by")), _one("kensei.running", "multiplier")),
            (text(N_("Difficult terrain: movement divided by")), _one("kensei.difficult-terrain", "movement_divisor")),
            (text(N_("Bridge: movement divided by")), _one("kensei.bridge", "movement_divisor")),
            (
                text(N_("Moving through a friendly unit: action points lost by each unit")),
                _one("kensei.moving-through-friends", "action_points"),
            ),
            (
                text(N_("Moving through a friendly unit: Initiative lost by each unit")),
                _one("kensei.moving-through-friends", "initiative"),
            ),
        ),
    ),
    Table(
        N_("Ranged attack modifiers (to the Attack the dice must beat)"),
        N_("Situation"),
        (N_("Attack"),),
        (
            (text(N_("Short range")), _one("kensei.firing", "short_range")),
            (text(N_("Long range")), _one("kensei.firing", "long_range")),
            (title("kensei.greater-precision"), _one("kensei.greater-precision", "attack")),
            (text(N_("Second shot of Multiple Shots")), _one("kensei.multiple-shots", "second_shot_attack")),
            (text(N_("Shooter marched")), _one("kensei.moving-before-shooting", "marched")),
            (text(N_("Shooter ran")), _one("kensei.moving-before-shooting", "ran")),
            (text(N_("Target in light cover")), _one("kensei.light-cover", "ranged_attack")),
            (text(N_("Target in heavy cover")), _one("kensei.heavy-cover", "ranged_attack")),
            (text(N_("Shooter in deep forest")), _one("kensei.deep-forest", "shooting_attack")),
            (text(N_("Shooter in a stream, brook, bog or ford")), _one("kensei.shallow-water", "shooting_attack")),
        ),
        unit="signed",
    ),
    Table(
        N_("Cover"),
        N_("Cover"),
        (N_("Attack against shots"), N_("Defense in melee"), N_("Initiative in melee")),
        (
            (
                term("light-cover"),
                (
                    Cell("kensei.light-cover", "ranged_attack"),
                    Cell("kensei.light-cover", "melee_defense"),
                    Cell("kensei.light-cover", "melee_initiative"),
                ),
            ),
            (
                term("heavy-cover"),
                (
                    Cell("kensei.heavy-cover", "ranged_attack"),
                    Cell("kensei.heavy-cover", "melee_defense"),
                    Cell("kensei.heavy-cover", "melee_initiative"),
                ),
            ),
        ),
        unit="signed",
    ),
    Table(
        N_("Constructions"),
        N_("Construction"),
        (N_("Wounds"), N_("Armor"), N_("Models"), N_("Units")),
        (
            (
                title("kensei.small-constructions"),
                (
                    Cell("kensei.small-constructions", "wounds"),
                    Cell("kensei.small-constructions", "armor"),
                    Cell("kensei.small-constructions", "capacity_models"),
                    None,
                ),
            ),
            (
                title("kensei.house"),
                (
                    Cell("kensei.house", "wounds", "kensei.small-constructions"),
                    Cell("kensei.house", "armor", "kensei.small-constructions"),
                    Cell("kensei.house", "capacity_models", "kensei.small-constructions"),
                    Cell("kensei.house", "capacity_units"),
                ),
            ),
            (
                title("kensei.altar"),
                (
                    Cell("kensei.altar", "wounds"),
                    Cell("kensei.altar", "armor"),
                    Cell("kensei.altar", "capacity_models", "kensei.small-constructions"),
                    None,
                ),
            ),
            (title("kensei.torii"), (Cell("kensei.torii", "wounds"), Cell("kensei.torii", "armor"), None, None)),
            (title("kensei.bridge"), (Cell("kensei.bridge", "wounds"), Cell("kensei.bridge", "armor"), None, None)),
            (
                title("kensei.large-constructions"),
                (
                    Cell("kensei.large-constructions", "wounds"),
                    Cell("kensei.large-constructions", "armor"),
                    Cell("kensei.large-constructions", "capacity_models", at_least=True),
                    None,
                ),
            ),
            (
                title("kensei.pagoda"),
                (
                    Cell("kensei.pagoda", "wounds", "kensei.large-constructions"),
                    Cell("kensei.pagoda", "armor", "kensei.large-constructions"),
                    None,
                    Cell("kensei.pagoda", "capacity_units"),
                ),
            ),
            (
                title("kensei.castle"),
                (
                    Cell("kensei.castle", "wounds", "kensei.large-constructions"),
                    Cell("kensei.castle", "armor", "kensei.large-constructions"),
                    None,
                    Cell("kensei.castle", "capacity_units"),
                ),
            ),
            (
                title("kensei.clan-castle"),
                (
                    Cell("kensei.clan-castle", "wounds", "kensei.large-constructions"),
                    Cell("kensei.clan-castle", "armor", "kensei.large-constructions"),
                    None,
                    Cell("kensei.clan-castle", "capacity_units"),
                ),
            ),
        ),
    ),
    Table(
        N_("Commandment points"),
        N_("General"),
        (N_("Points"),),
        (
            *_each(
                "kensei.commandment-points",
                (term("daimyo"), "daimyo"),
                (term("taisho"), "taisho"),
                (term("hero"), "hero"),
                (term("daisho-samurai"), "daisho_samurai"),
            ),
            (title("kensei.position-of-dominance"), _one("kensei.position-of-dominance", "commandment_points")),
            (text(N_("Cost: a Taisho ability (one a turn)")), _one("kensei.taisho-abilities", "cost")),
            (text(N_("Cost: a strategic order")), _one("kensei.strategic-orders", "cost")),
            (text(N_("Cost: each regroup attempt")), _one("kensei.regroup", "cost_per_attempt")),
        ),
    ),
    Table(
        N_("Charge"),
        N_("Unit type"),
        (N_("d10 rolled"),),
        (
            *_each(
                "kensei.charge-dice",
                (term("infantry"), "infantry"),
                (term("creature"), "creature"),
                (text(N_("Harassers on foot")), "harasser_on_foot"),
                (term("cavalry"), "cavalry"),
                (text(N_("Mounted harassers")), "mounted_harasser"),
                (term("large-creature"), "large_creature"),
            ),
        ),
    ),
    Table(
        N_("Charge bonuses"),
        N_("Situation"),
        (N_("Modifier"),),
        (
            (text(N_("Initiative when charging")), _one("kensei.charge-bonuses", "initiative")),
            (
                text(N_("Attack: infantry, creatures, harassers on foot, large creatures")),
                _one("kensei.charge-bonuses", "infantry_attack"),
            ),
            (text(N_("Attack: cavalry, mounted harassers")), _one("kensei.charge-bonuses", "cavalry_attack")),
            (
                text(N_("Combat dice for a successful charge against a counter-charge")),
                _one("kensei.counter-charge", "bonus_dice"),
            ),
            (
                text(N_("Combat dice against a unit with half the models or fewer")),
                _one("kensei.outnumbering", "half_bonus"),
            ),
            (
                text(N_("Combat dice against a unit with a third of the models or fewer")),
                _one("kensei.outnumbering", "third_bonus"),
            ),
        ),
        unit="signed",
    ),
    Table(
        N_("Ronin: morale test modifiers (to the 2d6 total)"),
        N_("Situation"),
        (N_("Modifier"),),
        (
            *_each(
                "ronin.morale-modifiers",
                (text(N_("Fewer than half of the fighters left")), "under_half"),
                (term("wavering"), "wavering"),
                (text(N_("A fighter with the Commander skill on the table")), "commander"),
            ),
        ),
        unit="signed",
    ),
    Table(
        N_("Ronin: movement"),
        N_("Situation"),
        (N_("Distance"),),
        (
            *_each(
                "ronin.movement",
                (text(N_("Walk")), "walk_in"),
                (text(N_("Run")), "run_in"),
                (text(N_("Closest a runner may come to an enemy")), "run_enemy_clearance_in"),
            ),
            (title("ronin.breaking-contact"), _one("ronin.breaking-contact", "distance_in")),
        ),
        unit="in",
    ),
)


RULES_USED: frozenset[str] = frozenset(
    cell.rule for table in TABLES for _, cells in table.rows for cell in cells if cell is not None
)
"""Rules the tables read; a data set without them (a test's sample) has no quick-reference page."""


def _value(book: RuleBook, cell: Cell) -> int | None:
    values = book.rule(cell.rule).values
    if cell.key in values:
        return values[cell.key]
    if cell.fallback:
        return book.rule(cell.fallback).values[cell.key]
    return None


def derived(book: RuleBook, cell: Cell) -> bool:
    """True when the row's rule states no such number and the table shows its kind's default."""
    return cell.key not in book.rule(cell.rule).values and cell.fallback is not None


def _shown(book: RuleBook, cell: Cell | None, unit: str, lang: str) -> str:
    """A cell as the table prints it: the number, marked when it is derived or a minimum; a dash for none."""
    number = None if cell is None else _value(book, cell)
    if cell is None or number is None:
        return "–"
    text = format_value(number, unit, lang)
    if cell.at_least:
        text = AT_LEAST_MARK + text
    return text + DERIVED_MARK if derived(book, cell) else text


def format_value(number: int, unit: str, lang: str = "en") -> str:
    """A table's number as players write it: +1, −1, 10 cm (10 см in Russian), 6″."""
    numbers = language_context(lang).numbers
    if unit == "signed":
        return numbers.signed(number)
    if unit in ("cm", "in"):
        return numbers.length(number, unit)
    return numbers.decimal(number)


def tables(book: RuleBook, lang: str) -> list[dict]:
    """The quick-reference tables of ``lang``: title, column names, and rows of (name, rule, cells).

    Raises:
        KeyError: when a table names a rule or value the data does not have (a test loads them all).
    """
    _ = language_context(lang).gettext

    def name(label: Label) -> str:
        if label.kind == "term":
            return book.term(label.key).name[lang]
        if label.kind == "rule":
            return book.rule(label.key).title[lang]
        return _(label.key)

    result = []
    for table in TABLES:
        rows = []
        for label, cells in table.rows:
            first_rule = next(c.rule for c in cells if c is not None)
            label_text = name(label)
            rows.append(
                {
                    "name": label_text[:1].upper() + label_text[1:],
                    "rule": first_rule,
                    "cells": [_shown(book, c, table.unit, lang) for c in cells],
                }
            )
        used = [c for _label, cells in table.rows for c in cells if c is not None]
        notes = [_(DERIVED_NOTE)] if any(derived(book, c) for c in used) else []
        notes += [_(AT_LEAST_NOTE)] if any(c.at_least for c in used) else []
        result.append(
            {
                "title": _(table.title),
                "row_heading": _(table.row_heading),
                "columns": [_(c) for c in table.columns],
                "rows": rows,
                "notes": notes,
            }
        )
    return result

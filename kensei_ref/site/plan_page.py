"""The Command phase plan's page: the table's state built from the units saved on the device, and the plan
the engine computes for it (``calculators.command_plan``, the same as ``kensei-ref plan``).

The page's script (assets/js/plan.js) keeps the table's state on the device and in the page's address, as
the table file (``kensei-ref/table``) that ``kensei-ref plan --table`` reads, and exports that file.
"""

from __future__ import annotations

import json
from typing import Any

from calculators import CALCULATORS
from calculators.choices import CHOICE_LABELS
from calculators.command_plan import OBJECTIVES, PLAN_OBJECTIVE_LABELS, READINGS
from calculators.enemy_reply import REPLY_LABELS
from calculators.orders import ACTION_LABELS
from calculators.planner import GENERALS
from calculators.table import DISTANCE_PARAMS, ENEMY_PARAMS, MAX_DISTANCE, MINE_PARAMS, STATES, TOP_PARAMS
from calculators.table import FORMAT as TABLE_FORMAT
from calculators.table import VERSION as TABLE_VERSION
from kensei_ref.languages import N_, QUOTES, Nn_
from kensei_ref.rules.model import RuleBook
from kensei_ref.site import calculator_pages
from kensei_ref.site.pages import CLARIFICATIONS_PAGE, PageContext, environment
from kensei_ref.site.unit_pickers import ADVISOR_PAGE, STORAGE_KEY, UNITS_PAGE
from kensei_ref.site.units_pages import BOUNDS

PLAN_PAGE = "plan.md"
TABLE_KEY = "kensei-ref:table"
"""Where the device keeps the table's state (``localStorage``): the table file's JSON."""

STATE_LABELS = {
    "ready": N_("ready for orders"),
    "fleeing": N_("began fleeing this turn"),
    "out": N_("out of the game"),
    "engaged": N_("engaged in combat"),
}

UI = {
    "general": N_("General"),
    "dominance": N_("Position of dominance (the general holds the hill)"),
    "ki": N_("General's Ki (for a strategic order; empty: none)"),
    "taisho_ability": N_("Keep points for a Taisho ability"),
    "objective": N_("Sort by"),
    "units": N_("Units on the table"),
    "side": N_("Side"),
    "off": N_("not on the table"),
    "mine": N_("yours"),
    "enemy": N_("the enemy's"),
    "state": N_("State"),
    "bushi_hero": N_("Bushi hero"),
    "distances": N_("Distances (cm): empty when out of reach"),
    "in_sight": N_("in sight"),
    "export": N_("Export the table file"),
    "computing": N_("Computing…"),
    "ready": N_("Plan for the table above."),
    "failed": N_("The calculators' engine could not start in this browser."),
    "refused": N_("The table cannot be planned: %(field)s: %(message)s"),
    "unsaved": N_("The table names units not saved on this device: %(names)s. Add them in My units to plan it."),
    "empty": N_("Put your units and the enemy's on the table, and give the distances between them."),
    "best": N_("Best plan"),
    "other": N_("Other plan %(number)s"),
    "score": N_("Score: %(score)s"),
    "points": N_("Commandment points spent: at most %(points)s; units expected to regroup: %(regrouped)s."),
    "nothing_spent": N_("No unit is fleeing, and no commandment points are spent."),
    "strategic": N_("Strategic order: %(unit)s at %(target)s (Ki roll %(chance)s)"),
    "regroup": Nn_(
        "Regroup %(unit)s: up to %(attempts)s attempt, regroups %(chance)s",
        "Regroup %(unit)s: up to %(attempts)s attempts, regroups %(chance)s",
    ),
    "orders": N_("Orders, one unit after the other as they are declared:"),
    "order": N_("%(unit)s → %(target)s: %(orders)s"),
    "enemies": N_("Each enemy, under all the units that chose it:"),
    "outcome": N_("%(unit)s: Wounds %(wounds)s, destroyed %(destroyed)s, victory %(victory)s, Wounds taken %(taken)s"),
    "reply": N_("Enemy's reply: %(reply)s"),
    "enemy_shot": N_("the enemy's reaction shot"),
    "averaged": N_("the largest of the runs averaged"),
    "no_orders": N_("No unit's orders change the odds against any enemy in reach."),
    "ability_cost": N_("Units expected to regroup lost by keeping the points of a Taisho ability: %(regrouped)s."),
    "rules": N_("Not allowed by the rules: %(message)s"),
    "int": N_("Enter a whole number from %(minimum)s to %(maximum)s."),
    "stale": N_("These results are for the last valid inputs; correct the highlighted field."),
    "advisor": N_("Orders advisor"),
}
"""The page's words, translated for its script."""


def plan_page(book: RuleBook, lang: str, directory_urls: bool = True) -> str:
    """The Command phase plan's page of ``lang``."""
    ctx = PageContext(book, lang, PLAN_PAGE)
    language = ctx.language
    tr = language.gettext
    data: dict[str, Any] = {
        "lang": lang,
        "storage": STORAGE_KEY,
        "table_storage": TABLE_KEY,
        "format": TABLE_FORMAT,
        "version": TABLE_VERSION,
        "max_distance": MAX_DISTANCE,
        "max_ki": next(param.maximum for param in TOP_PARAMS if param.name == "ki"),
        # each field of the table file by its key, as the page names it (an error about one the page has
        # no input for is said with these words, never the file's key)
        "fields": {
            side: {param.name: tr(param.label) for param in params}
            for side, params in (
                ("top", TOP_PARAMS),
                ("mine", MINE_PARAMS),
                ("enemy", ENEMY_PARAMS),
                ("distances", DISTANCE_PARAMS),
            )
        },
        "ui": {key: tr(text) if isinstance(text, str) else language.plural_forms(*text) for key, text in UI.items()},
        "numbers": language.numbers.symbols(),
        "quotes": QUOTES[lang],  # how the page's language quotes a field's label in a message
        "bounds": BOUNDS,  # the engine's refusals of a field's own bounds, said in the page's words
        "generals": [{"value": general, "text": tr(CHOICE_LABELS[general])} for general in GENERALS],
        "objectives": [{"value": name, "text": tr(PLAN_OBJECTIVE_LABELS[name])} for name in OBJECTIVES],
        "states": [{"value": state, "text": tr(STATE_LABELS[state])} for state in STATES],
        "actions": {action: tr(label) for action, label in ACTION_LABELS.items()},
        "replies": {reply: tr(label) for reply, label in REPLY_LABELS.items()},
        "calculator_names": {name: tr(CALCULATORS[name].label) for name in CALCULATORS},
        "calculator_pages": {
            name: ctx.url(calculator_pages.page_path(name)) for name in calculator_pages.DEFAULT_SCENARIOS
        },
        "labels": {message: tr(message) for message in sorted(calculator_pages.calculator_strings())},
        "plurals": calculator_pages.calculator_plurals(language),
        "advisor_page": PageContext(book, lang, PLAN_PAGE, directory_urls).url(ADVISOR_PAGE),
    }
    return (
        environment(lang)
        .get_template("plan.md.j2")
        .render(
            data=json.dumps(data, ensure_ascii=False),
            readings=ctx.reading_links(READINGS),
            clarifications=ctx.link(CLARIFICATIONS_PAGE),
            units_page=PageContext(book, lang, PLAN_PAGE, directory_urls).url(UNITS_PAGE),
            data_format=ctx.link("data-format.md") + "#table-file",
        )
    )
